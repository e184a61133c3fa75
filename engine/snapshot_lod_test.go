package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lodByName is a level of detail whose level comes from the agent's name
// ("a0" level 0: every tick; "a1" level 1: 10 Hz; "a2" level 2: 2 Hz), so
// an agent keeps its level in any world and at any index. It notes the
// agents looked at in calls, when calls is not nil.
func lodByName(calls *[]string) LOD {
	return LOD{
		Level: func(a *Agent) int {
			if calls != nil {
				*calls = append(*calls, a.Name)
			}
			var level int
			if _, err := fmt.Sscanf(a.Name, "a%d", &level); err != nil {
				return 0
			}
			return level
		},
		Rates: []float64{60, 10, 2},
	}
}

// lodWalkers returns a world of one worker under lodByName with walkers
// a0, a1 and a2 (walkerRole), after ticks ticks of 1/60 s.
func lodWalkers(t *testing.T, d *Domain, ticks int) *World {
	w := NewWorld(1)
	w.Workers = 1
	w.LOD = lodByName(nil)
	for i := range 3 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	for range ticks {
		w.Tick(1.0 / 60)
	}
	return w
}

// noteDts gives each agent a fresh list of the dts its walker is given
// (walking notes them in the agent's Data) and returns the lists.
func noteDts(agents []*Agent) [][]float64 {
	dts := make([][]float64, len(agents))
	for i, a := range agents {
		a.Data = &dts[i]
	}
	return dts
}

// TestAnAgentMovedUnderALevelOfDetailThinksAsItWouldHaveAtHome: agents
// moved with SnapshotAgents and AddSnapshot into a world whose level of
// detail clock reads another time think on the same ticks, with the same
// dts, as they do in the world they left: the time each is owed and its
// next look are carried over relative to the clocks.
func TestAnAgentMovedUnderALevelOfDetailThinksAsItWouldHaveAtHome(t *testing.T) {
	d := walkerRole(t)
	home := lodWalkers(t, d, 37)
	var buf bytes.Buffer
	require.NoError(t, home.SnapshotAgents(&buf, home.Agents))

	away := NewWorld(2)
	away.Workers = 1
	away.LOD = lodByName(nil)
	away.Add(NewAgent("local", d))
	for range 50 {
		away.Tick(1.0 / 60)
	}
	require.NotEqual(t, home.lod.time, away.lod.time, "the two clocks read different times")
	moved, err := away.AddSnapshot(&buf, RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	require.Len(t, moved, 3)

	atHome, moving := noteDts(home.Agents), noteDts(moved)
	for range 90 {
		home.Tick(1.0 / 60)
		away.Tick(1.0 / 60)
	}
	for i, a := range home.Agents {
		require.Len(t, moving[i], len(atHome[i]), "%s thinks as often", a.Name)
		for j := range atHome[i] {
			assert.InDelta(t, atHome[i][j], moving[i][j], 1e-9, "%s's think %d", a.Name, j)
		}
		assert.Equal(t, a.Ticks(), moved[i].Ticks(), a.Name)
	}
	assert.Len(t, atHome[0], 90, "a0 thinks every tick")
	assert.Len(t, atHome[1], 15, "a1 every sixth tick")
	assert.Less(t, len(atHome[2]), 5, "a2 every thirtieth tick, once its walk began")
}

// TestARestoredWorldSavesTheLevelsOfDetailItWasGiven: a world restored
// from a snapshot under a level of detail, saved again before it ticks,
// writes each agent's level of detail as it was read: nothing is added for
// an agent that thinks every tick (such as where its next look would be
// at a lowered rate).
func TestARestoredWorldSavesTheLevelsOfDetailItWasGiven(t *testing.T) {
	d := walkerRole(t)
	w := lodWalkers(t, d, 37)
	var saved bytes.Buffer
	require.NoError(t, w.Snapshot(&saved))
	r, err := Restore(bytes.NewReader(saved.Bytes()), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	r.LOD = lodByName(nil)
	var again bytes.Buffer
	require.NoError(t, r.Snapshot(&again))
	lods := func(b []byte) []any {
		var doc struct{ Agents []map[string]any }
		require.NoError(t, json.Unmarshal(b, &doc))
		var out []any
		for _, a := range doc.Agents {
			out = append(out, a["lod"])
		}
		return out
	}
	want := lods(saved.Bytes())
	assert.Equal(t, want, lods(again.Bytes()))
	require.Len(t, want, 3)
	assert.NotContains(t, want[0], "next", "a0 thinks every tick: no next look")
	assert.Contains(t, want[1], "next", "a1 has its next look")
}

// TestARestoredLevelOfDetailLooksAtTheAgentsTheSavedOneWould: after a
// restore, the level of each agent is asked on the same ticks as in the
// world that was saved: an agent at a lowered rate is looked at when its
// period is over, not in the first tick after the restore.
func TestARestoredLevelOfDetailLooksAtTheAgentsTheSavedOneWould(t *testing.T) {
	d := walkerRole(t)
	w := lodWalkers(t, d, 37)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := Restore(&buf, RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	var saved, restored []string
	w.LOD, r.LOD = lodByName(&saved), lodByName(&restored)
	for tick := range 40 {
		saved, restored = saved[:0], restored[:0]
		w.Tick(1.0 / 60)
		r.Tick(1.0 / 60)
		require.Equal(t, saved, restored, "tick %d after the restore", tick+1)
		if tick == 0 {
			assert.Equal(t, []string{"a0", "a1"}, restored, "a0, which thinks every tick, and a1, whose period ends in it; a2 waits")
		}
	}
}

// TestTheNextLookOfAnAgentThatThinksEveryTickIsIgnored: a snapshot that
// gives an agent thinking every tick (rate 0) a next look, as a snapshot
// edited by hand may, restores an agent that still thinks every tick.
func TestTheNextLookOfAnAgentThatThinksEveryTickIsIgnored(t *testing.T) {
	d := walkerRole(t)
	w := lodWalkers(t, d, 37)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	a0 := doc["agents"].([]any)[0].(map[string]any)
	require.Equal(t, "a0", a0["name"])
	lod := a0["lod"].(map[string]any)
	require.Equal(t, 0.0, lod["rate"])
	lod["next"] = 1e6
	edited, err := json.Marshal(doc)
	require.NoError(t, err)
	r, err := Restore(bytes.NewReader(edited), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	r.LOD = lodByName(nil)
	for range 10 {
		r.Tick(1.0 / 60)
	}
	assert.Equal(t, w.Agents[0].Ticks()+10, r.Agents[0].Ticks(), "a0 ticked in each of the 10 ticks")
}

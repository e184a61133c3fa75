package cluster

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

// walkerZone is a zone (no shard) whose world holds the named walkers,
// each owned under the hand-off "h-<name>", after ticks ticks.
func walkerZone(t *testing.T, agents []string, ticks int) (*Zone, *engine.Domain) {
	d := walkerDomain(t)
	z := &Zone{Name: "west", World: engine.NewWorld(3), held: map[string]held{}, out: map[string]*transit{}}
	for _, name := range agents {
		z.World.Add(engine.NewAgent(name, d))
		z.held[name] = held{handoff: "h-" + name, rev: 1}
	}
	for range ticks {
		z.World.Tick(0.01)
	}
	return z, d
}

func xOf(t *testing.T, w *engine.World, name string) float64 {
	a := w.Agent(name)
	require.NotNil(t, a, name)
	x, ok := a.Get("x").AsNumber()
	require.True(t, ok)
	return x
}

// A periodic snapshot is written a few agents a tick: each agent is saved
// as it was at the tick of its part, an agent that left (its hand-off
// confirmed) before its part is not saved, one still in transit is saved
// as the zone's copy, one that arrived after the round began is not (the
// hand-off stream has it), and the world's objects come back.
func TestZoneSnapshotInParts(t *testing.T) {
	z, d := walkerZone(t, names("w", 40), 5)
	require.NoError(t, z.World.AddObject(&engine.Object{Name: "crate", Kind: "ammo", Slots: 2}))
	r := z.beginSnapshot(4)
	assert.Equal(t, 16, r.per, "40 agents over 4 ticks, at least minPart a part")

	done, err := r.advance(z) // w000..w015 at x = 5
	require.NoError(t, err)
	require.False(t, done)
	z.World.Tick(0.01)
	z.World.Remove(z.World.Agent("w020")) // leaves before its part, confirmed
	delete(z.held, "w020")
	z.World.Add(engine.NewAgent("late", d)) // arrives during the round
	z.held["late"] = held{handoff: "h-late", rev: 1}
	done, err = r.advance(z) // w016..w031 but w020 at x = 6
	require.NoError(t, err)
	require.False(t, done)
	z.World.Tick(0.01)
	z.World.Remove(z.World.Agent("w003")) // leaves after its part: recovery drops it by its owner entry
	delete(z.held, "w003")
	// Leaves during the round, before its part, and is still in transit
	// at the end: saved as the copy the zone keeps, under the hand-off
	// that brought it.
	leaving := z.World.Agent("w035")
	var kept bytes.Buffer
	require.NoError(t, z.World.SnapshotAgents(&kept, []*engine.Agent{leaving}))
	z.World.Remove(leaving)
	delete(z.held, "w035")
	z.out["w035"] = &transit{id: "h-out", to: "east", prev: "h-w035", snap: kept.Bytes()}
	done, err = r.advance(z) // w032..w039 but w035 at x = 7
	require.NoError(t, err)
	require.True(t, done)
	zs, err := r.finish(z)
	require.NoError(t, err)
	assert.Len(t, zs.Agents, 4, "three parts and the agent in transit")

	b, err := zs.encode()
	require.NoError(t, err)
	back, err := decodeZoneSnap("west", b)
	require.NoError(t, err)
	var want []string
	for _, name := range names("w", 40) {
		if name != "w020" && name != "w035" {
			want = append(want, name)
		}
	}
	want = append(want, "w035")
	got, err := back.agentNames()
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Len(t, back.Handoffs, 39)
	assert.Equal(t, "h-w039", back.Handoffs["w039"])
	assert.Equal(t, "h-w035", back.Handoffs["w035"], "the hand-off that brought it, which its owner entry names until the new one commits")
	assert.NotContains(t, back.Handoffs, "late")

	w, err := back.restore(engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	require.Len(t, w.Agents, 39)
	assert.Equal(t, 5.0, xOf(t, w, "w000"))
	assert.Equal(t, 5.0, xOf(t, w, "w015"))
	assert.Equal(t, 6.0, xOf(t, w, "w016"))
	assert.Equal(t, 7.0, xOf(t, w, "w039"))
	assert.Equal(t, 7.0, xOf(t, w, "w035"), "the mind it left with")
	assert.Equal(t, z.World.Time, w.Time, "the world's clock as the round finished")
	crate := w.Object("crate")
	require.NotNil(t, crate)
	assert.Equal(t, []string{"crate", "ammo"}, []string{crate.Name, crate.Kind})
	assert.Equal(t, 2, crate.Slots)
	w.Tick(0.01)
	assert.Equal(t, 8.0, xOf(t, w, "w039"), "a restored agent goes on with its mind")
}

// A drain's snapshot is written in one go, and a snapshot holding the
// whole world in "world" (no parts) restores as well.
func TestZoneSnapshotAtOnceAndWhole(t *testing.T) {
	z, d := walkerZone(t, names("w", 20), 3)
	zs, err := z.snapshotNow()
	require.NoError(t, err)
	assert.Len(t, zs.Agents, 1)
	b, err := zs.encode()
	require.NoError(t, err)
	back, err := decodeZoneSnap("west", b)
	require.NoError(t, err)
	w, err := back.restore(engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	assert.Len(t, w.Agents, 20)
	assert.Equal(t, 3.0, xOf(t, w, "w019"))

	var whole bytes.Buffer
	require.NoError(t, z.World.Snapshot(&whole))
	old := &zoneSnap{Zone: "west", Handoffs: map[string]string{"w000": "h-w000"}, World: whole.Bytes()}
	b, err = old.encode()
	require.NoError(t, err)
	back, err = decodeZoneSnap("west", b)
	require.NoError(t, err)
	got, err := back.agentNames()
	require.NoError(t, err)
	assert.Equal(t, names("w", 20), got)
	w, err = back.restore(engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	assert.Len(t, w.Agents, 20)
	assert.Equal(t, 3.0, xOf(t, w, "w007"))
}

package luabind_test

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// loadSnapshotRoles loads the two test roles into a fresh runtime, as a
// new process that loads a saved game would.
func loadSnapshotRoles(t *testing.T) (*luabind.Runtime, []*engine.Domain) {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Join("testdata", "snapshot")})
	t.Cleanup(rt.Close)
	var out []*engine.Domain
	for _, f := range []string{"patrol.lua", "tally.lua"} {
		d, err := rt.LoadDomain(f)
		require.NoError(t, err, f)
		out = append(out, d)
	}
	return rt, out
}

// tickAll is the game loop: the game clears the goals' flags (its
// sensors) before every tick, so the agents always have work.
func tickAll(w *engine.World, n int) map[string][]record.Event {
	out := map[string][]record.Event{}
	w.OnEvent = func(e record.Event) { out[e.Agent] = append(out[e.Agent], e) }
	for i := 0; i < n; i++ {
		for _, a := range w.Agents {
			a.Set("walked", expr.BoolValue(false))
			a.Set("counted", expr.BoolValue(false))
		}
		w.Tick(1.0 / 60)
	}
	w.OnEvent = nil
	return out
}

func TestSnapshotOfLuaRolesLoadsInANewRuntime(t *testing.T) {
	_, domains := loadSnapshotRoles(t)
	orig := engine.NewWorld(5)
	orig.Add(engine.NewAgent("guard", domains[0]))
	orig.Add(engine.NewAgent("clerk", domains[1]))
	tickAll(orig, 300)
	guard := orig.Agents[0]
	require.NotNil(t, guard.Running(), "the guard waits mid-walk at tick 300")
	require.Equal(t, "walk", guard.Running().Name)
	require.Nil(t, orig.Agents[1].Running(), "the clerk's steps take one tick")

	var buf bytes.Buffer
	require.NoError(t, orig.Snapshot(&buf))
	_, fresh := loadSnapshotRoles(t)
	restored, err := engine.Restore(&buf, engine.RestoreOptions{Domains: fresh})
	require.NoError(t, err)

	// The walk restarts from the saved state, recorded as such.
	g := restored.Agents[0]
	recs := g.Recorder.Records()
	last := recs[len(recs)-1]
	assert.Equal(t, record.EventStart, last.Kind)
	assert.Equal(t, "walk", last.Action)
	assert.Equal(t, "restarted after a load", last.Reason)
	assert.Equal(t, guard.Get("rounds"), g.Get("rounds"))

	evA, evB := tickAll(orig, 300), tickAll(restored, 300)
	// The clerk was between steps: it decides and draws exactly as the
	// original, so its random source came back.
	require.NotEmpty(t, evA["clerk"])
	assert.Equal(t, evA["clerk"], evB["clerk"])
	assert.Equal(t, orig.Agents[1].Get("sum"), restored.Agents[1].Get("sum"))
	// The guard runs on without error, walking more rounds.
	for _, e := range evB["guard"] {
		assert.NotEqual(t, record.EventFail, e.Kind, e.String())
	}
	after, _ := g.Get("rounds").AsNumber()
	saved, _ := orig.Agents[0].Get("rounds").AsNumber()
	assert.Greater(t, after, saved-20, "the restored guard keeps pace with the original")
	assert.Greater(t, after, 60.0)
}

// math.randomseed reseeds the agent's own source in place, so a world
// whose scripts reseed can still be saved, and the reseeded source is
// what is saved.
func TestRandomseedKeepsTheWorldSavable(t *testing.T) {
	_, domains := loadSnapshotRoles(t)
	w := engine.NewWorld(5)
	w.Add(engine.NewAgent("guard", domains[0]))
	tickAll(w, 2)
	require.Equal(t, expr.BoolValue(true), w.Agents[0].Get("seeded"))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	assert.Equal(t, w.Agents[0].Rand.Uint64(), r.Agents[0].Rand.Uint64())
}

// A Lua role's intentions restart from their goals after a load: the
// ring intention, mid-wait at the snapshot, runs again once in a fresh
// runtime, and the initial goal is not added a second time.
func TestSnapshotOfLuaPlansRestartsIntentions(t *testing.T) {
	load := func() *engine.Domain {
		rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Join("testdata", "examples")})
		t.Cleanup(rt.Close)
		d, err := rt.LoadDomain("bell.lua")
		require.NoError(t, err)
		return d
	}
	w := engine.NewWorld(1)
	w.Add(engine.NewAgent("bell", load()))
	w.Tick(0.1)
	require.Equal(t, expr.NumberValue(0), w.Agents[0].Get("rung"), "the ring intention waits")
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))

	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{load()}})
	require.NoError(t, err)
	var prints []string
	r.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPrint {
			prints = append(prints, e.Reason)
		}
		assert.NotEqual(t, record.EventIntentionFailed, e.Kind, e.String())
	}
	for i := 0; i < 10; i++ {
		r.Tick(0.1)
	}
	assert.Equal(t, expr.NumberValue(1), r.Agents[0].Get("rung"))
	assert.Equal(t, []string{"bell rung 1 time(s)"}, prints)
}

// tickMiners is the miners' game loop: the game takes the ore of a
// stocked miner before every tick, so they keep surveying and mining.
func tickMiners(w *engine.World, n int) map[string][]record.Event {
	out := map[string][]record.Event{}
	w.OnEvent = func(e record.Event) { out[e.Agent] = append(out[e.Agent], e) }
	for i := 0; i < n; i++ {
		a := w.Agents[w.Rand.IntN(len(w.Agents))]
		if ore, _ := a.Get("ore").AsNumber(); ore >= 12 {
			a.Set("ore", expr.NumberValue(float64(w.Rand.IntN(6))))
		}
		w.Tick(1.0 / 60)
	}
	w.OnEvent = nil
	return out
}

func loadMiner(t *testing.T) *engine.Domain {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Join("testdata", "snapshot")})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain("miner.lua")
	require.NoError(t, err)
	return d
}

func TestSnapshotKeepsLuaFacts(t *testing.T) {
	orig := engine.NewWorld(11)
	d := loadMiner(t)
	for _, name := range []string{"ann", "bob", "cat"} {
		orig.Add(engine.NewAgent(name, d))
	}
	tickMiners(orig, 300)
	held := 0
	for _, a := range orig.Agents {
		if a.Fact("Survey") != nil {
			held++
		}
	}
	require.Positive(t, held, "some miner holds a survey table at tick 300")

	var buf bytes.Buffer
	require.NoError(t, orig.Snapshot(&buf))
	require.Contains(t, buf.String(), `"lua": {`, "the table is saved as JSON")
	restored, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{loadMiner(t)}})
	require.NoError(t, err)

	evA, evB := tickMiners(orig, 300), tickMiners(restored, 300)
	for _, a := range orig.Agents {
		require.NotEmpty(t, evA[a.Name])
		assert.Equal(t, evA[a.Name], evB[a.Name], "agent %s decides as the original", a.Name)
		for _, e := range evB[a.Name] {
			assert.NotEqual(t, record.EventFail, e.Kind, "%s: %s", a.Name, e)
		}
	}
}

func TestSnapshotRefusesUnsavableLuaFacts(t *testing.T) {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Join("testdata", "snapshot")})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain("miner.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("ann", d)
	w.Add(a)
	for _, tc := range []struct{ name, src, want string }{
		{"function", `return { f = function() end }`, "a function cannot be saved"},
		{"mixed keys", `return { 1, 2, x = 3 }`, "a table with both string and number keys, or numbers that are no sequence 1..n, cannot be saved"},
		{"nan", `return { n = 0/0 }`, "the number NaN cannot be saved"},
		{"cycle", `local t = {} t.t = t return t`, "a table nested more than 16 deep (or a cycle) cannot be saved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, rt.L.DoString(tc.src))
			v := rt.L.Get(-1)
			rt.L.Pop(1)
			require.True(t, a.SetFact("Survey", v))
			err := w.Snapshot(&bytes.Buffer{})
			require.Error(t, err)
			assert.Equal(t, "engine: snapshot: agent ann: fact Survey: "+tc.want, err.Error())
		})
	}
}

// TestSnapshotOfLuaRolesRefusesNumbersScriptsCannotStore: a Lua role's
// state holds only numbers a script may write, so a snapshot whose state
// holds NaN is damaged and refused, naming the agent and variable.
func TestSnapshotOfLuaRolesRefusesNumbersScriptsCannotStore(t *testing.T) {
	_, domains := loadSnapshotRoles(t)
	require.True(t, domains[1].SafeNumbers)
	w := engine.NewWorld(5)
	clerk := engine.NewAgent("clerk", domains[1])
	w.Add(clerk)
	require.True(t, clerk.Set("counted", expr.NumberValue(math.NaN())), "Go code may write what a script cannot")
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	_, err := engine.Restore(&buf, engine.RestoreOptions{Domains: domains})
	require.Error(t, err)
	assert.Equal(t, "engine: restore: agent clerk: state counted: NaN cannot be stored in state", err.Error())
}

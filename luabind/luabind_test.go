package luabind

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func soldierPath() string { return filepath.Join("..", "scripts", "soldier.lua") }

func TestSoldierScriptPlansFetchThenReload(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(soldierPath())
	require.NoError(t, err)
	p, err := engine.NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, p.Names())
	assert.Equal(t, 3.0, p.Cost, "fetchMagazine costs 2, reload 1")
}

func TestWaitFinishesAfterGameTime(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		dt     float64
		tick   int
	}{
		{"tenth of a second", "1.5 s is 15 ticks after the starting tick", 0.1, 16},
		{"60 fps", "90 ticks after the starting tick", 1.0 / 60, 91},
		{"half second", "3 ticks after the starting tick", 0.5, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{})
			defer rt.Close()
			d, err := rt.LoadDomain(filepath.Join("testdata", "waiter.lua"))
			require.NoError(t, err)
			w := engine.NewWorld(1)
			var events []record.Event
			w.OnEvent = func(e record.Event) { events = append(events, e) }
			a := engine.NewAgent("w", d)
			w.Add(a)
			for i := 0; i < tc.tick+5; i++ {
				w.Tick(tc.dt)
			}
			var finish *record.Event
			for i := range events {
				if events[i].Kind == record.EventFinish {
					finish = &events[i]
				}
			}
			require.NotNil(t, finish, "the body never finished: %v", events)
			assert.Equal(t, tc.tick, finish.Tick, tc.reason)
			assert.Equal(t, "linger", finish.Action)
			assert.Equal(t, expr.BoolValue(true), a.Get("done"))
		})
	}
}

func TestSyntaxErrorNamesFileLineColumn(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	_, err := rt.LoadDomain(filepath.Join("testdata", "syntax_error.lua"))
	require.Error(t, err)
	assert.Equal(t, filepath.Join("testdata", "syntax_error.lua")+":4:20: syntax error near 'run'", err.Error())
}

func TestValidationReportsEveryProblem(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	_, err := rt.LoadDomain(filepath.Join("testdata", "invalid.lua"))
	var ce *engine.CompileError
	require.ErrorAs(t, err, &ce)
	f := filepath.Join("testdata", "invalid.lua")
	lines := strings.Split(err.Error(), "\n")
	assert.Equal(t, []string{
		f + `:5:48: goal "armed": unknown key "priorty" (did you mean "priority"?)`,
		f + `:6:41: goal "calm" condition: col 7: expected a value (a name, a number, a string, true, false, nil or "("), found end of text in "ammo >"`,
		f + `:6:44: goal "calm": priority must be low, normal, high, critical or a number, not "urgent"`,
		f + `:9:68: action "reload" effects: col 15: expected a value (a number, a string, true, false, nil or a name), found end of text in "ammo = ammo + "`,
		f + `:9:71: action "reload" fulfills "armd", which is no goal (did you mean "armed"?)`,
	}, lines)
}

func TestBodyErrorFailsTheStepNotTheWorld(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	bad, err := rt.LoadDomain(filepath.Join("testdata", "failing.lua"))
	require.NoError(t, err)
	good, err := rt.LoadDomain(filepath.Join("testdata", "waiter.lua"))
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var fails []record.Event
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails = append(fails, e)
		}
	}
	b, g := engine.NewAgent("bad", bad), engine.NewAgent("good", good)
	w.Add(b)
	w.Add(g)
	for i := 0; i < 30; i++ {
		w.Tick(0.1)
	}
	require.NotEmpty(t, fails)
	assert.Equal(t, "bad", fails[0].Agent)
	assert.Contains(t, fails[0].Reason, filepath.Join("testdata", "failing.lua")+":12: attempt to index")
	assert.Equal(t, expr.BoolValue(true), g.Get("done"), "the other agent kept running")
	n, _ := b.Get("tries").AsNumber()
	assert.GreaterOrEqual(t, n, 2.0, "the failing agent retried after its back-off")
}

func TestUndeclaredVariableIsATypo(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	f := filepath.Join("testdata", "typo_var.lua")
	_, err := rt.LoadDomain(f)
	require.Error(t, err)
	assert.Equal(t, f+`:6:29: action "chop" pre reads "enrgy", which no state variable, effect or named condition provides (did you mean "energy"?)`, err.Error())
}

func TestMethodCalledWithADotSaysUseAColon(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	f := filepath.Join("testdata", "dot_call.lua")
	d, err := rt.LoadDomain(f)
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	task, err := d.Actions[0].Body.Start(a, d.Actions[0])
	require.NoError(t, err)
	st, err := task.Resume(0.1)
	assert.Equal(t, engine.Failed, st)
	require.Error(t, err)
	assert.Equal(t, f+":7: npc:wait is a method: call it with a colon, npc:wait(...), not npc.wait(...)", err.Error())
}

func TestMathRandomFollowsTheWorldSeed(t *testing.T) {
	run := func(seed uint64) []string {
		rt := NewRuntime(Options{})
		defer rt.Close()
		d, err := rt.LoadDomain(filepath.Join("testdata", "dice.lua"))
		require.NoError(t, err)
		w := engine.NewWorld(seed)
		var out []string
		for i := 0; i < 3; i++ {
			w.Add(engine.NewAgent(string(rune('a'+i)), d))
		}
		for i := 0; i < 10; i++ {
			w.Tick(0.1)
		}
		for _, a := range w.Agents {
			f, _ := a.Get("frac").AsNumber()
			out = append(out, a.Get("roll").String())
			assert.True(t, f >= 0 && f < 1, "math.random() is in [0, 1)")
		}
		return out
	}
	first := run(7)
	assert.Equal(t, first, run(7), "same seed, same rolls")
	assert.NotEqual(t, first, run(8), "another seed, other rolls")
	assert.NotEqual(t, first[0], first[1], "each agent has its own source")
}

func TestSyntaxErrorAtEndOfFileHasAPosition(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	f := filepath.Join("testdata", "eof.lua")
	_, err := rt.LoadDomain(f)
	require.Error(t, err)
	assert.Equal(t, f+`:3:14: syntax error at the end of the file (a missing "end", "}" or ")"?)`, err.Error())
}

func TestExtendsCycleIsReportedWhereItCloses(t *testing.T) {
	dir := filepath.Join("testdata", "cycle")
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	a, b := filepath.Join(dir, "a.lua"), filepath.Join(dir, "b.lua")
	_, err := rt.LoadDomain(a)
	require.Error(t, err)
	assert.Equal(t, b+":1:22: role: extends cycle: "+a+" extends "+b+" extends "+a, err.Error())
}

func TestRequireCycleNamesTheChain(t *testing.T) {
	dir := filepath.Join("testdata", "reqcycle")
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	_, err := rt.LoadDomain(filepath.Join(dir, "ra.lua"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `require "rb": a require cycle: rb requires ra requires rb`)
	assert.True(t, strings.HasPrefix(err.Error(), filepath.Join(dir, "ra.lua")+":1:"), err.Error())
}

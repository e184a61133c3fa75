package luabind

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// mirrorPickRole is a utility role whose bodies write, between yields and
// waits, the slots other actions' considerations read (so the running
// pick's re-scores see their inputs change mid-pick), read them back
// through npc.state (the mirror's sync), and note what they read in the
// state as text (so a stale mirror shows in the records); one
// consideration is a Lua function (the memo is then off for its action).
const mirrorPickRole = `return { name = "Mirror", decide = "utility",
  state = { hunger = 3, heat = 1, fatigue = 2, seen = "", n = 0 },
  actions = {
    { name = "eat", pre = "hunger > 1",
      considerations = { { name = "hungry", input = "hunger", min = 0, max = 10, curve = "logistic", slope = 8, offset = 0.4 } },
      run = function(npc)
        for i = 1, 3 do
          npc.state.heat = npc.state.heat + 1
          npc.state.seen = tostring(npc.state.hunger) .. "/" .. tostring(npc.state.heat)
          npc:wait(0.05)
          npc.state.hunger = npc.state.hunger - 1
          coroutine.yield()
        end
      end },
    { name = "cool", pre = "heat > 2",
      considerations = { { name = "hot", input = "heat", min = 0, max = 12 },
        function(action, state) return (state.fatigue or 0) / 10 end },
      run = function(npc)
        while npc.state.heat > 0 do
          npc.state.heat = npc.state.heat - 1
          npc.state.fatigue = npc.state.fatigue + 1
          npc.state.seen = tostring(npc.state.fatigue)
          coroutine.yield()
        end
      end },
    { name = "nap", pre = "fatigue > 0",
      considerations = { { name = "tired", input = "fatigue", min = 0, max = 8, curve = "polynomial", exponent = 2 } },
      run = function(npc)
        npc.state.n = npc.state.n + 1
        npc:wait(0.1)
        npc.state.fatigue = math.max(0, npc.state.fatigue - 3)
        npc.state.hunger = npc.state.hunger + 2
        npc.state.seen = tostring(npc.state.hunger) .. ":" .. tostring(npc.state.n)
      end },
  } }
`

// mirrorPickRun ticks 16 agents of mirrorPickRole for 500 ticks while the
// game writes the scores' slots between ticks (numbers, NaN, ±Inf, -0,
// nil, strings), with the state mirror on or off and npc:wait in Go or
// in Lua (testHooks.luaWait), and returns every
// record and every agent's final state.
func mirrorPickRun(t *testing.T, file string, off, useLua bool) []string {
	t.Helper()
	defer func(old, oldWait bool) { testHooks.noMirror, testHooks.luaWait = old, oldWait }(testHooks.noMirror, testHooks.luaWait)
	testHooks.noMirror, testHooks.luaWait = off, useLua
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	w := engine.NewWorld(7)
	var out []string
	w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%s %+v", e.Kind, e)) }
	for i := range 16 {
		a := engine.NewAgent(fmt.Sprintf("m%d", i), d)
		a.RethinkEvery = []float64{0, 0.05, 0.2, -1}[i%4]
		w.Add(a)
	}
	odd := []expr.Value{expr.NumberValue(math.NaN()), expr.NumberValue(math.Inf(1)), expr.NumberValue(math.Inf(-1)),
		expr.NumberValue(math.Copysign(0, -1)), expr.NilValue(), expr.StringValue("hot"), expr.BoolValue(true)}
	names := []string{"hunger", "heat", "fatigue"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		for _, a := range w.Agents {
			switch p := r.IntN(100); {
			case p < 3:
				a.Set(names[r.IntN(3)], odd[r.IntN(len(odd))])
			case p < 15:
				a.Set(names[r.IntN(3)], expr.NumberValue(float64(r.IntN(10))))
			case p < 20:
				a.Set("hunger", a.Get("hunger")) // the same value
			}
		}
		w.Tick(1.0 / 30)
	}
	w.Finish()
	for _, a := range w.Agents {
		out = append(out, fmt.Sprintf("%s %v", a.Name, a.State.Map(d.Schema)))
	}
	return out
}

// TestMirrorPicksAsWithout: a utility role whose Lua bodies write and
// read the slots its considerations read, mid-pick, under a game writing
// odd values, makes every record and final state alike with the state
// mirror (its sync's stored-alike test) and without it, with npc:wait in
// Go and in Lua.
func TestMirrorPicksAsWithout(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mirror_pick.lua")
	require.NoError(t, os.WriteFile(file, []byte(mirrorPickRole), 0o644))
	want := mirrorPickRun(t, file, true, true)
	picks, interrupts, fails := 0, 0, 0
	for _, l := range want {
		switch {
		case len(l) > 5 && l[:5] == "pick ":
			picks++
		case len(l) > 10 && l[:10] == "interrupt ":
			interrupts++
		case len(l) > 5 && l[:5] == "fail ":
			fails++
		}
	}
	assert.Greater(t, picks, 100, "the run picks")
	assert.Greater(t, interrupts, 20, "re-scores interrupt picks")
	for _, c := range []struct{ off, useLua bool }{{false, false}, {false, true}, {true, false}} {
		got := mirrorPickRun(t, file, c.off, c.useLua)
		require.Equal(t, len(want), len(got), "as many records (mirror off %v, Lua wait %v)", c.off, c.useLua)
		for i := range want {
			require.Equal(t, want[i], got[i], "record %d (mirror off %v, Lua wait %v)", i, c.off, c.useLua)
		}
	}
}

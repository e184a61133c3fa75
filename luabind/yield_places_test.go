package luabind

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// yieldPlacesRole has, in every place the engine calls a function and
// needs its result within the tick, the line "if PLACE == <place> then
// YIELD end": the test writes one file per place and way of yielding.
const yieldPlacesRole = `return {
  name = "Yielder",
  decide = DECIDE,
  state = { done = false, alarm = false, ticks = 0 },
  goals = {
    { name = "finished", condition = "done", priority = "low" },
    { name = "calm", condition = "!alarm", priority = "high" },
  },
  conditions = {
    ready = function(npc)
      if PLACE == "condition" then YIELD end
      return true
    end,
  },
  sensors = {
    { name = "clock", run = function(npc, dt)
        if PLACE == "sensor" then YIELD end
        npc.state.ticks = npc.state.ticks + 1
        if npc.state.ticks == 3 then npc.state.alarm = true end
      end },
  },
  actions = {
    { name = "work", pre = "ready", effects = "done = true",
      considerations = { function(action, state)
        if PLACE == "consideration" then YIELD end
        return 1
      end },
      run = function(npc)
        npc:wait_event(function(e)
          if PLACE == "filter" then YIELD end
          return false
        end)
      end,
      on_interrupt = function(npc)
        if PLACE == "on_interrupt" then YIELD end
      end },
    { name = "calm_down", effects = "alarm = false", run = function(npc) npc.state.alarm = false end },
  },
  plans = {
    { on = "belief_added", belief = "ticks",
      trigger = function(b, npc)
        if PLACE == "trigger" then YIELD end
        return b
      end,
      guard = function(ctx, npc)
        if PLACE == "guard" then YIELD end
        return ctx
      end,
      body = function(npc) end },
  },
}
`

// TestYieldWhereNoCoroutineRuns: a condition, a sensor, a consideration,
// a plan's trigger and guard, a wait_event filter and on_interrupt run to
// their end inside one Go call of the tick, so none of them can wait: a
// yield there, directly, through pcall or by npc:wait, fails that
// function with a message naming the place and the yield's file:line
// (gopher-lua's own said "can not yield from outside of a coroutine" or
// "a consideration or callback"), and the agent next to it keeps running.
// A coroutine the function makes and resumes itself still yields.
func TestYieldWhereNoCoroutineRuns(t *testing.T) {
	places := []struct {
		place, what string
		kind        record.EventKind
		prefix      string // what the record puts before the script's error
		decide      string
	}{
		{"condition", "a condition", record.EventConditionFailed, "", "goap"},
		{"sensor", "a sensor", record.EventSensorFailed, "", "goap"},
		{"consideration", "a consideration", record.EventConsiderationFailed,
			`consideration "function@24" (FILE:24:26) scored 0: `, "utility"},
		{"trigger", "a plan's trigger", record.EventNoPlan, `plan "plan #1" trigger: `, "goap"},
		{"guard", "a plan's guard", record.EventNoPlan, `plan "plan #1" guard: `, "goap"},
		{"filter", "a wait_event filter", record.EventFail, "FILE:29: wait_event with a function filter: ", "goap"},
		{"on_interrupt", "on_interrupt", record.EventFail, "on_interrupt: ", "goap"},
	}
	yields := []struct{ name, code, msg string }{
		{"coroutine.yield", "coroutine.yield()", "cannot wait or yield in WHAT: it runs to its end within the tick that calls it (only action bodies and plan bodies can wait)"},
		{"pcall", "pcall(coroutine.yield)", "cannot wait or yield in WHAT: it runs to its end within the tick that calls it (only action bodies and plan bodies can wait)"},
		{"npc:wait", "npc:wait(1)", "npc:wait can only be called in an action body (run), not in WHAT"},
	}
	dir := t.TempDir()
	for _, p := range places {
		for _, y := range yields {
			if p.place == "consideration" && y.name == "npc:wait" {
				continue // a consideration gets no npc
			}
			t.Run(p.place+"/"+y.name, func(t *testing.T) {
				src := strings.ReplaceAll(yieldPlacesRole, "PLACE", strconv.Quote(p.place))
				src = strings.ReplaceAll(src, "YIELD", y.code)
				src = strings.ReplaceAll(src, "DECIDE", strconv.Quote(p.decide))
				line := 1 + strings.Count(src[:strings.Index(src, strconv.Quote(p.place)+" then")], "\n")
				path := filepath.Join(dir, p.place+"_"+strings.ReplaceAll(y.name, ":", "_")+".lua")
				require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
				rt := NewRuntime(Options{})
				defer rt.Close()
				d, err := rt.LoadDomain(path)
				require.NoError(t, err)
				wd := newWorld(t, rt, []string{"waiter"}, []string{"waiter.lua"})
				wd.w.Add(engine.NewAgent("yielder", d))
				wd.run(25, 0.1)
				got := ""
				for _, e := range wd.events {
					if e.Agent == "yielder" && e.Kind == p.kind && e.Reason != "" {
						got = e.Reason
						break
					}
				}
				want := strings.ReplaceAll(p.prefix, "FILE", path) + path + ":" + strconv.Itoa(line) + ": " + strings.ReplaceAll(y.msg, "WHAT", p.what)
				assert.Equal(t, want, got)
				assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent kept running")
			})
		}
	}
}

// TestCoroutinesInsideACallbackStillYield: a guard may run a coroutine
// of its own; its yields go back to the guard, as in any Lua.
func TestCoroutinesInsideACallbackStillYield(t *testing.T) {
	src := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(yieldPlacesRole, "DECIDE", `"goap"`), "PLACE", `"guard"`),
		"YIELD", `local n = coroutine.wrap(function() coroutine.yield(41) end)() npc:print("got " .. n + 1)`)
	path := filepath.Join(t.TempDir(), "inner.lua")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	wd := newWorld(t, rt, nil, nil)
	wd.w.Add(engine.NewAgent("yielder", d))
	wd.run(3, 0.1)
	p := wd.first("yielder", record.EventPrint)
	require.NotNil(t, p)
	assert.Equal(t, "yielder got 42", p.Reason)
	assert.Nil(t, wd.first("yielder", record.EventNoPlan), "the guard passed")
}

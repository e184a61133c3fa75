package luabind

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestRunawayBodyIsStoppedAndTheWorldGoesOn(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"spinner", "waiter"}, []string{"broken/runaway.lua", "waiter.lua"})
	wd.run(30, 0.1)

	fail := wd.first("spinner", record.EventFail)
	require.NotNil(t, fail, "the runaway body failed its action")
	assert.Equal(t, "spin", fail.Action)
	assert.Contains(t, fail.Reason, filepath.Join("testdata", "broken", "runaway.lua")+":12: instruction budget exceeded",
		"the error names the file and the line of the loop")
	assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent finished meanwhile")
	n, _ := wd.agents["spinner"].Get("tries").AsNumber()
	assert.GreaterOrEqual(t, n, 2.0, "the spinner was retried after its back-off: the runtime stayed usable")
}

func TestBodyOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		file   string
		kind   record.EventKind
		want   string // part of the fail reason, when kind is EventFail
		check  func(t *testing.T, a *engine.Agent)
	}{
		{"error fails the action", "error(...) in a body is a failure with file:line", "failing.lua", record.EventFail,
			filepath.Join("testdata", "failing.lua") + ":12: attempt to index", nil},
		{"return false, reason", "the reason is the failure's message", "return_false.lua", record.EventFail,
			"the door is locked", nil},
		{"pcall around npc:wait", "the sandbox's pcall is yield-safe", "pcall_wait.lua", record.EventFinish, "",
			func(t *testing.T, a *engine.Agent) {
				assert.Equal(t, expr.BoolValue(true), a.Get("ok"), "pcall returned true after the wait")
				assert.Equal(t, expr.StringValue(filepath.Join("testdata", "pcall_wait.lua")+":14: boom"), a.Get("caught"),
					"an error after a wait inside pcall is caught with its position")
			}},
		{"2^53 + 1", "an integer of 2^53 or more is refused, not rounded: 2^53 + 1 reads as 2^53", "bigid.lua", record.EventFail,
			"bigid.lua:13: npc.state.id: 9007199254740992 is not an exact integer: numbers of magnitude 2^53 or more are refused",
			func(t *testing.T, a *engine.Agent) {
				assert.Equal(t, expr.NumberValue(9007199254740991), a.Get("small"), "2^53 - 1 is exact and kept")
				assert.Equal(t, expr.StringValue("1234567890123456789"), a.Get("id"), "the id kept as a string stays")
			}},
		{"waiting in a sort comparator", "gopher-lua cannot suspend a Go call; the sandbox says so", "sort_wait.lua", record.EventFail,
			"sort_wait.lua:14: cannot wait or yield inside a callback of table.sort", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{InstructionBudget: testBudget})
			defer rt.Close()
			wd := newWorld(t, rt, []string{"a", "waiter"}, []string{tc.file, "waiter.lua"})
			wd.run(25, 0.1)
			e := wd.first("a", tc.kind)
			require.NotNil(t, e, "no %s event: %v", tc.kind, wd.events)
			if tc.kind == record.EventFail {
				assert.Contains(t, e.Reason, tc.want, tc.reason)
			}
			if tc.check != nil {
				tc.check(t, wd.agents["a"])
			}
			assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent kept running")
		})
	}
}

func TestPcallWaitTakesTheGameTime(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"a"}, []string{"pcall_wait.lua"})
	wd.run(25, 0.1)
	fin := wd.first("a", record.EventFinish)
	require.NotNil(t, fin)
	assert.Equal(t, 16, fin.Tick, "1 s inside the first pcall plus 0.5 s inside the second: 15 ticks after the starting tick")
}

func TestWaitUntilAndInterrupt(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "wait_until.lua"))
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	act := d.Action("await")

	task, err := act.Body.Start(a, act)
	require.NoError(t, err)
	for range 3 {
		st, err := task.Resume(0.1)
		require.NoError(t, err)
		require.Equal(t, engine.Running, st, "the body waits while open is false")
	}
	a.Set("open", expr.BoolValue(true))
	st, err := task.Resume(0.1)
	require.NoError(t, err)
	assert.Equal(t, engine.Succeeded, st, "wait_until returns once the function is true")
	assert.Equal(t, expr.NumberValue(4), a.Get("checks"), "the function ran once per resume")
	assert.Equal(t, expr.BoolValue(false), a.Get("interrupted"))

	a.Set("open", expr.BoolValue(false))
	task, err = act.Body.Start(a, act)
	require.NoError(t, err)
	st, err = task.Resume(0.1)
	require.NoError(t, err)
	require.Equal(t, engine.Running, st)
	task.Interrupt()
	assert.Equal(t, expr.BoolValue(true), a.Get("interrupted"), "on_interrupt ran when the engine interrupted the body")
	st, err = task.Resume(0.1)
	assert.Equal(t, engine.Failed, st, "an interrupted task does not run again")
	assert.Error(t, err)
}

func TestAnNPCKeptByAnotherAgentIsRefused(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"first", "second"}, []string{"leak.lua", "leak.lua"})
	wd.run(3, 0.1)
	assert.Equal(t, expr.BoolValue(true), wd.agents["first"].Get("done"))
	assert.Equal(t, expr.NumberValue(100), wd.agents["first"].Get("hp"), "the second agent could not reach the first one's state")
	fail := wd.first("second", record.EventFail)
	require.NotNil(t, fail)
	assert.Contains(t, fail.Reason, `leak.lua:17: npc "first" used while agent "second" runs`)
}

func TestStackLimitsAreCatchableAndLeaveTheStateUsable(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   string
	}{
		{"table.concat of 10,000 strings", "it builds the string without the value stack",
			`local t = {} for i = 1, 10000 do t[i] = "ab" end assert(#table.concat(t, ",") == 29999)`, ""},
		{"unpack of 10,000 values", "the value stack grows to 2^15 slots",
			`local t = {} for i = 1, 10000 do t[i] = i end assert(select("#", unpack(t)) == 10000)`, ""},
		{"unpack past the value stack", "running out of value stack is a Lua error",
			`local ok, err = pcall(unpack, {}, 1, 1e7) assert(not ok) error(err)`, "too many results to unpack (10000000; at most 32768)"},
		{"deep recursion", "running out of call stack is a Lua error",
			`local function f(n) return f(n + 1) + 1 end local ok, err = pcall(f, 1) assert(not ok) error(err)`, "stack overflow"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{})
			defer rt.Close()
			err := runChunk(rt, tc.src)
			if tc.want == "" {
				assert.NoError(t, err, tc.reason)
			} else {
				require.Error(t, err, tc.reason)
				assert.Contains(t, err.Error(), tc.want, tc.reason)
			}
			assert.NoError(t, runChunk(rt, `local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end assert(f(100) == 100)`),
				"the state is usable afterwards")
		})
	}
}

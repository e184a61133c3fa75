package luabind

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// writeRun is one run of runWrites: the work of each resume, the agents
// and the error that ended the first agent's body.
type writeRun struct {
	works  []int64
	agents []*engine.Agent
	err    error
	// fastWrites reports, from a host call, whether npc.state's fast
	// metatable sent writes to the mirror table then.
	fastWrites []bool
}

// runWrites loads a role whose body is body and runs it for two agents
// of one schema, resumed in turn up to 5 times each, with budget work
// units per resume, and with npc.state's writes done by the budget's
// check (fastWrite) or, with slow, by the Go stateNewIndex.
func runWrites(t *testing.T, dir, name, body string, slow bool, budget int64) writeRun {
	t.Helper()
	defer func(old bool) { testHooks.slowStateWrites = old }(testHooks.slowStateWrites)
	testHooks.slowStateWrites = slow
	file := writeMirrorRole(t, dir, name, body)
	var rt *Runtime
	var run writeRun
	var judge *lua.LFunction
	rt = NewRuntime(Options{InstructionBudget: budget, Host: map[string]HostFunc{
		"bump": bumpN,
		"look": func(c *HostCall) (bool, error) {
			_, ok := rt.stFastMeta.RawGetString("__newindex").(*lua.LTable)
			run.fastWrites = append(run.fastWrites, ok && rt.budget.fastState != nil)
			return true, nil
		},
		// judge calls back into Lua (a consideration's mode, where
		// npc.state is read-only) with the function the body gave it.
		"judge": func(c *HostCall) (bool, error) {
			if judge == nil {
				return true, nil
			}
			_, err := rt.Call(c.Agent, judge, 0, rt.npc(c.Agent))
			if err != nil {
				c.Agent.Set("s", expr.StringValue(err.Error()))
			}
			return true, nil
		},
	}})
	defer rt.Close()
	rt.L.SetGlobal("setjudge", rt.L.NewFunction(func(L *lua.LState) int { judge = L.CheckFunction(1); return 0 }))
	d, err := rt.LoadDomain(file)
	if err != nil {
		run.err = err // a budget too small to load the role file
		return run
	}
	act := d.Action("work")
	var tasks []engine.Task
	for i := range 2 {
		a := engine.NewAgent(fmt.Sprintf("w%d", i), d)
		a.Set("m", expr.NumberValue(float64(3+i)))
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		run.agents, tasks = append(run.agents, a), append(tasks, task)
	}
	running := []bool{true, true}
	for range 5 {
		for i, task := range tasks {
			if !running[i] {
				continue
			}
			st, err := task.Resume(0.1)
			run.works = append(run.works, task.(*luaTask).work)
			if err != nil && run.err == nil && i == 0 {
				run.err = err
			}
			running[i] = st == engine.Running && err == nil
		}
	}
	return run
}

// TestFastStateWritesCostAndAnswerAsBefore: npc.state writes done by
// the budget's check (fastWrite) and stored in the mirror by the VM
// spend exactly the work units, leave the same state and fail with the
// messages of writes through stateNewIndex, for two agents sharing one
// mirror, whatever the value, the key, the mode and the way the write
// reaches npc.state.
func TestFastStateWritesCostAndAnswerAsBefore(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"reads and writes", `for i = 1, 3 do
  npc.state.n = npc.state.n + npc.state.m
  npc:look()
  if npc.state.n > 100 then npc.state.flag = true end
  npc:wait(0.1)
end`, ""},
		{"a write before any read", `npc.state.n = 4 npc.state.n = npc.state.n + 1 npc.state.n = npc.state.n * 2 npc:look()`, ""},
		{"strings, bools and nil", `local s = npc.state.s
npc.state.s = s .. "y"
npc.state.flag = not npc.state.flag
npc.state.s = nil
assert(npc.state.s == nil)
npc.state.s = "z" .. s
npc.state.n = #npc.state.s + (npc.state.flag and 100 or 0)`, ""},
		{"zero and minus zero", `local n = npc.state.n npc.state.n = -0 npc.state.s = tostring(npc.state.n) npc.state.n = 0 npc.state.s = npc.state.s .. tostring(npc.state.n)`, ""},
		{"a host method changes state", `local a = npc.state.n npc:bump() npc.state.n = npc.state.n + a + 1 npc:bump()`, ""},
		{"through __newindex tables", `local x = npc.state.n
local t = setmetatable({}, { __newindex = npc.state })
local u = setmetatable({ n = 1 }, { __newindex = npc.state })
local v = setmetatable({}, { __newindex = t })
t.n = 5
assert(npc.state.n == 5)
u.n = 9
assert(npc.state.n == 5 and rawget(u, "n") == 9)
v.n = npc.state.n + 2
npc.state.s = "n" .. npc.state.n`, ""},
		{"inside pcall and a coroutine", `local x = npc.state.n
assert(pcall(function() npc.state.n = npc.state.n + 1 end))
local co = coroutine.wrap(function() npc.state.n = npc.state.n + 10 coroutine.yield() npc.state.n = npc.state.n + npc.state.m end)
co() npc:bump() co()`, ""},
		{"a read-only callback", `local x = npc.state.n
setjudge(function(npc) npc.state.n = x + 1 end)
npc:judge()
npc.state.flag = true`, ""},
		{"a table value", `local x = npc.state.n npc.state.n = {}`, "a table cannot be stored in state"},
		{"NaN", `local x = npc.state.n npc.state.n = 0/0`, "NaN cannot be stored in state"},
		{"a number past 2^53", `local x = npc.state.n npc.state.n = 2^53 + 2`, "is not an exact integer"},
		{"an unknown variable", `local x = npc.state.n npc.state.nope = 1`, "npc.state.nope: no such state variable"},
		{"a number key", `local x = npc.state.n npc.state[1] = 2`, "npc.state.1: no such state variable"},
		{"a table key", `local x = npc.state.n npc.state[{}] = 2`, "string expected, got table"},
		{"through a table to an unknown variable", `local x = npc.state.n
local t = setmetatable({}, { __newindex = npc.state }) t.nope = 1`, "npc.state.nope: no such state variable"},
		{"runaway writes", `local x = npc.state.n
while true do npc.state.n = x end`, "instruction budget exceeded"},
		{"runaway writes and reads", `local x = npc.state.n
while true do npc.state.n = x x = npc.state.n end`, "instruction budget exceeded"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fast := runWrites(t, dir, "fast", c.body, false, testBudget)
			slow := runWrites(t, dir, "slow", c.body, true, testBudget)
			if c.want == "" {
				require.NoError(t, slow.err)
				require.NoError(t, fast.err)
				assert.Equal(t, expr.BoolValue(true), fast.agents[0].Get("done"))
			} else {
				require.Error(t, slow.err)
				require.Error(t, fast.err)
				assert.Contains(t, fast.err.Error(), c.want)
				assert.Equal(t, stripDir(slow.err.Error(), dir, "slow"), stripDir(fast.err.Error(), dir, "fast"), "the same message")
			}
			assert.Equal(t, slow.works, fast.works, "the same work units per resume")
			for i := range fast.agents {
				for _, k := range []string{"n", "m", "s", "flag", "done"} {
					sv, fv := slow.agents[i].Get(k), fast.agents[i].Get(k)
					if s, ok := sv.AsString(); ok {
						sv = expr.StringValue(stripDir(s, dir, "slow"))
					}
					if s, ok := fv.AsString(); ok {
						fv = expr.StringValue(stripDir(s, dir, "fast"))
					}
					assert.Equal(t, sv, fv, "agent %d: %s", i, k)
				}
			}
			for i, on := range fast.fastWrites {
				assert.True(t, on, "look %d: writes were fast", i)
				assert.False(t, slow.fastWrites[i], "look %d: writes were slow", i)
			}
		})
	}
}

// TestFastStateWritesStopAsBefore: with every instruction budget from 1
// to past a resume's work, a body that writes npc.state stops at the same
// count, with the same message and state, both ways.
func TestFastStateWritesStopAsBefore(t *testing.T) {
	body := `local x = npc.state.n
npc.state.n = x + 1
npc.state.s = "a"
npc.state.n = npc.state.n + npc.state.m
npc.state.flag = true`
	dir := t.TempDir()
	whole := runWrites(t, dir, "whole", body, true, testBudget)
	require.NoError(t, whole.err)
	require.NotEmpty(t, whole.works)
	for budget := int64(1); budget <= whole.works[0]+2; budget++ {
		fast := runWrites(t, dir, "fast", body, false, budget)
		slow := runWrites(t, dir, "slow", body, true, budget)
		assert.Equal(t, slow.works, fast.works, "budget %d: the same work units", budget)
		if slow.err == nil {
			assert.NoError(t, fast.err, "budget %d", budget)
		} else if assert.Error(t, fast.err, "budget %d", budget) {
			assert.Equal(t, stripDir(slow.err.Error(), dir, "slow"), stripDir(fast.err.Error(), dir, "fast"), "budget %d: the same message", budget)
		}
		if len(slow.agents) == 0 {
			assert.Empty(t, fast.agents, "budget %d: the role file loads both ways or neither", budget)
			continue
		}
		for _, k := range []string{"n", "s", "flag", "done"} {
			assert.Equal(t, slow.agents[0].Get(k), fast.agents[0].Get(k), "budget %d: %s", budget, k)
		}
	}
}

// TestFastStateWritesUnderATimeBudget: under a time budget every write
// of the fast state goes to stateNewIndex (the clock's check comes after
// the budget's write check), and reads after writes and host calls see
// the new values.
func TestFastStateWritesUnderATimeBudget(t *testing.T) {
	file := writeMirrorRole(t, t.TempDir(), "timed", `local x = npc.state.n
npc.state.n = x + 5
npc.state.m = npc.state.n * 2
npc:bump()
npc.state.s = "n=" .. npc.state.n .. " m=" .. npc.state.m`)
	rt := NewRuntime(Options{InstructionBudget: -1, TimeBudget: time.Hour, Host: map[string]HostFunc{"bump": bumpN}})
	defer rt.Close()
	a, task := startWork(t, rt, file, "t", func(a *engine.Agent) { a.Set("n", expr.NumberValue(1)) })
	st, err := task.Resume(0.1)
	require.NoError(t, err)
	assert.Equal(t, engine.Succeeded, st)
	assert.Equal(t, expr.StringValue("n=16 m=12"), a.Get("s"))
}

// TestFastStateReadsUnderATimeBudgetCostAsTheSlowOnes: under a time
// budget the budget looks at every instruction on its slow path, where a
// read of the fast npc.state is charged what stateIndex charges and sees
// the state as it is now: a resume of reads costs the same work units
// with the mirror as without it, and reads what a host method wrote.
func TestFastStateReadsUnderATimeBudgetCostAsTheSlowOnes(t *testing.T) {
	defer func(old bool) { testHooks.noMirror = old }(testHooks.noMirror)
	dir := t.TempDir()
	run := func(name string, off bool) (int64, *engine.Agent) {
		testHooks.noMirror = off
		file := writeMirrorRole(t, dir, name, `local x = 0
for i = 1, 10 do x = x + npc.state.n end
npc:bump()
npc.state.m = x + npc.state.n`)
		rt := NewRuntime(Options{InstructionBudget: -1, TimeBudget: time.Hour, Host: map[string]HostFunc{"bump": bumpN}})
		defer rt.Close()
		a, task := startWork(t, rt, file, name, func(a *engine.Agent) { a.Set("n", expr.NumberValue(1)) })
		st, err := task.Resume(0.1)
		require.NoError(t, err)
		require.Equal(t, engine.Succeeded, st)
		return task.(*luaTask).work, a
	}
	fastWork, fast := run("fast", false)
	slowWork, slow := run("slow", true)
	assert.Equal(t, expr.NumberValue(21), fast.Get("m"), "ten reads of 1, then one of 11")
	assert.Equal(t, slow.Get("m"), fast.Get("m"))
	assert.Equal(t, slowWork, fastWork, "the same work units")
}

package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// collectNow runs a garbage collection and waits until the heap
// watchdog's count of collections (gcWatch) has seen it.
func collectNow(t *testing.T) {
	t.Helper()
	startGCWatch()
	c := gcWatch.cycles.Load()
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for gcWatch.cycles.Load() == c {
		require.True(t, time.Now().Before(deadline), "the collection was never counted")
		time.Sleep(time.Millisecond)
	}
}

// TestMemoryHeldWithoutTableWorkIsNoticedAfterACollection: a chain of
// closures (no table instruction, no built-in that allocates) that
// holds more than the memory limit is stopped at the first instruction
// after a collection, when the watchdog measures what the code holds.
func TestMemoryHeldWithoutTableWorkIsNoticedAfterACollection(t *testing.T) {
	_, err := holdClosures(t, Options{InstructionBudget: 50_000_000, MemoryLimit: 1 << 20}, 300000, "escape.lua")
	require.Error(t, err, "the chain of closures was let through")
	assert.Regexp(t, `^escape\.lua:\d+: memory limit exceeded \(1 MiB\): the running code `, err.Error())
}

// holdClosures runs, under opts, a chunk that builds a chain of n
// closures (a heap held without any table instruction), has the test
// collect the garbage, then sums 1 to 10; it returns the chunk's results.
func holdClosures(t *testing.T, opts Options, n int, name string) ([]lua.LValue, error) {
	t.Helper()
	rt := NewRuntime(opts)
	defer rt.Close()
	fn, err := rt.compile(strings.NewReader(fmt.Sprintf(`local collect = ...
local head
for i = 1, %d do
  local prev = head
  head = function() return prev end
end
collect()
local n = 0
for i = 1, 10 do n = n + i end
return n`, n)), name)
	require.NoError(t, err)
	collectNow(t) // the arming's live heap is recent
	collect := rt.L.NewFunction(func(*lua.LState) int { collectNow(t); return 0 })
	return rt.call(nil, modeLoad, fn, 1, collect)
}

// TestATickBudgetSpentOnAnNPCLookupNamesItsLine: a body's runaway loop
// of npc.state lookups stops where the tick's budget ends, whether on
// the lookup (charged as the npc object's own work) or on another
// instruction, and the tick-budget record names the loop's line either
// way.
func TestATickBudgetSpentOnAnNPCLookupNamesItsLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "spin.lua")
	require.NoError(t, os.WriteFile(file, []byte("return { name = 'F', state = { done = false }, goals = { { name = 'g', condition = 'done' } },\n  actions = { { name = 'work', effects = 'done = true', run = function(npc)\n"+
		"while true do\nlocal s = npc.state\nlocal z = 1\nend\nend } } }\n"), 0o644))
	atLookup := 0
	for extra := range int64(accessUnits + 3) {
		_, _, events := runRole(t, Options{InstructionBudget: 100_000, TickBudget: 1000 + extra}, file, 2)
		cuts := ofKind(events, record.EventTickBudget, 0)
		require.NotEmpty(t, cuts, "budget %d", 1000+extra)
		for _, e := range cuts {
			assert.Regexp(t, `: cut the action body at \S+/spin\.lua:[3-6]; `, e.Reason, "budget %d", 1000+extra)
			if strings.Contains(e.Reason, "spin.lua:4; ") {
				atLookup++
			}
		}
	}
	assert.Positive(t, atLookup, "some budgets end on the lookup")
}

// TestAnAssignmentFarPastAListIsChargedItsPaddingBeforeItPads: the
// assignment of a key far past a list's end charges the nils it pads
// with before it pads: with a budget one short of what the chunk needs
// it still runs and the stop is at the return after it; with two short
// it stops there, and the table (held by the caller) is left as it was.
func TestAnAssignmentFarPastAListIsChargedItsPaddingBeforeItPads(t *testing.T) {
	src := "local t = ...\nt[2000] = 1\nreturn"
	run := func(budget int64) (*Runtime, *lua.LTable, error) {
		rt := NewRuntime(Options{InstructionBudget: budget})
		t.Cleanup(rt.Close)
		fn, err := rt.compile(strings.NewReader(src), "escape.lua")
		require.NoError(t, err)
		tbl := rt.L.NewTable()
		_, err = rt.call(nil, modeLoad, fn, 0, tbl)
		return rt, tbl, err
	}
	rt, tbl, err := run(0)
	require.NoError(t, err)
	require.Equal(t, 2000, len(tableArray(tbl)))
	need := rt.budget.n
	require.Greater(t, need, padWork(1999))

	_, tbl, err = run(need - 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "escape.lua:3: instruction budget exceeded: more than "+strconv.FormatInt(need-1, 10)+" work units")
	assert.Equal(t, 2000, len(tableArray(tbl)), "the assignment ran")

	_, tbl, err = run(need - 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "escape.lua:2: instruction budget exceeded: more than "+strconv.FormatInt(need-2, 10)+" work units")
	assert.Equal(t, 0, len(tableArray(tbl)), "the list was not padded")
}

// TestANestedCallForAnotherAgentCannotUseTheBodysNPC: a host function
// that an agent's body calls may call Lua for another agent
// (Runtime.Call); that code cannot read the body's npc object, which is
// the fast one while the body runs.
func TestANestedCallForAnotherAgentCannotUseTheBodysNPC(t *testing.T) {
	var rt *Runtime
	var read *lua.LFunction
	var other *engine.Agent
	var inner error
	var got []lua.LValue
	rt = NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"relay": func(c *HostCall) (bool, error) {
			got, inner = rt.Call(other, read, 1, rt.npc(c.Agent))
			return true, nil
		},
	}})
	defer rt.Close()
	file := filepath.Join(t.TempDir(), "relay.lua")
	require.NoError(t, os.WriteFile(file, []byte("return { name = 'R', state = { seen = 7 },\n  actions = { { name = 'work', run = function(npc)\n"+
		"local n = npc.state.seen\nnpc:relay()\nend } } }\n"), 0o644))
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	other = engine.NewAgent("b", d)
	read, err = rt.compile(strings.NewReader("local npc = ...\nreturn npc.state.seen"), "escape.lua")
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	act := d.Action("work")
	task, err := act.Body.Start(a, act)
	require.NoError(t, err)
	st, err := task.Resume(0.1)
	require.NoError(t, err)
	assert.Equal(t, engine.Succeeded, st)
	require.Error(t, inner, "b's code read a's npc object: %v", got)
	assert.Contains(t, inner.Error(), `escape.lua:2: npc "a" used while agent "b" runs: an npc object belongs to its own agent`)
}

// TestACallWhoseTailCalledCoroutineSpendsTheBudgetNamesTheLineThatSpentIt:
// a Call that ends in a tail call of a coroutine.wrap function keeps no
// frame of its own to name, so the error of a budget spent inside the
// coroutine names the line where the budget ran out.
func TestACallWhoseTailCalledCoroutineSpendsTheBudgetNamesTheLineThatSpentIt(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 100_000})
	defer rt.Close()
	fn, err := rt.L.Load(strings.NewReader("return coroutine.wrap(function()\n  while true do end\nend)()"), "spend")
	require.NoError(t, err)
	_, err = rt.Call(nil, fn, 0)
	require.Error(t, err)
	assert.Equal(t, "spend:2: instruction budget exceeded: more than 100000 work units (Lua instructions plus the work of built-ins)"+
		" in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)", err.Error())
}

package luabind

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestPcallYieldsThroughNestingAndCoroutines: a yield inside pcall, with
// pcalls nested, inside the script's own coroutines and wrap functions,
// and through xpcall, reaches the right resumer, and each pcall returns
// its function's results or error.
func TestPcallYieldsThroughNestingAndCoroutines(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"a"}, []string{"pcall_nested.lua"})
	wd.run(10, 0.1)
	a := wd.agents["a"]
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	assert.Equal(t, expr.StringValue("truetrueinner;2,50,end!,dead;w1,falselate;handled x;false attempt to call a number value"), a.Get("log"))
}

// TestIdlePcallWorkersAreKeptUpToTheirBound: a pcall runs its function
// in a worker coroutine, charged as a coroutine when it is new; after
// the call it waits in a pool of up to 16 for the next pcall, which is
// not charged again. So twenty nested pcalls run again reuse sixteen
// workers and make four.
func TestIdlePcallWorkersAreKeptUpToTheirBound(t *testing.T) {
	work := func(rt *Runtime, depth int) int64 {
		src := "local function f(d) if d > 0 then assert(pcall(f, d - 1)) end end\nf(" + strconv.Itoa(depth) + ")"
		require.NoError(t, runChunk(rt, src))
		return rt.budget.n
	}
	one := NewRuntime(Options{})
	defer one.Close()
	first := work(one, 1)
	perWorker := first - work(one, 1)
	require.GreaterOrEqual(t, perWorker, int64(coroutineUnits), "a new worker is charged as a coroutine")

	rt := NewRuntime(Options{})
	defer rt.Close()
	first = work(rt, 20)
	second := work(rt, 20)
	assert.Equal(t, 16*perWorker, first-second, "16 of the 20 workers were kept")
	assert.Equal(t, second, work(rt, 20), "and 16 again")
}

// TestAPcallCaughtMessageIsChargedItsLength: pcall reads the whole
// message of an error it catches, and charges it to the budget before
// it returns: with a budget one short of what the chunk needs the catch
// still returns and the stop is at the return after it; with two short
// it stops at the pcall.
func TestAPcallCaughtMessageIsChargedItsLength(t *testing.T) {
	src := "local s = string.rep('x', 5000)\nlocal ok = pcall(error, s, 0)\nreturn"
	rt := NewRuntime(Options{})
	defer rt.Close()
	require.NoError(t, runChunk(rt, src))
	need := rt.budget.n
	require.Greater(t, need, scrubWork(5000))
	for _, tc := range []struct {
		budget int64
		line   string
	}{{need - 1, "3"}, {need - 2, "2"}} {
		short := NewRuntime(Options{InstructionBudget: tc.budget})
		defer short.Close()
		err := runChunk(short, src)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "escape.lua:"+tc.line+": instruction budget exceeded: more than "+strconv.FormatInt(tc.budget, 10)+" work units")
	}
}

// TestPcallKeepsAMessageThatOnlyLooksLikeAPreludePosition: pcall drops
// a position in the sandbox's own Lua code ("luabind:12: ") from the
// message it returns; a message whose "position" has no line is the
// script's own and comes back whole.
func TestPcallKeepsAMessageThatOnlyLooksLikeAPreludePosition(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	require.NoError(t, runChunk(rt, `local ok, e = pcall(error, "luabind:: mine", 0)
assert(not ok and e == "luabind:: mine", e)`))
}

// TestAPcallThatWaitedReturnsTheErrorValueItself: a protected function
// that waits (its worker is resumed from Go on a later tick) and then
// raises a table gives pcall that table, as one that never waited does.
func TestAPcallThatWaitedReturnsTheErrorValueItself(t *testing.T) {
	file := filepath.Join(t.TempDir(), "work.lua")
	require.NoError(t, os.WriteFile(file, []byte(`return { name = 'W', state = { code = 0 },
  actions = { { name = 'work', run = function(npc)
    local ok, e = pcall(function() npc:wait(0.1); error({ code = 7 }) end)
    assert(not ok and type(e) == "table", tostring(e))
    npc.state.code = e.code
  end } } }
`), 0o644))
	rt := NewRuntime(Options{})
	defer rt.Close()
	a, task := startWork(t, rt, file, "w", nil)
	_, err := resumeWork(task, 5, nil)
	require.NoError(t, err)
	assert.Equal(t, expr.NumberValue(7), a.Get("code"))
}

// TestAPcallReturnedByACoroutineYieldsAndEndsIt: return pcall(f) is a
// tail call, after which no Lua frame of the coroutine is left under a
// yield of f. The coroutine still yields f's values, stays suspended,
// and ends with pcall's results when f returns, in a script's coroutine
// and in an action's body alike.
func TestAPcallReturnedByACoroutineYieldsAndEndsIt(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	require.NoError(t, runChunk(rt, `
local co = coroutine.create(function() return pcall(function() coroutine.yield(1); return 'done' end) end)
local a = { coroutine.resume(co) }
assert(a[1] == true and a[2] == 1, "first resume: " .. tostring(a[1]) .. " " .. tostring(a[2]))
assert(coroutine.status(co) == 'suspended', "after the yield: " .. coroutine.status(co))
local b = { coroutine.resume(co) }
assert(b[1] == true and b[2] == true and b[3] == 'done', "second resume: " .. tostring(b[1]) .. " " .. tostring(b[2]) .. " " .. tostring(b[3]))
assert(coroutine.status(co) == 'dead', "after pcall returned: " .. coroutine.status(co))
local c = { coroutine.resume(co) }
assert(c[1] == false and c[2] == 'can not resume a dead thread', tostring(c[2]))
local e = coroutine.create(function() local ok, v = pcall(function() coroutine.yield(); coroutine.yield(); return 'x' end); return ok, v end)
local n = 0
while true do
  local r = { coroutine.resume(e) }
  if coroutine.status(e) == 'dead' then assert(r[1] == true and r[2] == true and r[3] == 'x' and n == 2, "yields of no values: " .. n .. " " .. tostring(r[3])) break end
  assert(r[1] == true and r[2] == nil, "a yield of no values: " .. tostring(r[2]))
  n = n + 1
end
local f = coroutine.wrap(function() return pcall(function() coroutine.yield('w'); error('late', 0) end) end)
assert(f() == 'w')
local ok, msg = f()
assert(ok == false and msg == 'late', tostring(ok) .. " " .. tostring(msg))
`))

	path := writeRole(t, "tail_pcall.lua", `return {
  name = "TailPcall",
  state = { x = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    { name = "careful", effects = "done = true",
      run = function(npc)
        return pcall(function() npc:wait(0.2); npc.state.x = 7; npc.state.done = true end)
      end },
  },
}`)
	_, a, events := runRole(t, Options{}, path, 10)
	assert.Equal(t, expr.NumberValue(7), a.Get("x"), "the body went on after its wait inside the pcall")
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	finished := ofKind(events, record.EventFinish, 0)
	require.Len(t, finished, 1)
	assert.Equal(t, 3, finished[0].Tick, "the body ended when its wait of 0.2 s did")
	assert.Empty(t, finished[0].Reason)
}

// TestAFinishedBodyLetsGoOfThePcallWorkersItWaitedOn: a coroutine waiting
// inside nested pcalls holds a chain of worker coroutines, one per pcall;
// when the body that ran it is released (stopped, failed or done), every
// link of the chain is dropped, so the workers and what their stacks hold
// are left to the collector.
func TestAFinishedBodyLetsGoOfThePcallWorkersItWaitedOn(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	fn, err := rt.L.LoadString(`
local co = coroutine.create(function()
  pcall(function() pcall(function() coroutine.yield('waiting') end) end)
end)
assert(select(2, coroutine.resume(co)) == 'waiting')
return co`)
	require.NoError(t, err)
	out, err := rt.Call(nil, fn, 1)
	require.NoError(t, err)
	th := out[0].(*lua.LState)
	outer := threadCtx(th).pcallWorker
	require.NotNil(t, outer, "the coroutine waits on the outer pcall's worker")
	inner := threadCtx(outer).pcallWorker
	require.NotNil(t, inner, "which waits on the inner pcall's worker")

	rt.release(&coTask{rt: rt, th: th}, false)
	assert.Nil(t, threadCtx(th).pcallWorker)
	assert.Nil(t, threadCtx(outer).pcallWorker)
}

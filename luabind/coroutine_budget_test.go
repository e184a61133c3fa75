package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestACoroutineIsStoppedWhereItOverspends: a coroutine's instructions
// are counted and checked as the main thread's are, so a coroutine that
// runs past the instruction budget, or holds more than the memory limit
// once a collection has run, is stopped there and then: the code after
// the loop (a call of reached) never runs.
func TestACoroutineIsStoppedWhereItOverspends(t *testing.T) {
	reachedBy := func(rt *Runtime, reached *bool) lua.LValue {
		return rt.L.NewFunction(func(*lua.LState) int { *reached = true; return 0 })
	}
	t.Run("instructions", func(t *testing.T) {
		rt := NewRuntime(Options{InstructionBudget: 10_000})
		defer rt.Close()
		fn, err := rt.compile(strings.NewReader(`local reached = ...
local n = coroutine.wrap(function()
  local n = 0
  for i = 1, 20000 do n = n + i end
  reached()
  return n
end)()
return n`), "spin.lua")
		require.NoError(t, err)
		reached := false
		collectNow(t) // no collection is due while the loop runs: a collection makes every count checked
		_, err = rt.call(nil, modeLoad, fn, 1, reachedBy(rt, &reached))
		require.Error(t, err)
		assert.Regexp(t, `^spin\.lua:2: instruction budget exceeded: more than 10000 work units`, err.Error())
		assert.False(t, reached, "the loop ran to its end")
	})
	t.Run("memory after a collection", func(t *testing.T) {
		rt := NewRuntime(Options{InstructionBudget: 50_000_000, MemoryLimit: 1 << 20})
		defer rt.Close()
		fn, err := rt.compile(strings.NewReader(`local collect, reached = ...
local n = coroutine.wrap(function()
  local head
  for i = 1, 300000 do
    local prev = head
    head = function() return prev end
  end
  collect()
  local n = 0
  for i = 1, 10 do n = n + i end
  reached()
  return n
end)()
return n`), "hold.lua")
		require.NoError(t, err)
		collectNow(t) // the arming's live heap is recent
		collect := rt.L.NewFunction(func(*lua.LState) int { collectNow(t); return 0 })
		reached := false
		_, err = rt.call(nil, modeLoad, fn, 1, collect, reachedBy(rt, &reached))
		require.Error(t, err, "the chain of closures was let through")
		assert.Regexp(t, `^hold\.lua:2: memory limit exceeded \(1 MiB\): the running code `, err.Error())
		assert.False(t, reached, "the coroutine went on after the collection")
	})
}

// TestAPcallWorkerCannotBeResumedByScripts: the coroutine that runs a
// pcall's function belongs to the sandbox; a script that got hold of it
// (coroutine.running inside the function) cannot resume it.
func TestAPcallWorkerCannotBeResumedByScripts(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	fn, err := rt.compile(strings.NewReader(`local w
pcall(function() w = coroutine.running() end)
return coroutine.resume(w)`), "worker.lua")
	require.NoError(t, err)
	_, err = rt.call(nil, modeLoad, fn, 1)
	require.Error(t, err)
	assert.Equal(t, "worker.lua:3: coroutine.resume: this coroutine runs the sandbox's pcall: resume the coroutine that called pcall", err.Error())
}

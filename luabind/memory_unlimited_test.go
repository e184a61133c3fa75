package luabind

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestWithoutAMemoryLimitAGrowingHeapStopsNothing: with the memory limit
// off, a call whose heap grows across a garbage collection (here one it
// asks for, then waits to see counted) runs to its end: the heap watch
// measures nothing and stops nothing.
func TestWithoutAMemoryLimitAGrowingHeapStopsNothing(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 100_000_000, MemoryLimit: -1})
	defer rt.Close()
	fn, err := rt.L.Load(strings.NewReader(`local collect, collected = ...
local t = {}
for i = 1, 20000 do t[i] = string.rep("x", 1000) .. i end
local before = collect()
local n = 0
while not collected(before) and n < 1e7 do n = n + 1 end
for i = 20001, 40000 do t[i] = string.rep("x", 1000) .. i end
return #t, collected(before)`), "grow.lua")
	require.NoError(t, err)
	collect := rt.L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LNumber(gcWatch.cycles.Load()))
		runtime.GC()
		return 1
	})
	collected := rt.L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LBool(float64(gcWatch.cycles.Load()) > float64(L.CheckNumber(1))))
		return 1
	})
	out, err := rt.Call(nil, fn, 2, collect, collected)
	require.NoError(t, err)
	assert.Equal(t, []lua.LValue{lua.LNumber(40000), lua.LTrue}, out)
}

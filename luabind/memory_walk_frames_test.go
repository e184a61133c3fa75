package luabind

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// suspendedAt runs src, which returns a coroutine it left suspended, and
// returns the coroutine with what its frames list: the values of their
// locals and temporaries (gopher-lua's GetLocal) and their functions.
func suspendedAt(t *testing.T, rt *Runtime, src string) (th *lua.LState, locals, functions []lua.LValue) {
	t.Helper()
	fn, err := rt.compile(strings.NewReader(src), "co.lua")
	require.NoError(t, err)
	out, err := rt.call(nil, modeLoad, fn, 1)
	require.NoError(t, err)
	th, ok := out[0].(*lua.LState)
	require.True(t, ok)
	for level := 0; ; level++ {
		dbg, ok := th.GetStack(level)
		if !ok {
			break
		}
		for i := 1; ; i++ {
			name, v := th.GetLocal(dbg, i)
			if name == "" {
				break
			}
			locals = append(locals, v)
		}
		f, err := th.GetInfo("f", dbg, lua.LNil)
		require.NoError(t, err)
		functions = append(functions, f)
	}
	return th, locals, functions
}

// stackWalk is what the memory walk should count for a suspended
// coroutine: threadBytes, 16 bytes a slot of its value stack's capacity,
// and the values on the stack up to its top with each frame's function.
func stackWalk(t *testing.T, rt *Runtime, th *lua.LState, functions []lua.LValue) int64 {
	t.Helper()
	slots, top := luavm.Stack(th)
	require.NotNil(t, slots)
	values := append([]lua.LValue(nil), functions...)
	for _, v := range slots[:top] {
		if v != nil {
			values = append(values, v)
		}
	}
	return threadBytes + 16*int64(cap(slots)) + walkSize(rt, 1<<40, values...)
}

// TestTheMemoryWalkCountsAVarargFunctionsExtraArguments: the extra
// arguments of a vararg function that reads them with ... lie on the
// value stack below its locals, where no frame lists them (there is no
// arg table): the walk counts them with the stack.
func TestTheMemoryWalkCountsAVarargFunctionsExtraArguments(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	th, locals, functions := suspendedAt(t, rt, `local co = coroutine.create(function(...)
  local n = select("#", ...)
  coroutine.yield()
  return n
end)
coroutine.resume(co, string.rep("v", 200), {})
return co`)
	extra := lua.LValue(lua.LString(strings.Repeat("v", 200)))
	require.NotContains(t, locals, extra, "no frame lists the extra argument")
	slots, top := luavm.Stack(th)
	at := slices.Index(slots[:top], extra)
	require.GreaterOrEqual(t, at, 0, "the extra argument is on the stack")
	want := stackWalk(t, rt, th, functions)
	assert.Equal(t, want, walkSize(rt, 1<<40, th))
	assert.Equal(t, want, walkSize(rt, 1<<40, th, slots[at]), "the extra argument (the same string), counted once")
}

// TestTheMemoryWalkOfAFrameWithoutLocalsEnds: a body suspended in a
// helper that has no parameter, local or temporary (its frame lists
// nothing) is walked to its end: the helper's function, the caller's
// locals and the stack.
func TestTheMemoryWalkOfAFrameWithoutLocalsEnds(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	th, locals, functions := suspendedAt(t, rt, `local function pause() coroutine.yield() end
local co = coroutine.create(function(npc)
  local keep = { string.rep("k", 100) }
  pause()
  return keep
end)
coroutine.resume(co, 1)
return co`)
	dbg, ok := th.GetStack(0)
	require.True(t, ok)
	name, _ := th.GetLocal(dbg, 1)
	require.Empty(t, name, "the helper's frame lists nothing")
	require.Len(t, functions, 2, "the helper's frame and the body's")
	require.Len(t, locals, 2, "npc and keep")
	assert.Equal(t, stackWalk(t, rt, th, functions), walkSize(rt, 1<<40, th))
}

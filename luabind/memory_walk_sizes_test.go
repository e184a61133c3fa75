package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// walkSize is what the memory walk counts for the values v, walked
// together (each value once), stopping once it passes stop.
func walkSize(rt *Runtime, stop int64, vs ...lua.LValue) int64 {
	s := &sizer{r: rt, seen: map[any]struct{}{}}
	for _, v := range vs {
		s.push(v)
	}
	return s.run(stop)
}

// TestTheMemoryWalkCountsWhatItReaches: the estimate the memory limit is
// checked against, value by value: a string its bytes and 16 (a long
// one once however often it is reached, a short one each time), a
// table 64 and 16 a list slot, 24 a value it holds and 64 a key of its
// hash part, with its metatable; a function 64 and its upvalues; a
// userdata 64, and nothing for the runtime's own objects.
func TestTheMemoryWalkCountsWhatItReaches(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	eval := func(src string) []lua.LValue {
		fn, err := rt.compile(strings.NewReader(src), "walk.lua")
		require.NoError(t, err)
		out, err := rt.call(nil, modeLoad, fn, lua.MultRet)
		require.NoError(t, err)
		return out
	}
	long := lua.LString(strings.Repeat("x", 100))
	long64 := lua.LString(strings.Repeat("z", 64))
	for _, c := range []struct {
		name   string
		vs     []lua.LValue
		want   int64
		reason string
	}{
		{"short string", []lua.LValue{lua.LString("abc")}, 3 + 16, "its bytes and 16"},
		{"short string twice", []lua.LValue{lua.LString("abc"), lua.LString("abc")}, 2 * (3 + 16), "a short string each time"},
		{"63 bytes", []lua.LValue{lua.LString(strings.Repeat("y", 63)), lua.LString(strings.Repeat("y", 63))}, 2 * (63 + 16), "63 bytes are short"},
		{"long string twice", []lua.LValue{long, long}, 100 + 16, "a long string once"},
		{"64 bytes twice", []lua.LValue{long64, long64}, 64 + 16, "64 bytes are long: once"},
		{"a cleared long key", eval(`local t, k = {}, string.rep("k", 64) t[k] = true t[k] = nil return t`), 64 + 64 + (64 + 16),
			"a key the table keeps after it was cleared: its slot and its string"},
		{"a number", []lua.LValue{lua.LNumber(5)}, 0, "numbers are held in place"},
		{"empty table", eval("return {}"), 64, "a table's own 64 bytes"},
		{"list", eval("return {1, 2, 3}"), 64 + 3*16 + 3*24, "16 a slot and 24 a value"},
		{"record", eval("return {a = true}"), 64 + 24 + (1 + 16) + 64, "a value, its key's string and its key's slot"},
		{"a table with a metatable", eval("return setmetatable({}, {})"), 64 + 64, "the metatable is walked"},
		{"function", eval("local a, b = {}, 1 return function() return a, b end"), 64 + 64, "64 and its upvalue table (a number upvalue holds nothing)"},
		{"userdata", []lua.LValue{userData(rt, 1)}, 64, "64 for a userdata"},
		{"a read-only view", []lua.LValue{userData(rt, &roProxy{t: rt.L.NewTable()})}, 0, "the runtime's own object, not walked"},
	} {
		assert.Equal(t, c.want, walkSize(rt, 1<<40, c.vs...), "%s: %s", c.name, c.reason)
	}
	nested := eval("return { {}, {}, {} }")
	outer := int64(64 + 3*16 + 3*24)
	assert.Equal(t, outer+3*64, walkSize(rt, 1<<40, nested...), "the outer table and its three")
	assert.Equal(t, outer, walkSize(rt, outer-1, nested...), "the walk stops once past stop")
	assert.Equal(t, outer+64, walkSize(rt, outer, nested...), "at stop it goes on, to one more table")
}

func userData(rt *Runtime, v any) *lua.LUserData {
	ud := rt.L.NewUserData()
	ud.Value = v
	return ud
}

// TestTheMemoryWalkCountsACoroutinesStack: a suspended coroutine counts
// threadBytes, 16 bytes a slot of its value stack's capacity, every
// value on the stack up to its top (its locals and temporaries, and the
// extra arguments of a vararg function, which lie below its locals) and
// the function of each of its frames, which the stack no longer holds.
func TestTheMemoryWalkCountsACoroutinesStack(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	fn, err := rt.compile(strings.NewReader(`local f = function(...)
  local keep = { string.rep("k", 300) }
  local big = {} for i = 1, 3000 do big[i] = i end
  local n = select("#", unpack(big))
  select(n, string.rep("q", 200), coroutine.yield())
end
local co = coroutine.create(f)
coroutine.resume(co, string.rep("v", 200))
return co, f`), "co.lua")
	require.NoError(t, err)
	out, err := rt.call(nil, modeLoad, fn, 2)
	require.NoError(t, err)
	th, ok := out[0].(*lua.LState)
	require.True(t, ok)
	slots, top := luavm.Stack(th)
	require.NotNil(t, slots)
	onStack := []lua.LValue{out[1]}
	for _, v := range slots[:top] {
		if v != nil {
			onStack = append(onStack, v)
		}
	}
	require.Greater(t, cap(slots), 128, "unpack grew the stack")
	require.Contains(t, onStack, lua.LValue(lua.LString(strings.Repeat("q", 200))), "the call's temporary is on the stack")
	require.Contains(t, onStack, lua.LValue(lua.LString(strings.Repeat("v", 200))), "the extra argument is on the stack")
	values := walkSize(rt, 1<<40, onStack...)
	assert.Equal(t, threadBytes+16*int64(cap(slots))+values, walkSize(rt, 1<<40, th))
}

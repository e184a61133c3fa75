package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// chargeOf is the work the built-in named by builtin (a Lua expression,
// "string.upper") charges for the call f(args) after setup: the budget's
// count of the call minus that of the same chunk calling a Go function
// that charges nothing.
func chargeOf(t *testing.T, rt *Runtime, builtin, setup, args string) int64 {
	t.Helper()
	get, err := rt.compile(strings.NewReader("return "+builtin), "get.lua")
	require.NoError(t, err)
	out, err := rt.call(nil, modeLoad, get, 1)
	require.NoError(t, err)
	f := out[0]
	require.Equal(t, lua.LTFunction, f.Type(), builtin)
	fn, err := rt.compile(strings.NewReader("local f = ...\n"+setup+"\nreturn f("+args+")"), "charge.lua")
	require.NoError(t, err)
	count := func(f lua.LValue) int64 {
		_, err := rt.call(nil, modeLoad, fn, 0, f)
		require.NoError(t, err, builtin)
		return rt.budget.n
	}
	return count(f) - count(rt.L.NewFunction(func(*lua.LState) int { return 0 }))
}

// TestBuiltinsChargeExactlyTheirWork: each built-in whose cost grows with
// its input charges its documented work units, the one unit every call
// costs included.
func TestBuiltinsChargeExactlyTheirWork(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 10_000_000})
	defer rt.Close()
	for _, c := range []struct {
		name, builtin, setup, args string
		want                       int64
		reason                     string
	}{
		{"tostring", "tostring", `local s = string.rep("a", 640)`, "s", 11, "a unit per 64 bytes, and one"},
		{"tostring short", "tostring", `local s = "abc"`, "s", 1, "one unit for a string under 64 bytes"},
		{"getn of a list", "table.getn", `local t = {1, 2, 3}`, "t", 1, "no nils to scan at the list's end: one unit"},
		{"getn past nils", "table.getn", `local t = {} for i = 1, 101 do t[i] = i end for i = 2, 101 do t[i] = nil end`, "t",
			27, "the 100 nils at the list's end scanned (a unit per 4), and one"},
		{"next over a gap", "next", `local t = {} for i = 1, 101 do t[i] = i end for i = 2, 100 do t[i] = nil end`, "t, 1",
			25, "from key 1 over the 99 nils to key 101"},
		{"upper", "string.upper", `local s = string.rep("a", 800)`, "s", 101, "a unit per 8 bytes, and one"},
		{"byte to the end", "string.byte", `local s = string.rep("a", 400)`, "s, 1, -1", 101, "-1 is the last byte: 400 values, a unit per 4, and one"},
		{"byte of nothing", "string.byte", `local s = string.rep("a", 400)`, "s, 1, 0", 1, "j = 0 is before the first byte: no value"},
		{"byte from 0", "string.byte", `local s = string.rep("a", 400)`, "s, 0, -1", 101, "i = 0 starts at the first byte"},
		{"byte of the last three", "string.byte", `local s = string.rep("a", 400)`, "s, -3, -1", 1, "-3 is the third byte from the end"},
		{"insert inside a list", "table.insert", `local t = {1, 2, 3}`, `t, 2, "x"`, 1, "one item moved, no padding"},
		{"insert at the front", "table.insert", `local t = {} for i = 1, 100 do t[i] = i end`, `t, 1, "x"`, 25, "the items after position 1 moved"},
		{"remove the first", "table.remove", `local t = {} for i = 1, 100 do t[i] = i end`, "t, 1", 25, "the items after position 1 moved"},
		{"sort numbers", "table.sort", `local t = {} for i = 1, 100 do t[i] = -i end`, "t", 352, "100 x 7 comparisons, two units per 4 and two"},
		{"sort short strings", "table.sort", `local t = {} for i = 1, 10 do t[i] = string.rep(string.char(64 + i), 64) end`, "t",
			22, "10 x 4 comparisons; strings of 64 bytes compare for free"},
		{"sort long strings", "table.sort", `local t = {} for i = 1, 10 do t[i] = string.rep(string.char(64 + i), 65) end`, "t",
			22 + 40*9, "a string past 64 bytes costs its length per comparison, a unit per 8 bytes and one"},
		{"unpack one of a list with nils at its end", "unpack", `local t = {} for i = 1, 101 do t[i] = i end for i = 2, 101 do t[i] = nil end`, "t, 1, 1",
			26 + 1, "the scan of #t's 100 nils and one value"},
		{"unpack a range", "unpack", `local t = {} for i = 1, 100 do t[i] = i end`, "t, 10, 20", 3, "11 values"},
		{"unpack a list", "unpack", `local t = {} for i = 1, 100 do t[i] = i end`, "t", 26, "100 values"},
		{"sort with one long string, last", "table.sort", `local t = {} for i = 1, 9 do t[i] = string.char(64 + i) end t[10] = string.rep("a", 100)`, "t",
			22 + 40*13, "the longest string is looked for up to the list's end"},
		{"a number as long text", "math.floor", `local s = string.rep("1", 100)`, "s", 13, "a string past 64 bytes costs its length"},
		{"a number as 64 bytes of text", "math.floor", `local s = string.rep("1", 64)`, "s", 0, "64 bytes are read for free"},
		{"a number as short text", "math.max", `local s = "12"`, "s, 1, 2", 0, "short strings and numbers cost nothing"},
	} {
		assert.Equal(t, c.want, chargeOf(t, rt, c.builtin, c.setup, c.args), "%s: %s", c.name, c.reason)
	}
}

// TestBuiltinWritesThatPadAreChargedTheirListsBytes: rawset and
// table.insert far past a list's end count the list they pad (32 bytes
// a slot) against the memory limit on top of what built-ins allocated
// before them in the same call: exactly at the limit they pad, one byte
// past it they are refused with a message that names them and the key;
// without a limit they always pad.
func TestBuiltinWritesThatPadAreChargedTheirListsBytes(t *testing.T) {
	const k, before = 5000, 100_000
	for what, call := range map[string]string{"rawset": "rawset(t, 5000, 1)", "table.insert": "table.insert(t, 5000, 1)"} {
		src := "local s = string.rep('x', 100000)\nlocal t = {}\n" + call + "\nassert(#t == 5000)"
		unlimited := NewRuntime(Options{MemoryLimit: -1})
		defer unlimited.Close()
		require.NoError(t, runChunk(unlimited, src), what)
		exact := NewRuntime(Options{MemoryLimit: before + 32*k})
		defer exact.Close()
		require.NoError(t, runChunk(exact, src), what)
		short := NewRuntime(Options{MemoryLimit: before + 32*k - 1})
		defer short.Close()
		err := runChunk(short, src)
		require.Error(t, err, what)
		assert.True(t, strings.HasPrefix(err.Error(), "escape.lua:3: memory limit exceeded (1 MiB): "+what+" of key 5000 would pad a list with nils up to it "), "%s: %s", what, err)
	}
}

// TestAnAssignmentThatPadsIsChargedItsListsBytes: writing t[k] on an
// empty table pads its list to k slots, counted as 32 bytes a slot
// against the memory limit before it pads: a limit of exactly 32*k lets
// it through, one byte less refuses it, with a message that names the
// key and the range of keys a list holds.
func TestAnAssignmentThatPadsIsChargedItsListsBytes(t *testing.T) {
	const k = 5000
	src := "local t = {}\nt[5000] = 1\nassert(#t == 5000)"
	exact := NewRuntime(Options{MemoryLimit: 32 * k})
	defer exact.Close()
	require.NoError(t, runChunk(exact, src))
	short := NewRuntime(Options{MemoryLimit: 32*k - 1})
	defer short.Close()
	err := runChunk(short, src)
	require.Error(t, err)
	assert.Equal(t, "escape.lua:2: memory limit exceeded (1 MiB): the assignment of key 5000 would pad a list with nils up to it "+
		"(an integer key from 1 to 4194303 is kept in a table's list part, with a slot for every smaller key: "+
		"keep sparse ids in strings or numbers past that range), on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)", err.Error())
}

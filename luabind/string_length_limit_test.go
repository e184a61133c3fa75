package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAStringOfExactlyMaxStringBytesIsBuilt: .., string.rep, table.concat
// and print build a string of exactly Options.MaxStringBytes and refuse
// one byte more, naming its length; an empty result, and a repetition of
// one, are built as in Lua.
func TestAStringOfExactlyMaxStringBytesIsBuilt(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   string // the result, or the error when it starts "strings.lua:"
	}{
		{"concat at the limit", "8 bytes of 8", `return "abcd" .. "efgh"`, "abcdefgh"},
		{"concat past the limit", "9 bytes of 8", `return "abcd" .. "efghi"`,
			"strings.lua:1: string too long: 9 bytes is more than the sandbox allows (8, luabind.Options.MaxStringBytes)"},
		{"concat of empty strings", "an empty string is no error", `return "" .. "" .. ""`, ""},
		{"rep at the limit", "4 times 2 bytes", `return string.rep("ab", 4)`, "abababab"},
		{"rep past the limit", "5 times 2 bytes", `return string.rep("ab", 5)`,
			"strings.lua:1: string too long: 10 bytes is more than the sandbox allows (8, luabind.Options.MaxStringBytes)"},
		{"rep past the limit by a fraction", "3 times 3 bytes, where 8/3 rounds down to 2", `return string.rep("abc", 3)`,
			"strings.lua:1: string too long: 9 bytes is more than the sandbox allows (8, luabind.Options.MaxStringBytes)"},
		{"rep once", "a count of 1 is the string itself", `return string.rep("abc", 1)`, "abc"},
		{"rep of a fraction", "the count is truncated", `return string.rep("abc", 1.9)`, "abc"},
		{"rep under one", "a count under 1 is the empty string", `return string.rep("abc", 0.9)`, ""},
		{"table.concat at the limit", "3 + 2 + 3 bytes", `return table.concat({"abc", "def"}, "--")`, "abc--def"},
		{"table.concat of one item", "a range of one index", `return table.concat({"abc", "def"}, "--", 2, 2)`, "def"},
		{"table.concat past the limit", "3 + 2 + 4 bytes", `return table.concat({"abc", "defg"}, "--")`,
			"strings.lua:1: string too long: 9 bytes is more than the sandbox allows (8, luabind.Options.MaxStringBytes)"},
	}
	rt := NewRuntime(Options{MaxStringBytes: 8})
	defer rt.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertChunkGives(t, rt, tc.src, tc.want, tc.reason)
		})
	}
}

// TestPrintJoinsExactlyMaxStringBytes: print's arguments and the tabs
// between them may join exactly Options.MaxStringBytes (the file and line
// in front are not counted); one byte more is refused.
func TestPrintJoinsExactlyMaxStringBytes(t *testing.T) {
	var lines []string
	rt := NewRuntime(Options{MaxStringBytes: 8, Print: func(s string) { lines = append(lines, s) }})
	defer rt.Close()
	require.NoError(t, runChunk(rt, `print("abcd", "efg")`))
	require.NoError(t, runChunk(rt, `print("ab", "cd", "ef")`))
	assert.Equal(t, []string{"escape.lua:1: abcd\tefg", "escape.lua:1: ab\tcd\tef"}, lines)
	for _, src := range []string{`print("abcd", "efgh")`, `print("ab", "cd", "efg")`} {
		err := runChunk(rt, src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), "escape.lua:1: string too long: print would join more than 9 bytes, more than the sandbox allows (8, luabind.Options.MaxStringBytes)", src)
	}
	assert.Len(t, lines, 2, "a refused line is not printed")
}

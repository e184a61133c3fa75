package luabind

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGsubAsInLua: string.gsub's replacements (a callback's captures, %9,
// a % at the end of the replacement) and its matches past the first chunk
// of 1,024 it asks the matcher for (a count n past it, empty matches
// across a chunk's end and at the subject's end) give what Lua gives.
func TestGsubAsInLua(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   []string
	}{
		{"a callback's captures", "one argument per capture", `return string.gsub("ab", "(a)(b)", function(x, y) return y .. x end)`,
			[]string{"ba", "1"}},
		{"a callback's capture count", "no more arguments than captures",
			`return string.gsub("abc", "(a)(b)(c)", function(...) return select("#", ...) end)`, []string{"3", "1"}},
		{"%9", "the ninth capture", `return string.gsub("abcdefghi", "(a)(b)(c)(d)(e)(f)(g)(h)(i)", "<%9%1>")`,
			[]string{"<ia>", "1"}},
		{"a table without captures", "the whole match is the key", `return string.gsub("abc", "%a", { b = "B" })`, []string{"aBc", "3"}},
		{"a % at the end", "it stays as written", `return string.gsub("abc", "b", "x%")`, []string{"ax%c", "1"}},
		{"a count past one chunk", "1,500 of 3,000 matches",
			`local s, n = string.gsub(string.rep("a", 3000), "a", "b", 1500) return n, #s:match("^b*")`, []string{"1500", "1500"}},
		{"empty matches across a chunk's end", "one before each of 2,000 bytes and one at the end",
			`local s, n = string.gsub(string.rep("a", 2000), "x*", "-") return n, #s, s:sub(-4)`, []string{"2001", "4001", "a-a-"}},
		{"an empty match at the end of a chunk's subject", "1,024 bytes have 1,025 empty matches",
			`local s, n = string.gsub(string.rep("a", 1024), "x*", "-") return n, #s, s:sub(-3)`, []string{"1025", "2049", "-a-"}},
	}
	rt := NewRuntime(Options{InstructionBudget: 50_000_000})
	defer rt.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalChunk(t, rt, tc.src)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
}

// TestGsubBuildsExactlyMaxStringBytes: string.gsub builds a result of
// exactly Options.MaxStringBytes, from a string replacement or from what a
// callback returns, and refuses one byte more, naming the length it would
// reach.
func TestGsubBuildsExactlyMaxStringBytes(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   string // the result, or the error when it starts "strings.lua:"
	}{
		{"a string replacement at the limit", "2 + 6 bytes", `return (string.gsub("abc", "c", "xyzabc"))`, "abxyzabc"},
		{"a callback's value at the limit", "2 + 6 bytes", `return (string.gsub("abc", "c", function() return "xyzabc" end))`, "abxyzabc"},
		{"a string replacement past the limit", "2 + 7 bytes", `return (string.gsub("abc", "c", "xyzabcd"))`,
			"strings.lua:1: string too long: string.gsub would build more than 9 bytes, more than the sandbox allows (8, luabind.Options.MaxStringBytes)"},
		{"a callback's value past the limit", "2 + 7 bytes, before the rest", `return (string.gsub("abcd", "c", function() return "xyzabcd" end))`,
			"strings.lua:1: string too long: string.gsub would build more than 9 bytes, more than the sandbox allows (8, luabind.Options.MaxStringBytes)"},
	}
	rt := NewRuntime(Options{MaxStringBytes: 8})
	defer rt.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertChunkGives(t, rt, tc.src, tc.want, tc.reason)
		})
	}
}

// TestGsubMeasuresACaptureReferenceBeforeBuildingIt: "%9" repeated 65,536
// times on a match whose ninth capture is 1 KiB would be a 64 MiB
// replacement; it is refused from its measured size before any of it is
// built.
func TestGsubMeasuresACaptureReferenceBeforeBuildingIt(t *testing.T) {
	rt := NewRuntime(Options{MaxStringBytes: 1 << 20})
	defer rt.Close()
	src := `local s = string.rep("a", 8) .. string.rep("b", 1024)
	return string.gsub(s, "(a)(a)(a)(a)(a)(a)(a)(a)(b+)", string.rep("%9", 65536))`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := evalChunk(t, rt, src)
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "strings.lua:2: string too long: string.gsub would build more than 67108864 bytes, more than the sandbox allows (1048576")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "the 64 MiB were never built")
}

// TestGsubRefusesACaptureIndexPastTheCaptures: %2 with one capture is an
// error, as in Lua; without captures %1 is the whole match, but %2 is an
// error too.
func TestGsubRefusesACaptureIndexPastTheCaptures(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for _, src := range []string{`return string.gsub("abc", "(b)", "%2")`, `return string.gsub("abc", "b", "%2")`} {
		_, err := evalChunk(t, rt, src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), "strings.lua:1: invalid capture index", src)
	}
	got, err := evalChunk(t, rt, `return string.gsub("abc", "(b)", "%1%0")`)
	require.NoError(t, err)
	assert.Equal(t, []string{"abbc", "1"}, got)
}

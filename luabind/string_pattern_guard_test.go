package luabind

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPatternMatchChargesItsStartsAndItsEstimate: string.find charges,
// before it matches, 10 units per start position it may try (n + 1 on an
// n-byte subject; an anchored pattern starts once and runs at most as
// many bytes as its recursion may go deep, plus one), one per 128 steps
// of its backtracking estimate, rounded down, and one per 64 bytes of the
// pattern, plus one. The charge is read against string.upper's on the
// same arguments (a unit per 8 bytes of the subject, plus one).
func TestAPatternMatchChargesItsStartsAndItsEstimate(t *testing.T) {
	a100 := strings.Repeat("a", 100)
	tests := []struct {
		name     string
		reason   string
		subject  string
		pattern  string
		units    int64
		upperFee int64
	}{
		{"nothing", "one start: 10 + 1", "", "", 11, 1},
		{"a literal", "101 starts: 1,010 + 1", a100, "b", 1011, 13},
		{"anchored", "one start, at most one byte: 2 x 10 + 1", a100, "^b", 21, 13},
		{"backtracking", "101 starts and 100^2 / 128 = 78 steps: 1,010 + 78 + 1", a100, "(.-)b", 1089, 13},
		{"a long pattern", "101 starts and 130 / 64 = 2 units of pattern: 1,010 + 2 + 1", a100, strings.Repeat("c", 130), 1013, 13},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			call := fmt.Sprintf(`local f = string.%%s local x = f(%q, %q)`, tc.subject, tc.pattern)
			find, _ := chargesOf(t, fmt.Sprintf(call, "find"))
			upper, _ := chargesOf(t, fmt.Sprintf(call, "upper"))
			require.Equal(t, int64(len(tc.subject)/8+1), tc.upperFee)
			assert.Equal(t, tc.units, find-upper+tc.upperFee, tc.reason)
		})
	}
}

// TestAPatternAtTheGuardsBoundsIsMatched: a match whose recursion may go
// exactly 100,000 levels deep, or whose backtracking is estimated at
// exactly 2e7 steps, runs; one level or a few steps more is refused, with
// the pattern shown whole up to 40 bytes.
func TestAPatternAtTheGuardsBoundsIsMatched(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 50_000_000})
	defer rt.Close()
	got, err := evalChunk(t, rt, `return string.find(string.rep("a", 99999), "^a*")`)
	require.NoError(t, err, "one item and a run of 99,999: 100,000 levels")
	assert.Equal(t, []string{"1", "99999"}, got)

	pat40 := "^a*" + strings.Repeat("()", 18) + "x"
	require.Len(t, pat40, 40)
	_, err = evalChunk(t, rt, fmt.Sprintf(`return string.find(string.rep("a", 100000), %q)`, pat40))
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf(`strings.lua:1: string.find: pattern %q on a 100000-byte string could make the matcher recurse 100002 levels deep, more than the sandbox allows (100000)`, pat40))

	got, err = evalChunk(t, rt, `return string.find(string.rep("a", 1000) .. string.rep(" ", 19000), "(%w+)=")`)
	require.NoError(t, err, "20,000 starts times a word of 1,000: 2e7 steps")
	assert.Equal(t, []string{"nil"}, got)

	pat40 = "(%w+)=" + strings.Repeat("()", 17)
	require.Len(t, pat40, 40)
	_, err = evalChunk(t, rt, fmt.Sprintf(`return string.find(string.rep("a", 1001) .. string.rep(" ", 18999), %q)`, pat40))
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf(`strings.lua:1: string.find: pattern %q on a 20000-byte string could take about 2e+07 matching steps`, pat40))
}

// TestARepetitionOfZeroBytesOrOfAnyOtherIsGuarded: gopher-lua's %z matches
// the zero byte and %Z every other byte, and %G is the letter G: a word of
// 10,000 of them that "(%Z+)=" or "(%G+)=" backs off over at each start
// is estimated as such and refused, like "(%w+)=", before it runs for
// seconds in Go.
func TestARepetitionOfZeroBytesOrOfAnyOtherIsGuarded(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for _, tc := range []struct{ subject, pattern string }{
		{`string.rep("a", 1e4)`, "(%Z+)="},
		{`string.rep("\0", 1e4)`, "(%z+)="},
		{`string.rep("G", 1e4)`, "(%G+)="},
	} {
		_, err := evalChunk(t, rt, "return string.find("+tc.subject+", "+strconv.Quote(tc.pattern)+")")
		require.Error(t, err, tc.pattern)
		assert.Contains(t, err.Error(), fmt.Sprintf("strings.lua:1: string.find: pattern %q on a 10000-byte string could take about 1e+08 matching steps", tc.pattern))
	}
}

// TestARepetitionThatCannotMatchWhatFollowsCostsItsLongestRun: %w*, %w+
// and %w- before a "=" they cannot match back off over the subject's
// longest word at each start: n times that word's length, whichever
// repetition it is; a single %w before it costs one pass.
func TestARepetitionThatCannotMatchWhatFollowsCostsItsLongestRun(t *testing.T) {
	subject := strings.Repeat("a", 100) + strings.Repeat(" ", 900)
	for pat, want := range map[string]float64{
		"(%w*)=": 1000 * 100,
		"(%w+)=": 1000 * 100,
		"(%w-)=": 1000 * 100,
		"(%w)=":  0,
		"(%w?)=": 0,
	} {
		assert.InDelta(t, want, patternCost(pat, subject), 1e-6, pat)
	}
}

// TestOverlappingOptionalItemsDoubleTheEstimate: each optional item that
// may match what follows it doubles the estimate (the matcher may try it
// with and without its byte): "^a?a?a?b" has two such, the last a? meets
// only b.
func TestOverlappingOptionalItemsDoubleTheEstimate(t *testing.T) {
	assert.InDelta(t, 4.0, patternCost("^a?a?a?b", "aaaa"), 1e-9)
	assert.InDelta(t, 2*4.0*4.0, patternCost("a?a*b", "aaaa"), 1e-9, "and an overlapping a* multiplies by n, as every start does")
}

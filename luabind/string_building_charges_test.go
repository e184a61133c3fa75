package luabind

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chargesOf runs src as a script's top level and returns the work units
// it spent and the bytes its built-ins charged to the memory meter.
func chargesOf(t *testing.T, src string) (work, bytes int64) {
	t.Helper()
	rt := NewRuntime(Options{})
	defer rt.Close()
	require.NoError(t, runChunk(rt, src))
	return rt.budget.n, rt.budget.mem.alloc
}

// TestBuildingAStringChargesItsBytesOnce: a string a built-in builds is
// charged to the memory meter once, at its full length: a .. b .. c .. d
// joins its run of strings in one go (not three growing pairs), and
// string.rep charges the count times the length.
func TestBuildingAStringChargesItsBytesOnce(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		bytes  int64
	}{
		{"rep", "1,000 bytes", `local a = string.rep("x", 1000)`, 1000},
		{"rep of a longer string", "250 times 4 bytes", `local a = string.rep("abcd", 250)`, 1000},
		{"a run of four", "the rep's 1,000 and the run's 4,000", `local a = string.rep("x", 1000) local s = a .. a .. a .. a`, 5000},
		{"two runs apart", "the right run's 2,000 bytes, then the left run joined with what the metamethod returned: 2,001",
			`local a = string.rep("x", 1000)
			local t = setmetatable({}, { __concat = function(l, r) return "T" end })
			local s = a .. a .. t .. a .. a`, 1000 + 2000 + 2000 + 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, bytes := chargesOf(t, tc.src)
			assert.Equal(t, tc.bytes, bytes, tc.reason)
		})
	}
}

// TestTableConcatChargesItsItemsAndBytes: table.concat(t, sep, i, j)
// charges, on top of what an empty range costs, a unit per 4 items of
// i..j and a unit per 64 bytes it builds (each rounded down, plus one).
func TestTableConcatChargesItsItemsAndBytes(t *testing.T) {
	src := func(i, j int) string {
		return fmt.Sprintf(`local t = {} for k = 1, 40 do t[k] = "ab" end local s = table.concat(t, ",", %d, %d)`, i, j)
	}
	baseWork, baseBytes := chargesOf(t, src(2, 1))
	tests := []struct {
		name   string
		reason string
		i, j   int
		units  int64
		bytes  int64
	}{
		{"one item", "1 item (1 unit) and 2 bytes (1 unit)", 2, 2, 2, 2},
		{"28 items", "28 items (8 units) and 28 x 2 + 27 = 83 bytes (2 units)", 13, 40, 10, 83},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			work, bytes := chargesOf(t, src(tc.i, tc.j))
			assert.Equal(t, tc.units, work-baseWork, tc.reason)
			assert.Equal(t, tc.bytes, bytes-baseBytes, tc.reason)
		})
	}
}

// TestATableConcatRangeIsChargedBeforeItIsWalked: the items of i..j are
// charged before table.concat reads them, so a range of a million is
// stopped by the budget whatever it starts at, even where its first item
// would have ended it.
func TestATableConcatRangeIsChargedBeforeItIsWalked(t *testing.T) {
	for _, src := range []string{
		`local s = table.concat({"a"}, "", 1, 1e6)`,
		`local s = table.concat({"a"}, "", -1e6, 1)`,
	} {
		rt := NewRuntime(Options{InstructionBudget: 100_000})
		defer rt.Close()
		err := runChunk(rt, src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), "escape.lua:1: instruction budget exceeded: more than 100000 work units", src)
	}
}

// TestPrintChargesTheLineItBuilds: print charges the bytes of the line
// it hands to Options.Print, its file and line in front included, and a
// print of nothing charges nothing.
func TestPrintChargesTheLineItBuilds(t *testing.T) {
	var lines []string
	rt := NewRuntime(Options{Print: func(s string) { lines = append(lines, s) }})
	defer rt.Close()
	require.NoError(t, runChunk(rt, `print()`))
	assert.Equal(t, int64(0), rt.budget.mem.alloc, "print()")
	require.NoError(t, runChunk(rt, `print("abc", "de")`))
	assert.Equal(t, int64(len("escape.lua:1: abc\tde")), rt.budget.mem.alloc, `print("abc", "de")`)
	assert.Equal(t, []string{"escape.lua:1: ", "escape.lua:1: abc\tde"}, lines)
}

// TestStringFormatChargesEachConversionAndTheBoundItChecks: each
// conversion of string.format costs 32 units on top of the bytes its
// result could take (the bound checked against MaxStringBytes), which are
// charged as built: "%d%d%d" costs 2 x 32 units and 1,028 bytes more than
// "%d" with the same arguments.
func TestStringFormatChargesEachConversionAndTheBoundItChecks(t *testing.T) {
	oneWork, oneBytes := chargesOf(t, `local s = string.format("%d", 1, 2, 3)`)
	threeWork, threeBytes := chargesOf(t, `local s = string.format("%d%d%d", 1, 2, 3)`)
	assert.Equal(t, int64(6+3*512-(2+512)), threeBytes-oneBytes)
	assert.Equal(t, int64(2*32+(1542/64+1)-(514/64+1)), threeWork-oneWork)
}

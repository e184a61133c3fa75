package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuiltinsChargeTheirWork: a built-in whose work grows with its input
// or output charges it to the budget, so a loop of a few instructions
// that each build megabytes stops like a loop of many instructions.
func TestBuiltinsChargeTheirWork(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		budget int64
		want   string // "" means it runs within the budget
	}{
		{"rep fits", "9 reps of 64,000 bytes are 9 x 1,001 units plus a few dozen instructions",
			`for i = 1, 9 do local s = string.rep("x", 64000) end`, 10_000, ""},
		{"rep charged", "10 reps pass 10,000 units", `for i = 1, 10 do local s = string.rep("x", 64000) end`, 10_000,
			"work.lua:1: instruction budget exceeded: more than 10000 work units"},
		{"16 MiB rep loop", "the issue's three-line body: stopped in its first resume",
			"while true do\n  local s = string.rep(\"x\", 16 * 1024 * 1024 - 1)\nend", 0, "work.lua:2: instruction budget exceeded: more than 500000 work units"},
		{"concat charged", "the .. operator charges the bytes it joins",
			`local s = string.rep("x", 60000) for i = 1, 20 do local t = s .. s end`, 10_000, "work.lua:1: instruction budget exceeded"},
		{"table.concat charged", "one unit per item plus the bytes",
			`local t = {} for i = 1, 2000 do t[i] = "abcdefgh" end for i = 1, 10 do local s = table.concat(t) end`, 12_000, "work.lua:1: instruction budget exceeded"},
		{"find charged", "an unanchored match costs ten units per subject byte",
			`local s = string.rep("a", 100000) local i = s:find("b")`, 500_000, "work.lua:1: instruction budget exceeded"},
		{"find fits", "a short subject is cheap", `local s = string.rep("a", 1000) assert(s:find("b") == nil)`, 20_000, ""},
		{"upper charged", "one unit per 64 bytes", `local s = string.rep("a", 640000) for i = 1, 20 do local u = s:upper() end`, 100_000,
			"work.lua:1: instruction budget exceeded"},
		{"unpack past the stack", "refused before it grows the stack", `local t = {} unpack(t, 1, 1e8)`, 0,
			"work.lua:1: too many results to unpack (100000000; at most 32768)"},
		{"sort charged", "n log n", `local t = {} for i = 1, 3000 do t[i] = -i end for i = 1, 10 do table.sort(t) end`, 50_000,
			"work.lua:1: instruction budget exceeded"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{InstructionBudget: tc.budget})
			defer rt.Close()
			fn, err := rt.compile(stringsReader(tc.src), "work.lua")
			require.NoError(t, err)
			_, err = rt.call(nil, modeLoad, fn, 0)
			if tc.want == "" {
				assert.NoError(t, err, tc.reason)
				return
			}
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
}

// TestListsBehaveAsStockLuaUpToTheMemoryLimit: #t and appends work past
// the million slots of the old array bound, at array speed.
func TestListsBehaveAsStockLuaUpToTheMemoryLimit(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: -1})
	defer rt.Close()
	got, err := evalChunk(t, rt, `local t = {} for i = 1, 2400000 do t[#t + 1] = i end local s = 0 for i = 1, #t do s = s + t[i] end return #t, s`)
	require.NoError(t, err)
	assert.Equal(t, []string{"2400000", "2880001200000"}, got)
}

// TestPcallKeepsItsResults: the pooled pcall workers return every result,
// catch errors with their position, and stay usable after an error.
func TestPcallKeepsItsResults(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	got, err := evalChunk(t, rt, `
local function three(a) return a, nil, a + 1 end
local ok, x, y, z = pcall(three, 1)
local ok2, err = pcall(function() error("boom") end)
local ok3, n = pcall(select, "#", 1, nil, nil)
local ok4, nested = pcall(pcall, three, 5)
return ok, x, y, z, ok2, err, ok3, n, ok4, nested`)
	require.NoError(t, err)
	assert.Equal(t, []string{"true", "1", "nil", "2", "false", "strings.lua:4: boom", "true", "3", "true", "true"}, got)
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

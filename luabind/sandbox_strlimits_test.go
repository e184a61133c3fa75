package luabind

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestStringLimitBodies runs each body that builds a huge string or
// matches a pathological pattern next to a healthy agent: the body fails
// with a clear error naming its file and line, and the other agent
// finishes its work.
func TestStringLimitBodies(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		file   string
		want   string // part of the fail reason, after "testdata/broken/"
	}{
		{"string.format doubling", "the size bound is checked before formatting (32 MB > 16 MiB)", "format_bomb.lua",
			"format_bomb.lua:13: string too long: string.format could build up to 32001028 bytes, more than the sandbox allows (16777216, luabind.Options.MaxStringBytes)"},
		{"string.format width", "widths of more than two digits are refused, as in Lua 5.1", "format_width.lua",
			"format_width.lua:11: invalid format (width or precision too long)"},
		{"string.gsub with %0 references", "the result is refused once it passes 16 MiB", "gsub_bomb.lua",
			"gsub_bomb.lua:12: string too long: string.gsub would build more than 16777224 bytes, more than the sandbox allows (16777216"},
		{"string.gsub with a function", "what the callback returns is counted", "gsub_callback_bomb.lua",
			"gsub_callback_bomb.lua:12: string too long: string.gsub would build more than 17000000 bytes, more than the sandbox allows (16777216"},
		{"string.gsub with a table", "the table's values are counted", "gsub_table_bomb.lua",
			"gsub_table_bomb.lua:12: string too long: string.gsub would build more than 17000000 bytes, more than the sandbox allows (16777216"},
		{"backtracking pattern", "the match would run in Go for seconds, out of the budget's reach", "pattern_bomb.lua",
			`pattern_bomb.lua:11: string.find: pattern ".-.-.-.-b" on a 100-byte string could take about 1e+10 matching steps`},
		{"gsub with a Lua callback over 1,000,000 characters", "the callback's instructions count, so the budget stops the call",
			"gsub_budget.lua", "gsub_budget.lua:12: instruction budget exceeded: more than 100000 work units (Lua instructions plus the work of built-ins) in one resume"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The string limits are checked before the work is charged;
			// a large budget shows them even where the default budget
			// would stop the body first.
			budget := int64(1e9)
			if strings.Contains(tc.want, "budget exceeded") {
				budget = testBudget
			}
			rt := NewRuntime(Options{InstructionBudget: budget})
			defer rt.Close()
			wd := newWorld(t, rt, []string{"broken", "waiter"}, []string{filepath.Join("broken", tc.file), "waiter.lua"})
			wd.run(25, 0.1)
			e := wd.first("broken", record.EventFail)
			require.NotNil(t, e, "no fail event: %v", wd.events)
			assert.Contains(t, e.Reason, filepath.Join("testdata", "broken", tc.want), tc.reason)
			assert.NotEqual(t, expr.BoolValue(true), wd.agents["broken"].Get("done"), "the body did not finish")
			assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent kept running")
		})
	}
}

// evalChunk runs src as a script's top level and returns its results as
// strings (tostring of each).
func evalChunk(t *testing.T, rt *Runtime, src string) ([]string, error) {
	t.Helper()
	fn, err := rt.compile(strings.NewReader(src), "strings.lua")
	require.NoError(t, err)
	vals, err := rt.call(nil, modeLoad, fn, lua.MultRet)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = v.String()
	}
	return out, nil
}

// assertChunkGives runs src as evalChunk does and checks its one result,
// or, when want starts "strings.lua:", the error it fails with.
func assertChunkGives(t *testing.T, rt *Runtime, src, want, reason string) {
	t.Helper()
	got, err := evalChunk(t, rt, src)
	if strings.HasPrefix(want, "strings.lua:") {
		require.Error(t, err, reason)
		assert.Contains(t, err.Error(), want, reason)
		return
	}
	require.NoError(t, err, reason)
	assert.Equal(t, []string{want}, got, reason)
}

// TestStringFunctionsKeepWorking checks that the checked string functions
// behave as gopher-lua's for ordinary calls, and that common patterns on
// long strings pass the pattern guard.
func TestStringFunctionsKeepWorking(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   []string
	}{
		{"format", "ordinary directives", `return string.format("%5.2f|%-4d|%s|%q|%x|%%", 3.14159, 42, "hi", "a\"b", 255)`,
			[]string{` 3.14|42  |hi|"a\"b"|ff|%`}},
		{"format near the limit", "a result under MaxStringBytes is allowed", `return #string.format("%s%s", string.rep("a", 8e6), string.rep("b", 8e6))`,
			[]string{"16000000"}},
		{"gsub string", "captures, %% and the count", `return string.gsub("hello world", "(o)", "[%1%%]")`, []string{"hell[o%] w[o%]rld", "2"}},
		{"gsub %0 and no captures", "%1 without captures is the whole match", `return string.gsub("abc", "%a", "%0%1")`, []string{"aabbcc", "3"}},
		{"gsub max n", "only the first n matches", `return string.gsub("aaaa", "a", "b", 2)`, []string{"bbaa", "2"}},
		{"gsub n = 0", "nothing is replaced, as in Lua 5.1", `return string.gsub("aaaa", "a", "b", 0)`, []string{"aaaa", "0"}},
		{"gsub empty matches", "an empty match between every character", `return string.gsub("abc", "x*", "-")`, []string{"-a-b-c-", "4"}},
		{"gsub anchored", "^ matches once", `return string.gsub("aaa", "^a", "b")`, []string{"baa", "1"}},
		{"gsub function", "nil or false keeps the match", `return string.gsub("a1b2", "%w", function(c) if c:match("%d") then return nil end return c:upper() end)`,
			[]string{"A1B2", "4"}},
		{"gsub table", "a missing key keeps the match", `return string.gsub("$x and $y", "%$(%w+)", { x = "1" })`, []string{"1 and $y", "2"}},
		{"gsub position capture", "() gives a position", `return string.gsub("ab", "()", "%1")`, []string{"1a2b3", "3"}},
		{"gsub no match", "the subject comes back unchanged", `return string.gsub("abc", "z", "y")`, []string{"abc", "0"}},
		{"gsub over 1 MB", "matches come in chunks; the result is built in one pass",
			`local s, n = string.rep("ab", 5e5):gsub("b", "c") return #s, n, s:sub(1, 4)`, []string{"1000000", "500000", "acac"}},
		{"gmatch", "one match per call, captures", `local t = {} for k, v in ("a=1, b=2"):gmatch("(%w+)=(%w+)") do t[#t+1] = k .. v end return table.concat(t, ",")`,
			[]string{"a1,b2"}},
		{"gmatch words", "a common loop", `local n = 0 for w in ("the quick  brown fox"):gmatch("%S+") do n = n + 1 end return n`, []string{"4"}},
		{"gmatch empty matches", "as gopher-lua", `local t = {} for w in ("ab"):gmatch("x*") do t[#t+1] = "<" .. w .. ">" end return table.concat(t)`,
			[]string{"<><><>"}},
		{"trim a 4 KB string", "^%s*(.-)%s*$ costs n^2 = 1.7e7 estimated steps, allowed",
			`local s = "  " .. string.rep("x ", 2048) .. "  " return #s:match("^%s*(.-)%s*$")`, []string{"4095"}},
		{"key=value on 1 MB", "%w+ followed by = cannot backtrack: one pass",
			`local s = string.rep("key=value ", 1e5) local n = 0 for k, v in s:gmatch("(%w+)=(%w+)") do n = n + 1 end return n, s:find("(%w+)=(%w+)", 999990)`,
			[]string{"100000", "999991", "999999", "key", "value"}},
		{"find plain", "a plain search has no pattern", `return string.find(string.rep("a", 1e6) .. ".-.-.-.-b", ".-.-.-.-b", 1, true)`,
			[]string{"1000001", "1000009"}},
		{"small pathological pattern", "on a short string the estimate is small", `return string.find(string.rep("a", 20), ".-.-.-.-b")`,
			[]string{"nil"}},
	}
	// A pattern match over a megabyte costs about 10 million work units
	// (TestPatternWorkIsCharged): these runs get a budget that allows it.
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

func TestStringLimitErrors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   string
	}{
		{"format precision", "three digits", `return string.format("%.100f", 1)`, "strings.lua:1: invalid format (width or precision too long)"},
		{"format Go verb", "only Lua's conversions; Go's %v or %[1]s would bypass the bound",
			`return string.format("%v", 1)`, "strings.lua:1: invalid option '%v' to 'format'"},
		{"format star width", "Go would read the width from an argument", `return string.format("%*d", 1e6, 1)`,
			"strings.lua:1: invalid option '%*' to 'format'"},
		{"format %q", "Go's %q writes up to four bytes per byte", `return string.format("%q", string.rep("\0", 4e6))`,
			"strings.lua:1: string too long: string.format could build up to 20000516 bytes"},
		{"p150 find", "the tester's 19-second repro", `return string.find(string.rep("a", 150), ".-.-.-.-b")`,
			`strings.lua:1: string.find: pattern ".-.-.-.-b" on a 150-byte string could take about 8e+10 matching steps`},
		{"match", "match is guarded", `return string.match(string.rep("a", 1000), "(.-)x(.-)y(.-)z")`,
			`strings.lua:1: string.match: pattern "(.-)x(.-)y(.-)z" on a 1000-byte string could take about 1e+12 matching steps`},
		{"gmatch", "gmatch is guarded", `for a in string.gmatch(string.rep("a", 1000), "a*a*a*b") do end`,
			`strings.lua:1: string.gmatch: pattern "a*a*a*b" on a 1000-byte string could take about 1e+12 matching steps`},
		{"gsub", "gsub is guarded", `return string.gsub(string.rep("a", 1000), "a-a-a-b", "")`,
			`strings.lua:1: string.gsub: pattern "a-a-a-b" on a 1000-byte string could take about 1e+12 matching steps`},
		{"optional items", "2^k for overlapping ?", `return string.find(string.rep("a", 40), "^" .. string.rep("a?", 40) .. string.rep("a", 40))`,
			"strings.lua:1: string.find: pattern \"^a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a...\" on a 40-byte string could take about 1e+12 matching steps"},
		{"one long word", "(%w+)= backs off over a 30,000-letter word at each start (30 s unguarded)",
			`return string.find(string.rep("a", 3e4), "(%w+)=")`, `strings.lua:1: string.find: pattern "(%w+)=" on a 30000-byte string could take about 9e+08 matching steps`},
		{"bad capture index", "as gopher-lua", `return string.gsub("abc", "a", "%2")`, "strings.lua:1: invalid capture index"},
	}
	rt := NewRuntime(Options{})
	defer rt.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := evalChunk(t, rt, tc.src)
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
			got, err := evalChunk(t, rt, `return ("ok"):upper()`)
			require.NoError(t, err, "the runtime is still usable")
			assert.Equal(t, []string{"OK"}, got)
		})
	}
}

func TestPatternCost(t *testing.T) {
	mb, kb := strings.Repeat("x", 1e6), strings.Repeat("x", 1e3)
	tests := []struct {
		name    string
		reason  string
		pat     string
		subject string
		want    float64
	}{
		{"literal", "one pass", "abc", mb, 0},
		{"words", "a repetition at the end never backtracks", "%S+", mb, 0},
		{"key=value", "%w+ cannot match =: n times the longest word", "(%w+)=(%w+)", strings.Repeat("key=value ", 1e5), 5e6},
		{"csv field", "[^,]* cannot match ,", "([^,]*),?", mb, 0},
		{"trim", "anchored; %s* and .- overlap what follows", "^%s*(.-)%s*$", strings.Repeat("x", 4096), 4096 * 4096},
		{"lazy to a comma", "unanchored .- before ,", "(.-),", kb, 1e6},
		{"p100", "four overlapping .- and every start", ".-.-.-.-b", strings.Repeat("a", 100), 1e10},
		{"literal repetitions", "a* overlaps a*", "a*a*b", strings.Repeat("a", 10), 1e3},
		{"disjoint", "a* then b*: no split is ambiguous", "^a*b*c", mb, 0},
		{"one long word", "%w+ backs off over the whole word before = fails", "(%w+)=", strings.Repeat("a", 1e4), 1e8},
		{"%b", "a balanced match is one item", "^%b()", mb, 0},
		{"set with class and range", "[%d.]+ overlaps [0-9]; every start", "[%d.]+[0-9]", strings.Repeat("a", 10), 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, patternCost(tc.pat, tc.subject), tc.want*1e-9, tc.reason)
		})
	}
}

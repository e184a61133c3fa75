package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenarioTestsOfTheShippedRoles runs scripts/tests as CI does.
func TestScenarioTestsOfTheShippedRoles(t *testing.T) {
	out, errOut, code := runMain("test", filepath.Join("..", "..", "scripts", "tests"))
	require.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "ok    "+filepath.Join("..", "..", "scripts", "tests", "soldier_test.lua")+": an empty gun: fetch a magazine, then reload\n")
	assert.Regexp(t, `\n\d+ tests, 0 failed\n$`, out)
}

// TestScenarioFailuresShowADiff: a failing test exits 1 and prints what
// was expected (-) and what came (+), for a plan and a state after ticks;
// --json gives the same as data.
func TestScenarioFailuresShowADiff(t *testing.T) {
	f := filepath.Join("testdata", "scenarios", "farmer_test.lua")
	out, errOut, code := runMain("test", f)
	assert.Equal(t, 1, code, errOut)
	assert.Equal(t, "ok    "+f+": hungry: farm, cook, eat\n"+
		"FAIL  "+f+": hungry with food: eat\n"+
		"        - plan: cook, eat\n"+
		"        + plan: eat\n"+
		"ok    "+f+": eat needs food\n"+
		"FAIL  "+f+": fed after a while\n"+
		"        - hunger after 40 ticks: 0\n"+
		"        + hunger after 40 ticks: 10\n"+
		"4 tests, 2 failed\n", out)

	out, _, code = runMain("test", "--json", f)
	assert.Equal(t, 1, code)
	var got []scenarioResult
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 4)
	assert.Equal(t, scenarioResult{File: f, Test: "hungry with food: eat", Failures: []string{"- plan: cook, eat", "+ plan: eat"}}, got[1])
	assert.True(t, got[2].Pass)
}

// TestScenarioMalformed: a test file that says nothing checkable, or
// names an unknown field, is bad input (exit 2) with the file and test.
func TestScenarioMalformed(t *testing.T) {
	dir := t.TempDir()
	role, err := filepath.Abs(filepath.Join("testdata", "gate", "needs.lua"))
	require.NoError(t, err)
	tests := []struct {
		name, body, want string
	}{
		{"unknown field", `{ name = "a", state = {}, expect_plna = { "eat" } }`,
			`moonmind test: ` + filepath.Join(dir, "x_test.lua") + `: test 1: unknown field expect_plna (did you mean "expect_plan"?)` + "\n"},
		{"no expectation", `{ name = "a", state = { hunger = 1 } }`,
			`moonmind test: ` + filepath.Join(dir, "x_test.lua") + `: test 1: nothing is expected: give expect_plan, expect_pick, expect_why_not or expect_state` + "\n"},
		{"unknown state variable", `{ name = "typo", state = { hungr = 70 }, expect_plan = { "eat" } }`,
			`moonmind test: ` + filepath.Join(dir, "x_test.lua") + `: test "typo": state hungr=70: the role has no state variable "hungr" (did you mean "hunger"?)` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "x_test.lua")
			require.NoError(t, os.WriteFile(path, []byte("return { role = \""+role+"\", tests = { "+tc.body+" } }\n"), 0o644))
			out, errOut, code := runMain("test", path)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, tc.want, errOut)
		})
	}
}

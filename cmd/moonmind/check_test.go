package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	out, errOut, code := runMain("check", soldier)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "ok: role Soldier")

	bad := filepath.Join("..", "..", "luabind", "testdata", "invalid.lua")
	_, errOut, code = runMain("check", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, bad+`:5:48: goal "armed": unknown key "priorty" (did you mean "priority"?)`)
}

func TestTraceReadsWhatRunWrote(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	out, errOut, code := runMain(soldierScenario("1", "--trace", path)...)
	require.Equal(t, 0, code, errOut)
	back, errOut, code := runMain("trace", path)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, out, back, "the trace prints the same lines as the run")

	starts, _, code := runMain("trace", path, "--agent", "Soldier#2", "--kind", "start")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(starts), "\n")
	require.NotEmpty(t, lines)
	for _, l := range lines {
		assert.Contains(t, l, "Soldier#2    start")
	}
}

func TestExtendsResolvesBesideTheFile(t *testing.T) {
	child := filepath.Join("testdata", "roles", "child.lua")
	out, errOut, code := runMain("plan", child, "--json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"plan":["chop"]`, "the child's wood = 1 wins over the parent's 0")
}

func TestTraceFilters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	_, errOut, code := runMain(soldierScenario("1", "--trace", path)...)
	require.Equal(t, 0, code, errOut)
	all, _, code := runMain("trace", path, "--agent", "Soldier#2")
	require.Equal(t, 0, code)

	span, errOut, code := runMain("trace", path, "--agent", "Soldier#2", "--tick", "10:200")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(span), "\n")
	require.NotEmpty(t, lines)
	assert.Less(t, len(lines), len(strings.Split(strings.TrimSpace(all), "\n")), "the span drops records")
	for _, l := range lines {
		var tick int
		_, err := fmt.Sscanf(l, "tick %d", &tick)
		require.NoError(t, err, l)
		assert.True(t, tick >= 10 && tick <= 200, "tick %d is in 10:200", tick)
	}

	for _, tc := range []struct {
		name, reason string
		args         []string
		want         string
	}{
		{"unknown agent", "a misspelt agent name must not print nothing and succeed",
			[]string{"--agent", "Soldeir#3"}, "moonmind trace: --agent Soldeir#3: no record of " + path + " names that agent (did you mean \"Soldier#3\"?)\n"},
		{"unknown kind", "a misspelt kind is named with the closest kind",
			[]string{"--kind", "strat"}, "moonmind trace: --kind strat: no record has that kind (did you mean \"start\"?)\n"},
		{"reversed span", "A must not exceed B",
			[]string{"--tick", "20:10"}, "moonmind trace: --tick 20:10: expected A:B, A:, :B or A, with whole tick numbers A <= B\n"},
		{"not a number", "ticks are whole numbers",
			[]string{"--tick", "x:3"}, "moonmind trace: --tick x:3: expected A:B, A:, :B or A, with whole tick numbers A <= B\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"trace", path}, tc.args...)...)
			assert.Equal(t, 2, code, tc.reason)
			assert.Empty(t, out)
			assert.Equal(t, tc.want, errOut, tc.reason)
		})
	}
}

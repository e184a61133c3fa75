package main

import (
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

package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var sandboxDir = filepath.Join("testdata", "sandbox")

// agentLines returns the lines of a run's output that belong to agent:
// its trace records and what it printed.
func agentLines(out, agent string) []string {
	record := regexp.MustCompile(`^tick +\d+ +t= *[0-9.]+s +` + regexp.QuoteMeta(agent) + ` `)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if record.MatchString(l) || strings.HasPrefix(l, agent+" ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// firstFailure returns the reason of agent's first fail record.
func firstFailure(out, agent string) string {
	for _, l := range agentLines(out, agent) {
		if _, reason, ok := strings.Cut(l, " fail "); ok {
			_, r, _ := strings.Cut(reason, `reason="`)
			return strings.ReplaceAll(strings.TrimSuffix(r, `"`), `\"`, `"`)
		}
	}
	return ""
}

// TestRunCrossAgentAttacksAreRefused: agents that share the victim's role
// file reach its coroutines and host call through the file's top-level
// locals, and an agent of another role file requires the module the victim
// uses. Each attack fails in the attacker's trace with a clear error at
// its line, and the victim's trace is the one it makes alone.
func TestRunCrossAgentAttacksAreRefused(t *testing.T) {
	shared := filepath.Join(sandboxDir, "shared.lua")
	thief := filepath.Join(sandboxDir, "thief.lua")
	alone, errOut, code := runMain("run", "victim="+shared, "--ticks", "12")
	require.Equal(t, 0, code, errOut)
	args := []string{"run", "victim=" + shared}
	for _, a := range []string{"attack_resume", "attack_wrap", "attack_host", "attack_patch", "attack_nested"} {
		args = append(args, a+"="+shared)
	}
	attacked, errOut, code := runMain(append(args, "thief="+thief, "--ticks", "12")...)
	require.Equal(t, 0, code, errOut)

	victim := agentLines(alone, "victim")
	require.Contains(t, victim, "victim count 404, hello victim, first 1", "the victim ran its coroutines four times")
	assert.Equal(t, victim, agentLines(attacked, "victim"), "the attacks changed nothing for the victim")

	readOnly := `: the module "registry" is read-only: every agent of the role shares it (copy what you need into a local table)`
	for agent, want := range map[string]string{
		"attack_resume": shared + `:9: coroutine.resume: this coroutine belongs to agent "victim", not to agent "attack_resume" that runs now: an agent can resume only its own coroutines`,
		"attack_wrap":   shared + `:10: coroutine.wrap: this coroutine belongs to agent "victim", not to agent "attack_wrap" that runs now: an agent can resume only its own coroutines`,
		"attack_host":   shared + `:11: npc:move_to: this host call was started by agent "victim", not by agent "attack_host": an agent can wait only for its own host calls`,
		"attack_patch":  shared + `:12: greet` + readOnly,
		"attack_nested": shared + `:13: 1` + readOnly,
		"thief":         thief + `:15: put` + readOnly,
	} {
		assert.Equal(t, want, firstFailure(attacked, agent), agent)
	}
	// The thief's role file has its own copy of the module: what the
	// victim's role put there is not in it.
	assert.Contains(t, agentLines(attacked, "thief"), "thief the registry holds nil")
}

// TestRunWrapOfAnotherAgentIsLocated: calling another agent's
// coroutine.wrap function, directly or through pcall, names the caller's
// line.
func TestRunWrapOfAnotherAgentIsLocated(t *testing.T) {
	wrap := filepath.Join(sandboxDir, "wrap.lua")
	out, errOut, code := runMain("run", "victim="+wrap, "other="+wrap, "--ticks", "3")
	require.Equal(t, 0, code, errOut)
	refused := `coroutine.wrap: this coroutine belongs to agent "victim", not to agent "other" that runs now: an agent can resume only its own coroutines`
	assert.Equal(t, []string{
		"other pcall: false " + wrap + ":15: " + refused,
		"other pcall of a tail call: false " + wrap + ":17: " + refused,
	}, printLines(strings.Join(agentLines(out, "other"), "\n")))
	assert.Equal(t, wrap+":19: "+refused, firstFailure(out, "other"))
	assert.Empty(t, firstFailure(out, "victim"))
}

package main

import (
	"fmt"
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
	assert.Equal(t, 1, code, "the attacks are script errors: the run fails")
	assert.Regexp(t, `^moonmind run: the scripts raised [0-9]+ errors while the agents ran`, errOut)

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
	assert.Equal(t, 1, code, "other's refused call fails its body: the run fails")
	assert.Equal(t, "moonmind run: the scripts raised 1 error while the agents ran (each is a record above, with its file and line)\n", errOut)
	refused := `coroutine.wrap: this coroutine belongs to agent "victim", not to agent "other" that runs now: an agent can resume only its own coroutines`
	assert.Equal(t, []string{
		"other pcall: false " + wrap + ":15: " + refused,
		"other pcall of a tail call: false " + wrap + ":17: " + refused,
	}, printLines(strings.Join(agentLines(out, "other"), "\n")))
	assert.Equal(t, wrap+":19: "+refused, firstFailure(out, "other"))
	assert.Empty(t, firstFailure(out, "victim"))
}

// TestRunHostileAgentsDoNotChangeOthers: 47 well-behaved agents run next
// to three hostile ones (erroring every time, looping, allocating until
// the memory limit) in one world from the command line; each of the 47
// prints exactly the trace it prints without them.
func TestRunHostileAgentsDoNotChangeOthers(t *testing.T) {
	dir := filepath.Join("..", "..", "luabind", "testdata", "isolation")
	victim := filepath.Join(dir, "victim.lua")
	var alone, mixed []string
	names := []string{}
	for i := range 47 {
		name := fmt.Sprintf("v%02d", i)
		names = append(names, name)
		alone = append(alone, name+"="+victim)
		mixed = append(mixed, name+"="+victim)
		if h, ok := map[int]string{0: "erroring", 23: "looping", 46: "allocating"}[i]; ok {
			mixed = append(mixed, h+"="+filepath.Join(dir, h+".lua"))
		}
	}
	ticks := []string{"--ticks", "40"}
	outAlone, errOut, code := runMain(append(append([]string{"run"}, alone...), ticks...)...)
	require.Equal(t, 0, code, errOut)
	outMixed, errOut, code := runMain(append(append([]string{"run"}, mixed...), ticks...)...)
	assert.Equal(t, 1, code, "the hostile scripts' errors fail the run")
	assert.Regexp(t, `^moonmind run: the scripts raised [0-9]+ errors while the agents ran`, errOut)
	for _, n := range names {
		lines := agentLines(outAlone, n)
		require.NotEmpty(t, lines, n)
		assert.Equal(t, lines, agentLines(outMixed, n), n)
	}
	assert.Contains(t, agentLines(outAlone, "v00"), "tick   11  t=  1.000s  v00          finish      goal=finished action=walk")
	assert.Equal(t, filepath.Join(dir, "erroring.lua")+":6: always broken", firstFailure(outMixed, "erroring"))
	assert.Contains(t, firstFailure(outMixed, "looping"), filepath.Join(dir, "looping.lua")+":6: instruction budget exceeded")
	assert.Contains(t, firstFailure(outMixed, "allocating"), filepath.Join(dir, "allocating.lua")+":13: memory limit exceeded (64 MiB)")
}

package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var soldier = filepath.Join("..", "..", "scripts", "soldier.lua")

func runMain(args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestPlanSoldierJSON(t *testing.T) {
	out, errOut, code := runMain("plan", soldier, "--json")
	require.Equal(t, 0, code, errOut)
	var got planJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, planJSON{Role: "Soldier", Plan: []string{"fetchMagazine", "reload"}, Cost: 3,
		Goals: []goalPlanJSON{{Goal: "armed", Steps: []string{"fetchMagazine", "reload"}}}}, got)
}

func TestPlanWithStateAndGoal(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		args   []string
		plan   []string
	}{
		{"armed already", "with ammo and an enemy in sight no goal is left: the combat choice is the utility planner's (TestUtilityText)",
			[]string{"--state", "ammo=30", "--state", "enemy_visible=true", "--state", "enemy_health=100"},
			[]string{}},
		{"low in a fight", "supply comes first even with an enemy in sight: the goal armed is the GOAP planner's",
			[]string{"--state", "ammo=5", "--state", "enemy_visible=true", "--state", "enemy_health=100"},
			[]string{"fetchMagazine", "reload"}},
		{"magazine in hand", "with a magazine the soldier reloads straight away",
			[]string{"--state", "magazines=1"}, []string{"reload"}},
		{"one goal", "--goal plans only that goal",
			[]string{"--goal", "armed", "--state", "enemy_visible=true", "--state", "enemy_health=100"},
			[]string{"fetchMagazine", "reload"}},
		{"nothing to do", "every goal satisfied gives an empty plan",
			[]string{"--state", "ammo=30"}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"plan", soldier, "--json"}, tc.args...)...)
			require.Equal(t, 0, code, errOut)
			var got planJSON
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			assert.Equal(t, tc.plan, got.Plan, tc.reason)
		})
	}
}

func TestPlanFailureJSON(t *testing.T) {
	out, _, code := runMain("plan", soldier, "--json", "--no-chaining")
	assert.Equal(t, 1, code)
	var got planFailJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "Soldier", got.Role)
	assert.Equal(t, "UNREACHABLE", got.Error.Reason)
	assert.Equal(t, "armed", got.Error.Goal)
	assert.Equal(t, "reload", got.Error.Action)
	assert.Equal(t, "magazines > 0", got.Error.Precondition)
	assert.Contains(t, got.Error.Message, "chaining is off")
}

func TestPlanBadInputExits2(t *testing.T) {
	bad := filepath.Join("..", "..", "luabind", "testdata", "syntax_error.lua")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"syntax error", []string{"plan", bad}, bad + ":4:20: syntax error near 'run'"},
		{"missing file", []string{"plan", "nope.lua"}, "nope.lua"},
		{"unknown variable", []string{"plan", soldier, "--state", "amo=3"}, `no state variable "amo" (did you mean "ammo"?)`},
		{"bad value", []string{"plan", soldier, "--state", "ammo=3 4"}, "--state ammo=3 4: value col"},
		{"2^53 + 1", []string{"plan", soldier, "--state", "ammo=9007199254740993"},
			"--state ammo=9007199254740993: value col 1: expected a number of magnitude at most 2^53 - 1 = 9007199254740991 (larger ones may lose digits in a float64; keep big ids as strings), found \"9007199254740993\""},
		{"2^53", []string{"plan", soldier, "--state", "ammo=-9007199254740992"}, "--state ammo=-9007199254740992: value col 2: expected a number of magnitude at most 2^53 - 1"},
		{"wrong kind", []string{"plan", soldier, "--state", "ammo=lots"}, "--state ammo=lots: ammo holds a number in the role (0), and lots is a string"},
		{"unknown goal", []string{"plan", soldier, "--goal", "armd"}, `(did you mean "armed"?)`},
		{"depth out of range", []string{"plan", soldier, "--max-depth", "0"}, "--max-depth must be in 1..256"},
		{"no file", []string{"plan"}, "expected one role file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runMain(tc.args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, tc.stderr)
		})
	}
}

func TestRunPrintsDecisions(t *testing.T) {
	out, errOut, code := runMain("run", soldier, "--ticks", "200", "--state", "enemy_visible=true", "--state", "enemy_health=300")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(lines), 6)
	assert.Contains(t, lines[0], "plan        goal=armed plan=[fetchMagazine, reload] cost=3")
	assert.Contains(t, lines[1], "start       goal=armed action=fetchMagazine")
	assert.Contains(t, out, "pick        action=attack score=", "armed, the utility planner picks the attack")
	assert.Contains(t, out, "finish      action=attack\n", "shot the magazine dry, and attack promised nothing it did not keep")
	assert.NotContains(t, out, "promised effects not met")
	assert.Equal(t, 2, strings.Count(out, "finish      goal=armed action=reload"), "reloaded at the start and after running dry")
	assert.Contains(t, lines[len(lines)-1], "summary     [flight-recorder] status=IDLE")
}

// TestRunWithGOAPOff checks that MOONMIND_GOAP=off, read by the command
// line (the engine reads no environment variable), leaves the soldier's
// supply goal unplanned: only the utility planner decides.
func TestRunWithGOAPOff(t *testing.T) {
	t.Setenv("MOONMIND_GOAP", "off")
	out, errOut, code := runMain("run", soldier, "--ticks", "60", "--state", "enemy_visible=true", "--state", "enemy_health=300", "--state", "ammo=5")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "goal=armed", "no GOAP plan for the supply goal")
	assert.Contains(t, out, "pick        action=attack score=", "the utility planner still picks")
}

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunPlanBudgetShowsSlicedPlanning: with --plan-budget 1 the two
// soldiers' searches (2 expansions each) take two ticks each, one agent
// after the other, and the trace says so.
func TestRunPlanBudgetShowsSlicedPlanning(t *testing.T) {
	out, errOut, code := runMain("run", soldier, "--ticks", "4", "--agents", "2", "--plan-budget", "1",
		"--state", "enemy_visible=true", "--state", "enemy_health=500")
	require.Equal(t, 0, code, errOut)
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 7 && strings.HasPrefix(f[5], "plan") {
			got = append(got, strings.Join([]string{f[0], f[1], f[4], f[5], f[7]}, " "))
		}
	}
	assert.Equal(t, []string{
		"tick 1 Soldier#1 plan-suspended expansions=1",
		"tick 2 Soldier#1 plan-resumed expansions=1",
		"tick 2 Soldier#1 plan plan=[fetchMagazine,",
		"tick 3 Soldier#2 plan-suspended expansions=1",
		"tick 4 Soldier#2 plan-resumed expansions=1",
		"tick 4 Soldier#2 plan plan=[fetchMagazine,",
	}, got)
	assert.Contains(t, out, `reason="plan budget spent (1 expansion this tick); queue position 1 of 2; resumes first next tick"`)
}

func TestRunPlanBudgetMustNotBeNegative(t *testing.T) {
	_, errOut, code := runMain("run", soldier, "--plan-budget", "-1")
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind run: --plan-budget must be >= 0 (0 is unlimited)\n", errOut)
}

// TestRunPlanBudgetIsTheSameWithAnyWorkers: 16 Lua soldiers whose
// searches wait in the queue decide the same with 1 and 4 workers.
func TestRunPlanBudgetIsTheSameWithAnyWorkers(t *testing.T) {
	args := []string{"run", soldier, "--ticks", "120", "--agents", "16", "--plan-budget", "3", "--dt", "0.05",
		"--state", "enemy_visible=true", "--state", "enemy_health=500"}
	one, errOut, code := runMain(append(args, "--workers", "1")...)
	require.Equal(t, 0, code, errOut)
	four, errOut, code := runMain(append(args, "--workers", "4")...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, one, four)
	// The soldiers are hybrid: while a soldier waits for its plan it does
	// not fall back to a utility pick, so no pick comes before its plan.
	planned := map[string]bool{}
	for _, line := range strings.Split(one, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		switch f[5] {
		case "plan":
			planned[f[4]] = true
		case "pick":
			assert.True(t, planned[f[4]], "%s picks before its plan: %s", f[4], line)
		}
	}
	assert.Len(t, planned, 16)
	assert.Contains(t, one, "Soldier#14   plan-suspended")
	assert.Contains(t, one, "Soldier#16   plan        goal=armed")
}

package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func forageRole(sleep bool) RoleSpec {
	acts := []ActionSpec{
		NewAction("Eat").Pre("food > 0").Effects("hunger = hunger - 50, food = food - 5").Spec(),
		NewAction("Forage").Pre("tired < 50").Effects("tired = tired + 20, food = food + 10, hunger = hunger + 5").Spec(),
	}
	if sleep {
		acts = append(acts, NewAction("Sleep").Pre("tired > 30").Effects("tired = tired - 50").Spec())
	}
	return RoleSpec{
		Name: "Deep",
		State: []Var{{Name: "hunger", Value: NumberValue(80)}, {Name: "food", Value: NumberValue(0)},
			{Name: "tired", Value: NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("stocked", "food > 80", Normal)},
		Actions: acts,
	}
}

func TestResourceHeuristicCountsTheRestorersAMoverNeeds(t *testing.T) {
	d, err := Compile(forageRole(true))
	require.NoError(t, err)
	pl := depthPlanner(d, 20)
	gs := pl.searchGoal(d.Goal("stocked"))
	require.Equal(t, 1, gs.NumAtoms())
	res, ok := gs.IncResource(0)
	require.True(t, ok, "Forage needs tired < 50 and pushes it by 20; Sleep pulls it by 50")
	tired, ok := d.Schema.Lookup("tired")
	require.True(t, ok)
	assert.Equal(t, tired, res.Slot)
	assert.Equal(t, 20.0, res.Step)
	assert.Equal(t, 50.0, res.Back)
	assert.Equal(t, 50.0, res.Lim)
	assert.True(t, res.Strict)

	// From the start: 9 forages (0 -> 90 > 80) and, before the ninth,
	// tired = 160 - 50s < 50 needs s = 3 sleeps: 12 steps, the optimum.
	h, steps := pl.s.Heuristic(gs, d.NewState())
	assert.Equal(t, 12.0, h)
	assert.Equal(t, int32(12), steps)

	p, err := pl.Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, strings.Fields("Forage Forage Forage Sleep Forage Forage Sleep Forage Forage Forage Sleep Forage"), p.Names())
	assert.Equal(t, 12, p.Expansions, "a perfect heuristic expands only the plan's states")
}

func TestResourceHeuristicSeesAGoalNoRestorerCanReach(t *testing.T) {
	d, err := Compile(forageRole(false))
	require.NoError(t, err)
	_, err = depthPlanner(d, 20).Plan(d.NewState())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, Unreachable, pe.Reason, "three forages reach tired = 60; nothing brings it back under 50")
	assert.Equal(t, 0, pe.Expansions, "the heuristic proves it at the start")
	assert.Contains(t, pe.Detail, "run out of a resource nothing restores")
}

package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
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
		State: []Var{{Name: "hunger", Value: expr.NumberValue(80)}, {Name: "food", Value: expr.NumberValue(0)},
			{Name: "tired", Value: expr.NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("stocked", "food > 80", Normal)},
		Actions: acts,
	}
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

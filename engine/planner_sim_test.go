package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestPlanAppliesEachGoalsStepsForTheNextGoals checks that Plan plans a
// goal from the state after the steps of the goals before it, leaves its
// argument unchanged, and does so on both searches (armed's on words
// from whole numbers, the general one from a fractional ammo).
func TestPlanAppliesEachGoalsStepsForTheNextGoals(t *testing.T) {
	d, err := Compile(RoleSpec{
		Name:  "T",
		State: []Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "magazines", Value: expr.NumberValue(0)}},
		Goals: []GoalSpec{
			NewGoal("armed", "ammo > 10", Critical),
			// Satisfied by armed's steps (ammo = 30): no steps of its own.
			NewGoal("loaded", "ammo > 20", High),
			NewGoal("spare", "magazines > 1", Normal),
		},
		Actions: []ActionSpec{
			NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec(),
			NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Spec(),
		},
	})
	require.NoError(t, err)
	for _, start := range []float64{0, 0.5} {
		st := d.NewState()
		st[0] = expr.NumberValue(start)
		before := append(expr.State(nil), st...)
		p := NewPlanner(d)
		pl, err := p.Plan(st)
		require.NoError(t, err, "ammo %v", start)
		assert.Equal(t, []string{"fetchMagazine", "reload", "fetchMagazine", "fetchMagazine"}, pl.Names(), "ammo %v", start)
		require.Len(t, pl.Goals, 2, "ammo %v", start)
		assert.Equal(t, "armed", pl.Goals[0].Goal.Name)
		assert.Equal(t, "spare", pl.Goals[1].Goal.Name)
		assert.Equal(t, 4.0, pl.Cost)
		assert.Equal(t, before, st, "ammo %v: Plan leaves its argument as it was", start)

		// The same from a warm planner.
		pl, err = p.Plan(st)
		require.NoError(t, err)
		assert.Equal(t, []string{"fetchMagazine", "reload", "fetchMagazine", "fetchMagazine"}, pl.Names())
		assert.Equal(t, before, st)
	}
}

package engine

import (
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanAppliesEachGoalsStepsForTheNextGoals checks that Plan plans a
// goal from the state after the steps of the goals before it, leaves its
// argument unchanged, and does so on both searches (armed's on words
// from whole numbers, the general one from a fractional ammo).
func TestPlanAppliesEachGoalsStepsForTheNextGoals(t *testing.T) {
	d, err := Compile(RoleSpec{
		Name:  "T",
		State: []Var{{Name: "ammo", Value: NumberValue(0)}, {Name: "magazines", Value: NumberValue(0)}},
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
		st[0] = NumberValue(start)
		before := append(State(nil), st...)
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

// TestWordLoadTakesTheNumbersNumberWordTakes checks load's short path for
// searches of numbers only against numberWord, at the edges: fractions,
// -0, NaN, infinities, goap.MaxWordNumber and past it.
func TestWordLoadTakesTheNumbersNumberWordTakes(t *testing.T) {
	d, err := Compile(RoleSpec{
		Name:    "T",
		State:   []Var{{Name: "a", Value: NumberValue(0)}, {Name: "b", Value: NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("g", "a > 3 && b > 1", Normal)},
		Actions: []ActionSpec{NewAction("inc").Effects("a = a + 1, b = b + 1").Spec()},
	})
	require.NoError(t, err)
	gs := NewPlanner(d).searchGoal(d.Goals[0])
	require.True(t, gs.HasWords())
	_, nums, _, _ := gs.Words()
	require.True(t, nums, "two numbers")
	for _, f := range []float64{0, 7, -7, 0.5, -2.5, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		goap.MaxWordNumber, -goap.MaxWordNumber, goap.MaxWordNumber + 1, -goap.MaxWordNumber - 1, 1 << 62, -(1 << 63), 1e300} {
		want, wantOK := goap.NumberWord(f)
		for slot := range 2 {
			st := d.NewState()
			st[1-slot] = NumberValue(3)
			st[slot] = NumberValue(f)
			dst := make([]uint64, 2)
			ok := gs.LoadWords(dst, st)
			require.Equal(t, wantOK, ok, "%v in slot %d", f, slot)
			if ok {
				assert.Equal(t, want, dst[gs.WordOf(slot)], "%v in slot %d", f, slot)
			}
		}
	}
	st := d.NewState()
	st[1] = BoolValue(true)
	assert.False(t, gs.LoadWords(make([]uint64, 2), st), "a bool where a number was")
}

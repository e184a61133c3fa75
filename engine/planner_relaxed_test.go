package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestRelaxedEstimateInTheWordSearchOfFourWords(t *testing.T) {
	// p0..p3 fit 4 words; the word search's estimate is the relaxed one
	// too. "back", declared first, leaves p1 cheaply: with the one-step
	// estimate its child ties with step2's (f = 3) and is expanded first.
	d, err := Compile(RoleSpec{Name: "Tiny",
		State: []Var{{"p0", expr.BoolValue(true)}, {"p1", expr.BoolValue(false)}, {"p2", expr.BoolValue(false)}, {"p3", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("top", "p3", Normal)},
		Actions: []ActionSpec{
			NewAction("back").Pre("p1").Effects("p0 = false").Spec(),
			NewAction("step1").Pre("p0").Effects("p1 = true").Spec(),
			NewAction("step2").Pre("p1").Effects("p2 = true").Spec(),
			NewAction("step3").Pre("p2").Effects("p3 = true").Spec(),
		}})
	require.NoError(t, err)
	pl := depthPlanner(d, 3)
	gs := pl.searchGoal(d.Goal("top"))
	require.True(t, gs.HasWords(), "the chain of 3 takes the word search")
	for _, general := range []bool{true, false} {
		pl := depthPlanner(d, 3)
		pl.s.GeneralOnly = general
		p, err := pl.Plan(d.NewState())
		require.NoError(t, err)
		assert.Equal(t, []string{"step1", "step2", "step3"}, p.Names())
		assert.Equal(t, 3, p.Expansions, "general only: %v", general)
		// Sliced, the word loop runs from searchNew.
		p, err = planSliced(pl, d.Goal("top"), d.NewState(), 1)
		require.NoError(t, err)
		assert.Equal(t, 3, p.Expansions, "sliced, general only: %v", general)
	}
}

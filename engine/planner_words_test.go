package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

// planOutcome is what a plan call gives, for comparing two planners.
type planOutcome struct {
	Steps      []string
	Cost       float64
	Expansions int
	Err        string
	PE         *PlanError
}

func outcomeOf(p *Plan, err error) planOutcome {
	if err != nil {
		o := planOutcome{Err: err.Error()}
		if pe, ok := err.(*PlanError); ok {
			o.PE = pe
		}
		return o
	}
	return planOutcome{Steps: p.Names(), Cost: p.Cost, Expansions: p.Expansions}
}

// compareWithGeneral draws a depth limit (1 to 12), a budget, now and then
// an action backed off (Planner.exclude) or forbidden by a policy, and
// requires that d's planners with and without the word search
// (Planner.s.GeneralOnly) give the same outcome from d's start: for Plan,
// Plan again on the warm planner, PlanFor of the first goal and that goal
// time-sliced by 1 to 5 expansions. count sees the word planner after its
// first Plan.
func compareWithGeneral(t *rapid.T, d *Domain, spec RoleSpec, count func(wp *Planner)) {
	st := d.NewState()
	depth := rapid.IntRange(1, 12).Draw(t, "depth")
	budget := rapid.SampledFrom([]int{0, 0, 3, 40}).Draw(t, "budget")
	var exclude []bool
	if rapid.IntRange(0, 3).Draw(t, "exclude") == 0 {
		exclude = make([]bool, len(d.Actions))
		exclude[rapid.IntRange(0, len(d.Actions)-1).Draw(t, "excluded")] = true
	}
	var policy *Policy
	if rapid.IntRange(0, 3).Draw(t, "policy") == 0 {
		d.Actions[rapid.IntRange(0, len(d.Actions)-1).Draw(t, "restricted")].Restricted = true
		policy = &Policy{}
	}
	mk := func(generalOnly bool) *Planner {
		p := depthPlanner(d, depth)
		p.Budget, p.exclude, p.Policy, p.s.GeneralOnly = budget, exclude, policy, generalOnly
		return p
	}
	gp, wp := mk(true), mk(false)
	want := outcomeOf(gp.Plan(st))
	got := outcomeOf(wp.Plan(st))
	count(wp)
	desc := fmt.Sprintf("start %v, goals %+v, actions %+v", st, spec.Goals, spec.Actions)
	require.Equal(t, want, got, desc)
	// Reused planners (warm buffers) and the one-goal call agree too.
	require.Equal(t, want, outcomeOf(wp.Plan(st)), "again: %s", desc)
	want0 := outcomeOf(gp.PlanFor(d.Goals[0], st))
	require.Equal(t, want0, outcomeOf(wp.PlanFor(d.Goals[0], st)), "PlanFor: %s", desc)
	// Time-sliced: the same outcome, whatever the slice.
	slice := rapid.IntRange(1, 5).Draw(t, "slice")
	require.Equal(t, want0, outcomeOf(planSliced(mk(false), d.Goals[0], st, slice)), "sliced by %d: %s", slice, desc)
}

// planSliced plans goal g with a searchSlice of budget expansions per
// call, calling again while the search is suspended, as a world's plan
// job does tick after tick.
func planSliced(p *Planner, g *Goal, st expr.State, budget int) (*Plan, error) {
	sl := &goap.Slice{}
	p.s.Slice = sl
	defer func() { p.s.Slice = nil }()
	for range 100000 {
		sl.SetLeft(budget)
		pl, err := p.PlanFor(g, st)
		if err != errSearchPaused {
			return pl, err
		}
	}
	return nil, fmt.Errorf("never ended")
}

// TestWordSearchGivesTheGeneralSearch runs random domains through the
// word search and the general search (Planner.s.GeneralOnly) and requires
// the same plan, cost, expansions and error (reason, action, detail,
// every field), also with actions backed off or forbidden, small
// budgets, and time-sliced.
func TestWordSearchGivesTheGeneralSearch(t *testing.T) {
	words, general := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := roleOf(plantest.Words(t))
		d, err := Compile(spec)
		if err != nil {
			t.Skip(err.Error()) // a shape the language refuses
		}
		compareWithGeneral(t, d, spec, func(wp *Planner) {
			if wp.s.Last() != nil && wp.s.Last().HasWords() {
				words++
			} else {
				general++
			}
		})
	})
	t.Logf("word search %d, general %d", words, general)
	assert.Greater(t, words, 0, "some domains must run the word search")
	assert.Greater(t, general, 0, "some domains must fall back")
}

// TestPlanTakesAShortState checks that a start state without the
// schema's last slots plans as before: the missing variables are Unknown.
func TestPlanTakesAShortState(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "S", State: []Var{{"n", expr.NumberValue(0)}, {"b", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "n > 1", Normal), NewGoal("h", "b", Low)},
		Actions: []ActionSpec{NewAction("inc").Effects("n = n + 1").Spec(), NewAction("set").Effects("b = true").Spec()}})
	require.NoError(t, err)
	for _, general := range []bool{false, true} {
		p := NewPlanner(d)
		p.s.GeneralOnly = general
		pl, err := p.Plan(expr.State{expr.NumberValue(0)})
		require.NoError(t, err)
		assert.Equal(t, []string{"inc", "inc", "set"}, pl.Names(), "general only: %v", general)
	}
}

// TestDivMagicDividesExactly checks the multiply that replaces the
// estimate's divisions against the division, at the edges of its range

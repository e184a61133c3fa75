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

// TestSmallWordSearchGivesTheGeneralSearch is
// TestWordSearchGivesTheGeneralSearch on small domains (plantest.Small): the
// same plan, cost, expansions and error as the general search, for Plan
// (twice, warm), PlanFor and time-sliced, with actions backed off or
// forbidden and small budgets.
func TestSmallWordSearchGivesTheGeneralSearch(t *testing.T) {
	words, general := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := roleOf(plantest.Small(t))
		d, err := Compile(spec)
		if err != nil {
			t.Skip(err.Error()) // a shape the language refuses
		}
		compareWithGeneral(t, d, spec, func(wp *Planner) {
			if gs := wp.searchGoal(d.Goals[0]); gs.HasWords() {
				words++
			} else {
				general++
			}
		})
	})
	t.Logf("word search %d, general %d", words, general)
	assert.Greater(t, words, general, "most of these domains must run the word search")
}

// TestWordSearchTakesSoldierAndDeep: the goals of the soldier and of the
// forage domain take the word search.
func TestWordSearchTakesSoldierAndDeep(t *testing.T) {
	takesWords := func(state []Var, goal string, acts ...ActionSpec) bool {
		d, err := Compile(RoleSpec{Name: "T", State: state, Goals: []GoalSpec{NewGoal("g", goal, Normal)}, Actions: acts})
		require.NoError(t, err)
		return NewPlanner(d).searchGoal(d.Goals[0]).HasWords()
	}
	soldier := []Var{{"ammo", expr.NumberValue(0)}, {"magazines", expr.NumberValue(0)}}
	fetch := NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec()
	reload := NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("g").Spec()
	assert.True(t, takesWords(soldier, "ammo > 10", fetch, reload), "soldier")
	assert.True(t, takesWords([]Var{{"hunger", expr.NumberValue(80)}, {"food", expr.NumberValue(0)}, {"tired", expr.NumberValue(0)}}, "food > 80",
		NewAction("Eat").Pre("food > 0").Effects("hunger = hunger - 50, food = food - 5").Spec(),
		NewAction("Forage").Pre("tired < 50").Effects("tired = tired + 20, food = food + 10, hunger = hunger + 5").Spec(),
		NewAction("Sleep").Pre("tired > 30").Effects("tired = tired - 50").Spec()), "deep")
}

// TestSmallWordSearchAtItsEdges: on small domains at its edges, the word
// search gives the general search's plan, cost, expansions and error for
// Plan, PlanFor, sliced, with depth limits of 1 to 4 and budgets of 1 to
// 3 expansions, and with plain Plan calls between a sliced job's slices
// on one Planner.
func TestSmallWordSearchAtItsEdges(t *testing.T) {
	words, general := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := roleOf(plantest.SmallEdge(t))
		d, err := Compile(spec)
		require.NoError(t, err)
		st := d.NewState()
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		if len(spec.Actions) > 3 {
			depth = min(depth, 2) // 60 actions 3 deep is 200,000 nodes
		}
		budget := rapid.SampledFrom([]int{0, 1, 2, 3}).Draw(t, "budget")
		mk := func(generalOnly bool) *Planner {
			p := depthPlanner(d, depth)
			p.Budget, p.s.GeneralOnly = budget, generalOnly
			return p
		}
		gp, wp := mk(true), mk(false)
		if gs := wp.searchGoal(d.Goals[0]); gs.HasWords() {
			words++
		} else {
			general++
		}
		desc := fmt.Sprintf("depth %d budget %d start %v goal %+v actions %+v", depth, budget, st, spec.Goals, spec.Actions)
		want := outcomeOf(gp.Plan(st))
		require.Equal(t, want, outcomeOf(wp.Plan(st)), desc)
		require.Equal(t, want, outcomeOf(wp.Plan(st)), "again: %s", desc)
		want0 := outcomeOf(gp.PlanFor(d.Goals[0], st))
		require.Equal(t, want0, outcomeOf(wp.PlanFor(d.Goals[0], st)), "PlanFor: %s", desc)
		slice := rapid.IntRange(1, 3).Draw(t, "slice")
		// rounds runs a sliced job of slice expansions a round on p,
		// calling between for each paused round, for at most limit rounds.
		rounds := func(p *Planner, limit int, between func()) (planOutcome, int, *goap.Slice) {
			sl := &goap.Slice{}
			for r := 1; r <= limit; r++ {
				sl.SetLeft(slice)
				p.s.Slice = sl
				pl, err := p.PlanFor(d.Goals[0], st)
				p.s.Slice = nil
				if err != errSearchPaused {
					return outcomeOf(pl, err), r, sl
				}
				between()
			}
			return planOutcome{}, limit + 1, sl
		}
		plain, n, _ := rounds(mk(false), 400, func() {})
		if n > 400 {
			return // too long a job to run twice more
		}
		require.Equal(t, want0, plain, "sliced by %d: %s", slice, desc)

		// The sliced job with plain Plan calls of another planner of the
		// domain between its rounds, from the start state and from one
		// changed (a world's job borrows a planner of its own; they share
		// the domain's compiled searches): each Plan answers as the
		// general search and the job as unsliced, in as many rounds. (Plan
		// calls on the job's own planner between its rounds would reuse
		// the held search's arena, general and word search alike; no
		// caller does that.)
		st2 := st.Clone()
		st2[0] = expr.NumberValue(3)
		want2 := outcomeOf(gp.Plan(st2))
		other := mk(false)
		got, m, _ := rounds(mk(false), n, func() {
			require.Equal(t, want, outcomeOf(other.Plan(st)), "plain Plan between rounds: %s", desc)
			require.Equal(t, want2, outcomeOf(other.Plan(st2)), "plain Plan from %v between rounds: %s", st2, desc)
		})
		require.Equal(t, n, m, "rounds: %s", desc)
		require.Equal(t, want0, got, "sliced by %d with Plan between: %s", slice, desc)
	})
	t.Logf("word search %d, general %d", words, general)
	assert.Greater(t, words, 0, "some domains must run the word search")
}

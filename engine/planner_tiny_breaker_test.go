package engine

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// tinyEdgeDomain draws domains at the edges of the tiny word search's
// shape: 1 to 8 number variables of wide or narrow ranges (so rows of 1
// to 5 words), 1 to 3 or 60 to 67 actions (the one candidate word's 64),
// costs of 0, fractions and large ones, once actions, one goal conjunct.
func tinyEdgeDomain(t *rapid.T) RoleSpec {
	nv := rapid.IntRange(1, 8).Draw(t, "vars")
	var state []Var
	for i := range nv {
		state = append(state, Var{"v" + strconv.Itoa(i), NumberValue(rapid.SampledFrom([]float64{0, 1, 5, 1000, 100000, 1 << 40}).Draw(t, "start"))})
	}
	v := func(label string) string { return "v" + strconv.Itoa(rapid.IntRange(0, nv-1).Draw(t, label)) }
	var n int
	if rapid.Bool().Draw(t, "many") {
		n = rapid.IntRange(60, 67).Draw(t, "n")
	} else {
		n = rapid.IntRange(1, 3).Draw(t, "n")
	}
	costs := []float64{0, 0, 0.5, 1, 1, 2.25, 7, 1e6}
	var actions []ActionSpec
	for i := range n {
		b := NewAction("a" + strconv.Itoa(i))
		target := v("target")
		k := rapid.SampledFrom([]string{"1", "2", "-1", "1000", "0"}).Draw(t, "k")
		b.Effects(target + " = " + target + " + " + k)
		if rapid.IntRange(0, 2).Draw(t, "haspre") == 0 {
			b.Pre(v("prev") + " " + rapid.SampledFrom([]string{"<", ">=", "!="}).Draw(t, "preop") + " " + strconv.Itoa(rapid.IntRange(0, 8).Draw(t, "prec")))
		}
		b.Cost(rapid.SampledFrom(costs).Draw(t, "cost"))
		if rapid.IntRange(0, 4).Draw(t, "once") == 0 {
			b.NoRerun()
		}
		actions = append(actions, b.Spec())
	}
	goal := v("goal") + " " + rapid.SampledFrom([]string{">=", ">", "==", "<"}).Draw(t, "gop") + " " + strconv.Itoa(rapid.IntRange(-1, 6).Draw(t, "gc"))
	return RoleSpec{Name: "E", State: state, Goals: []GoalSpec{NewGoal("g", goal, High)}, Actions: actions}
}

// TestBreakerTinySearchAtItsEdges: at the edges of its shape, the tiny
// search gives the general search's plan, cost, expansions and error for
// Plan, PlanFor, sliced, with depth limits of 1 to 4 and budgets of 1 to
// 3 expansions, and with plain Plan calls between a sliced job's slices
// on one Planner.
func TestBreakerTinySearchAtItsEdges(t *testing.T) {
	tiny, other := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := tinyEdgeDomain(t)
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
			p.Budget, p.generalOnly = budget, generalOnly
			return p
		}
		gp, wp := mk(true), mk(false)
		if gs := wp.searchGoal(d.Goals[0]); gs.words != nil && gs.words.tiny != nil {
			tiny++
		} else {
			other++
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
		rounds := func(p *Planner, limit int, between func()) (planOutcome, int, *searchSlice) {
			sl := &searchSlice{}
			for r := 1; r <= limit; r++ {
				sl.left = slice
				p.slice = sl
				pl, err := p.PlanFor(d.Goals[0], st)
				p.slice = nil
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
		// the held search's arena, general and tiny search alike; no
		// caller does that.)
		st2 := st.Clone()
		st2[0] = NumberValue(3)
		want2 := outcomeOf(gp.Plan(st2))
		other := mk(false)
		got, m, _ := rounds(mk(false), n, func() {
			require.Equal(t, want, outcomeOf(other.Plan(st)), "plain Plan between rounds: %s", desc)
			require.Equal(t, want2, outcomeOf(other.Plan(st2)), "plain Plan from %v between rounds: %s", st2, desc)
		})
		require.Equal(t, n, m, "rounds: %s", desc)
		require.Equal(t, want0, got, "sliced by %d with Plan between: %s", slice, desc)
	})
	t.Logf("tiny %d, other %d", tiny, other)
	assert.Greater(t, tiny, 0)
	assert.Greater(t, other, 0)
}

// TestBreakerTinyRefusesNegativeCosts: a negative or non-finite cost is
// refused when the domain compiles, so no search sees one.
func TestBreakerTinyRefusesNegativeCosts(t *testing.T) {
	for _, c := range []float64{-1, -1e-300} {
		_, err := Compile(RoleSpec{Name: "E", State: []Var{{"v0", NumberValue(0)}}, Goals: []GoalSpec{NewGoal("g", "v0 > 1", High)},
			Actions: []ActionSpec{NewAction("up").Effects("v0 = v0 + 1").Cost(c).Spec()}})
		require.Error(t, err, "cost %v", c)
		assert.Contains(t, err.Error(), "cost")
	}
}

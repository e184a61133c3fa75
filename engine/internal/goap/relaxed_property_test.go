package goap_test

import (
	"fmt"
	"math"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

// TestRelaxedEstimateIsAdmissibleAndConsistent checks the heuristic with
// the relaxed estimate against a uniform-cost search on random boolean
// domains (plantest.Relaxed), in every state: it never exceeds the
// optimal cost (admissible) nor a step's cost plus the estimate after it
// (consistent, between states that can still reach the goal); the word
// loop estimates the same; the plan costs the optimum, in both loops
// alike, and within a small depth is the one the reference search picks
// among the cheapest.
func TestRelaxedEstimateIsAdmissibleAndConsistent(t *testing.T) {
	used := 0
	rapid.Check(t, func(t *rapid.T) {
		spec := plantest.Relaxed(t)
		pr, err := plantest.Lower(spec)
		require.NoError(t, err)
		nb := len(spec.State)
		g := pr.Goals[0]
		desc := fmt.Sprintf("goal %q, actions %+v", spec.Goals[0].Condition, spec.Actions)
		opt, err := plantest.OptimalCosts(pr, g, nb)
		require.NoError(t, err)
		p := searcher(pr, 0, nil, false)
		gs := p.GoalSearch(g)
		for i := range gs.NumAtoms() {
			if gs.HasRelaxed(i) {
				used++
				break
			}
		}
		h := make([]float64, len(opt))
		for s := range opt {
			st := plantest.BoolState(pr, s, nb)
			h[s], _ = p.Heuristic(gs, st)
			require.LessOrEqual(t, h[s], opt[s], "admissible in state %b: %s", s, desc)
			if gs.HasWords() {
				row := make([]uint64, gs.NumWords())
				require.True(t, gs.LoadWords(row, st))
				hw, _ := p.HeuristicWords(gs, row)
				require.Equal(t, h[s], hw, "the word loop's estimate in state %b: %s", s, desc)
			}
		}
		for s := range opt {
			st := plantest.BoolState(pr, s, nb)
			for i := range pr.Actions {
				a := &pr.Actions[i]
				if !a.Pre.Eval(st) || a.Serves(g) {
					continue
				}
				next := st.Clone()
				require.NoError(t, a.Effects.Apply(next, st))
				n := plantest.StateBits(next, nb)
				if !math.IsInf(opt[n], 1) {
					require.LessOrEqual(t, h[s], a.Cost+h[n], "consistent from %b by %s to %b: %s", s, a.Name, n, desc)
				}
			}
		}
		start := plantest.StateBits(pr.Initial, nb)
		out, _ := plantest.Plan(p, pr.Goals, pr.Initial, 1<<nb)
		if math.IsInf(opt[start], 1) {
			require.NotNil(t, out.Failure, desc)
		} else {
			require.Nil(t, out.Failure, desc)
			assert.Equal(t, opt[start], out.Cost, "the optimum: %s", desc)
		}
		general, _ := plantest.Plan(searcher(pr, 0, nil, true), pr.Goals, pr.Initial, 1<<nb)
		require.Equal(t, general, out, "the word loop gives the general loop: %s", desc)
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		out, _ = plantest.Plan(searcher(pr, 0, nil, false), pr.Goals, pr.Initial, depth)
		checkAgainstReference(t, pr, g, pr.Initial, depth, nil, out, desc)
	})
	t.Logf("relaxed estimate used in %d domains", used)
	assert.Greater(t, used, 0)
}

// TestRelaxedEstimateKeepsPlansOptimalOnDrawnDomains: on boolean goals,
// with "or", negations and a counter (plantest.Bools), both loops plan
// what the reference search plans within depth limits of 1 to 5, with
// the same expansions, also with an action left out, small budgets and
// time sliced.
func TestRelaxedEstimateKeepsPlansOptimalOnDrawnDomains(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := plantest.Bools(t)
		pr, err := plantest.Lower(spec)
		require.NoError(t, err)
		compareLoops(t, spec, pr, pr.Initial, 5, true)
	})
}

// TestHasRelaxedTellsTheAtomsWithARelaxedEstimate: a chain of boolean
// facts has the relaxed estimate, a number moved by steps has its own.
func TestHasRelaxedTellsTheAtomsWithARelaxedEstimate(t *testing.T) {
	chain := spec("chain", []plantest.Var{{Name: "p0", Value: expr.BoolValue(true)}, {Name: "p1", Value: expr.BoolValue(false)},
		{Name: "p2", Value: expr.BoolValue(false)}, {Name: "n", Value: expr.NumberValue(0)}}, "p2 && n > 2",
		plantest.Action{Name: "step1", Pre: "p0", Effects: "p1 = true"},
		plantest.Action{Name: "step2", Pre: "p1", Effects: "p2 = true"},
		plantest.Action{Name: "up", Effects: "n = n + 1"})
	pr, err := plantest.Lower(chain)
	require.NoError(t, err)
	gs := searcher(pr, 0, nil, false).GoalSearch(pr.Goals[0])
	require.Equal(t, 2, gs.NumAtoms())
	assert.True(t, gs.HasRelaxed(0), "p2 takes two steps of a chain")
	assert.False(t, gs.HasRelaxed(1), "n > 2 counts its steps")
}

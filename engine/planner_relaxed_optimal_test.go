package engine

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

// bruteCost is the least cost of a plan of at most depth steps for goal
// g from st, trying every sequence of actions (a step's precondition
// holds where it runs, its effect applies; the goal holds after the last
// step or the last step fulfills g), and +Inf when there is none.
func bruteCost(d *Domain, g *Goal, st expr.State, depth int) float64 {
	if g.Satisfied(st) {
		return 0
	}
	if depth == 0 {
		return math.Inf(1)
	}
	best := math.Inf(1)
	for _, a := range d.Actions {
		if !a.Pre.Eval(st) {
			continue
		}
		next := st.Clone()
		if a.Effects != nil && !a.Effects.TryApply(next, st) {
			continue
		}
		c := a.Cost
		if !a.Serves(g) {
			c += bruteCost(d, g, next, depth-1)
		}
		best = min(best, c)
	}
	return best
}

// TestRelaxedEstimateKeepsPlansOptimalOnDrawnDomains: on boolean goals the
// planner's plan costs what the cheapest plan within its depth limit
// costs (found by trying every sequence), and it finds a plan whenever
// one exists: the relaxed estimate never overestimates.
func TestRelaxedEstimateKeepsPlansOptimalOnDrawnDomains(t *testing.T) {
	drawn, ran, plans := 0, 0, 0
	skips := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		drawn++
		spec := roleOf(plantest.Bools(t))
		d, err := Compile(spec)
		if err != nil {
			skips[err.Error()[:min(60, len(err.Error()))]]++
			t.Skip(err.Error())
		}
		ran++
		st := d.NewState()
		depth := rapid.IntRange(1, 5).Draw(t, "depth")
		want := bruteCost(d, d.Goals[0], st, depth)
		desc := fmt.Sprintf("depth %d start %v goal %+v actions %+v", depth, st, spec.Goals[0].Condition, spec.Actions)
		for _, general := range []bool{true, false} {
			p := depthPlanner(d, depth)
			p.s.GeneralOnly = general
			pl, err := p.PlanFor(d.Goals[0], st)
			if math.IsInf(want, 1) {
				require.Error(t, err, "general %v: no plan exists: %s", general, desc)
				continue
			}
			require.NoError(t, err, "general %v: a plan of cost %v exists: %s", general, want, desc)
			require.Equal(t, want, pl.Cost, "general %v: plan %v: %s", general, pl.Names(), desc)
			plans++
		}
	})
	t.Logf("drawn %d, ran %d, plans %d, skipped %v", drawn, ran, plans, skips)
	// Most drawn domains plan (rapid draws 100, or fewer under -short).
	require.Greater(t, ran, drawn/2)
	require.Greater(t, plans, drawn/2)
}

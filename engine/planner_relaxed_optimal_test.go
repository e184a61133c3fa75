package engine

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
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

// drawnBoolDomain draws small domains of boolean facts whose goals are
// bare variables (the relaxed estimate's conjuncts) or their
// conjunction with a number test: preconditions of facts, negated facts,
// "or" and numbers; effects that set, clear, copy or negate facts.
func drawnBoolDomain(t *rapid.T) RoleSpec {
	facts := []string{"p", "q", "r", "s"}
	state := []Var{{"n", expr.NumberValue(float64(rapid.IntRange(0, 3).Draw(t, "n")))}}
	for _, f := range facts {
		state = append(state, Var{f, expr.BoolValue(rapid.IntRange(0, 3).Draw(t, f) == 0)})
	}
	fact := func(l string) string { return rapid.SampledFrom(facts).Draw(t, l) }
	var actions []ActionSpec
	for i := range rapid.IntRange(1, 4).Draw(t, "actions") {
		var pre string
		switch rapid.IntRange(0, 6).Draw(t, "pre") {
		case 0, 1:
			pre = fact("pf")
		case 2:
			pre = "!" + fact("pf")
		case 3:
			pre = fact("pa") + " || " + fact("pb")
		case 4:
			pre = fact("pa") + " && " + fact("pb")
		case 5:
			pre = "n > " + strconv.Itoa(rapid.IntRange(0, 3).Draw(t, "pn"))
		}
		seen := map[string]bool{}
		var effs []string
		for range rapid.IntRange(1, 2).Draw(t, "effects") {
			f := fact("ef")
			if seen[f] {
				continue
			}
			seen[f] = true
			switch rapid.IntRange(0, 4).Draw(t, "eff") {
			case 0, 1:
				effs = append(effs, f+" = true")
			case 2:
				effs = append(effs, f+" = false")
			case 3:
				effs = append(effs, f+" = "+fact("src"))
			case 4:
				if !seen["n"] {
					seen["n"] = true
					effs = append(effs, "n = n + 1")
				}
			}
		}
		b := NewAction("a" + strconv.Itoa(i)).Pre(pre).Cost(float64(rapid.IntRange(0, 3).Draw(t, "cost")))
		if len(effs) > 0 {
			b.Effects(joinComma(effs))
		}
		if rapid.IntRange(0, 5).Draw(t, "fulfills") == 0 {
			b.Fulfills("g")
		}
		actions = append(actions, b.Spec())
	}
	var goal string
	switch rapid.IntRange(0, 3).Draw(t, "goal") {
	case 0, 1:
		goal = fact("g")
	case 2:
		goal = fact("ga") + " && " + fact("gb")
	case 3:
		goal = fact("ga") + " && n > " + strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "gn"))
	}
	return RoleSpec{Name: "R", State: state, Goals: []GoalSpec{NewGoal("g", goal, High)}, Actions: actions}
}

func joinComma(s []string) string {
	out := s[0]
	for _, x := range s[1:] {
		out += ", " + x
	}
	return out
}

// TestRelaxedEstimateKeepsPlansOptimalOnDrawnDomains: on boolean goals the
// planner's plan costs what the cheapest plan within its depth limit
// costs (found by trying every sequence), and it finds a plan whenever
// one exists: the relaxed estimate never overestimates.
func TestRelaxedEstimateKeepsPlansOptimalOnDrawnDomains(t *testing.T) {
	ran, plans := 0, 0
	skips := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		spec := drawnBoolDomain(t)
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
	t.Logf("ran %d, plans %d, skipped %v", ran, plans, skips)
	require.Greater(t, ran, 50)
	require.Greater(t, plans, 50)
}

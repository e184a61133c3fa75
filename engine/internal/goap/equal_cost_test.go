package goap

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countersProblem: a corridor of 8 steps (the same action each time),
// then k counters, each raised by its own action of cost 1, to reach r
// each. Every order of the raises costs the same, so past the corridor
// the open set holds many nodes of equal cost whose paths agree on their
// first 8 steps (all the packed path key holds with fewer than 255
// actions): the open set must order them by walking their paths.
func countersProblem(t *testing.T, k, r int) *Problem {
	vars := []tVar{{"s", num(0)}}
	goal := []string{"s >= 8"}
	acts := []tAct{{name: "walk", pre: "s < 8", eff: "s = s + 1"}}
	for i := range k {
		v := string(rune('a' + i))
		vars = append(vars, tVar{v, num(0)})
		goal = append(goal, v+" >= "+strconv.Itoa(r))
		acts = append(acts, tAct{name: "raise_" + v, pre: "s >= 8 && " + v + " < " + strconv.Itoa(r), eff: v + " = " + v + " + 1"})
	}
	return lower(t, vars, strings.Join(goal, " && "), acts...)
}

// TestEqualCostPlansPastThePathKeyComeInDeclarationOrder: among plans of
// equal cost that share their first 8 steps, the search returns the first
// in declaration order, and it expands the same nodes in both loops, as
// many as the open set's total order gives.
func TestEqualCostPlansPastThePathKeyComeInDeclarationOrder(t *testing.T) {
	corridor := strings.Repeat("walk ", 8)
	cases := []struct {
		k, r       int
		plan       string
		cost       float64
		expansions int
	}{
		{3, 2, corridor + "raise_a raise_a raise_b raise_b raise_c raise_c", 14, 30},
		{4, 3, corridor + "raise_a raise_a raise_a raise_b raise_b raise_b raise_c raise_c raise_c raise_d raise_d raise_d", 20, 254},
	}
	for _, c := range cases {
		pr := countersProblem(t, c.k, c.r)
		for _, general := range []bool{true, false} {
			desc := strconv.Itoa(c.k) + " counters to " + strconv.Itoa(c.r) + ", general loop " + strconv.FormatBool(general)
			p := newSearcher(pr)
			p.GeneralOnly = general
			names, cost, res, expansions := planOf(p, pr.Initial, 30)
			require.Equal(t, Found, res, desc)
			assert.Equal(t, c.plan, strings.Join(names, " "), desc)
			assert.Equal(t, c.cost, cost, desc)
			assert.Equal(t, c.expansions, expansions, desc)

			// A budget of exactly the expansions it takes finds the plan;
			// one less runs out.
			p = newSearcher(pr)
			p.GeneralOnly, p.Budget = general, c.expansions
			names, _, res, _ = planOf(p, pr.Initial, 30)
			assert.Equal(t, Found, res, desc)
			assert.Equal(t, c.plan, strings.Join(names, " "), desc)
			p = newSearcher(pr)
			p.GeneralOnly, p.Budget = general, c.expansions-1
			_, _, res, expansions = planOf(p, pr.Initial, 30)
			assert.Equal(t, OverBudget, res, desc)
			assert.Equal(t, c.expansions-1, expansions, desc)
		}
	}
}

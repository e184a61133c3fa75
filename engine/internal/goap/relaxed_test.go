package goap

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainOf is the layered chain of bench.Synthetic in small: flags p0
// (true) .. p{depth}, steps "step{k}" (pre p{k-1}, p{k} = true, cost 1),
// and distractors that skip two layers at cost 3 or undo a layer.
func chainOf(t *testing.T, depth int) *Problem {
	p := func(i int) string { return "p" + strconv.Itoa(i) }
	var vars []tVar
	var acts []tAct
	for i := 0; i <= depth; i++ {
		vars = append(vars, tVar{p(i), boolean(i == 0)})
	}
	for k := 1; k <= depth; k++ {
		acts = append(acts, tAct{name: "step" + strconv.Itoa(k), pre: p(k - 1), eff: p(k) + " = true"})
	}
	for a := 0; a < depth; a++ {
		acts = append(acts,
			tAct{name: "skip" + strconv.Itoa(a), pre: p(a), eff: p(min(a+2, depth)) + " = true", cost: 3},
			tAct{name: "undo" + strconv.Itoa(a), pre: p(a + 1), eff: p(a) + " = false"})
	}
	return lower(t, vars, p(depth), acts...)
}

func TestRelaxedEstimateSeesAChainOfBooleanFacts(t *testing.T) {
	pr := chainOf(t, 10)
	p := newSearcher(pr)
	gs := p.searchGoal(pr.Goals[0])
	require.Len(t, gs.atoms, 1)
	rel := gs.atoms[0].rel
	require.NotNil(t, rel, "p10 is 10 steps of cost 1 from p0")
	assert.True(t, math.IsInf(rel.free, 1), "every action needs a fact")
	require.Len(t, rel.facts, 10)
	assert.Equal(t, relaxedFact{slot: 9, cost: 1}, rel.facts[0], "the cheapest first")
	assert.Equal(t, relaxedFact{slot: 0, cost: 10}, rel.facts[9])

	p.gs = gs
	st := pr.Initial.Clone()
	h, steps := p.heuristic(st)
	assert.Equal(t, 10.0, h, "the optimum: the one-step estimate said 1")
	assert.Equal(t, int32(1), steps, "the bound on steps stays one step")
	st[4] = boolean(true)
	h, _ = p.heuristic(st)
	assert.Equal(t, 6.0, h, "the cheapest true fact decides")

	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, exp := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res)
		assert.Equal(t, 10.0, cost)
		assert.Equal(t, strings.Fields("step1 step2 step3 step4 step5 step6 step7 step8 step9 step10"), names)
		assert.Equal(t, 10, exp, "a perfect estimate expands only the plan's states (general only: %v)", general)
	}
}

func TestRelaxedEstimateIsLeftOutWhenItCannotGain(t *testing.T) {
	// One action sets the goal from anywhere: the relaxed cost is the
	// one-step estimate everywhere.
	pr := lower(t, []tVar{{"a", boolean(false)}, {"g", boolean(false)}}, "g",
		tAct{name: "set", eff: "g = true"},
		tAct{name: "via", pre: "a", eff: "g = true", cost: 2})
	gs := newSearcher(pr).searchGoal(pr.Goals[0])
	assert.Nil(t, gs.atoms[0].rel)
}

func TestRelaxedEstimateCountsCopiesAsAdds(t *testing.T) {
	// "b = a" may make b true, "b = false" adds nothing.
	pr := lower(t, []tVar{{"a", boolean(true)}, {"b", boolean(false)}, {"c", boolean(false)}, {"g", boolean(false)}}, "g",
		tAct{name: "copy", pre: "a", eff: "b = a", cost: 2},
		tAct{name: "mid", pre: "b && !g", eff: "c = true, b = false", cost: 3},
		tAct{name: "done", pre: "c", eff: "g = true, a = false"})
	p := newSearcher(pr)
	p.gs = p.searchGoal(pr.Goals[0])
	require.NotNil(t, p.gs.atoms[0].rel)
	assert.Equal(t, []relaxedFact{{slot: 2, cost: 1}, {slot: 1, cost: 4}, {slot: 0, cost: 6}}, p.gs.atoms[0].rel.facts)
	h, _ := p.heuristic(pr.Initial)
	assert.Equal(t, 6.0, h)
	names, cost, res, exp := planOf(p, pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, []string{"copy", "mid", "done"}, names)
	assert.Equal(t, 6.0, cost)
	assert.Equal(t, 3, exp)
}

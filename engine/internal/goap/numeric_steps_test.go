package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnActionThatAddsZeroLeavesTheEstimateToThoseThatMove: an action
// that adds 0 to the goal's number moves it nowhere, so its low cost is
// not the cost per step of the estimate: from 0 to n >= 3 in steps of 1
// at cost 2 the estimate is 6 in 3 steps, and the search expands only the
// plan's states, never the cheap detour.
func TestAnActionThatAddsZeroLeavesTheEstimateToThoseThatMove(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}, {"rested", boolean(false)}}, "n >= 3",
		tAct{name: "idle", pre: "n < 10", eff: "n = n + 0", cost: 1},
		tAct{name: "rest", pre: "!rested", eff: "rested = true, n = n + 0", cost: 1},
		tAct{name: "inc", pre: "n < 10", eff: "n = n + 1", cost: 2},
	)
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		gs := p.GoalSearch(pr.Goals[0])
		h, steps := p.Heuristic(gs, pr.Initial)
		assert.Equal(t, 6.0, h)
		assert.Equal(t, int32(3), steps)
		names, cost, res, expansions := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res)
		assert.Equal(t, []string{"inc", "inc", "inc"}, names)
		assert.Equal(t, 6.0, cost)
		assert.Equal(t, 3, expansions, "general loop %v", general)
	}
}

// TestAnEffectOfALiteralAVariableAndMoreTermsAddsThemAll: "n = 1 + n + 1"
// adds 2, like "n = n + 2": two steps reach n >= 4 from 0.
func TestAnEffectOfALiteralAVariableAndMoreTermsAddsThemAll(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}}, "n >= 4",
		tAct{name: "twice", pre: "n < 10", eff: "n = 1 + n + 1"},
	)
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res, "general loop %v", general)
		assert.Equal(t, []string{"twice", "twice"}, names, "general loop %v", general)
		assert.Equal(t, 2.0, cost)
		end, res, _, _ := p.Search(p.GoalSearch(pr.Goals[0]), pr.Initial, 10)
		require.Equal(t, Found, res)
		sim := pr.Initial.Clone()
		p.StoreEnd(end, sim)
		assert.Equal(t, num(4), sim[0], "general loop %v", general)
	}
}

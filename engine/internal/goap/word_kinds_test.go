package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestANumericGoalOnAVariableHoldingAStringIsLeftToItsFinishingAction: x
// starts as a string and no action assigns it, so "x >= 3" cannot hold
// by steps; "hire" fulfills the goal. The word search takes x's word as
// a string's and estimates the goal as the general search does: one
// step of "hire", found with one expansion in both loops.
func TestANumericGoalOnAVariableHoldingAStringIsLeftToItsFinishingAction(t *testing.T) {
	pr := lower(t, []tVar{{"x", Value(expr.StringValue("a"))}, {"n", num(7)}}, "x >= 3",
		tAct{name: "wait", pre: "n > 0", eff: "n = n - 1"},
		tAct{name: "hire", pre: "n < 7", cost: 2, finishes: true},
	)
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		gs := p.GoalSearch(pr.Goals[0])
		h, steps := p.Heuristic(gs, pr.Initial)
		assert.Equal(t, 2.0, h)
		assert.Equal(t, int32(1), steps)
		names, cost, res, expansions := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res, "general loop %v", general)
		assert.Equal(t, !general, p.wmode, "the word search takes it")
		assert.Equal(t, []string{"wait", "hire"}, names, "general loop %v", general)
		assert.Equal(t, 3.0, cost)
		assert.Equal(t, 2, expansions, "general loop %v", general)
	}
}

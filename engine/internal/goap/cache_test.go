package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCachedHoldsOnlyTheCurrentProblemsAnalyses: Cached gives the
// analysis GoalSearch made for a goal of the searcher's problem, nothing
// for an index past its goals, and nothing once the searcher is Reset to
// another problem, until that problem's goal is analysed.
func TestCachedHoldsOnlyTheCurrentProblemsAnalyses(t *testing.T) {
	first := lower(t, []tVar{{"n", num(0)}}, "n >= 2", tAct{name: "inc", pre: "n < 5", eff: "n = n + 1"})
	second := lower(t, []tVar{{"m", num(0)}}, "m >= 3", tAct{name: "add", pre: "m < 5", eff: "m = m + 1"})
	p := newSearcher(first)
	assert.Nil(t, p.Cached(0), "nothing analysed yet")
	gs := p.GoalSearch(first.Goals[0])
	require.Same(t, first.Goals[0], gs.Goal())
	assert.Same(t, gs, p.Cached(0))
	assert.Nil(t, p.Cached(1), "past the problem's one goal")
	assert.Nil(t, p.Cached(-1))

	p.Reset(second)
	assert.Nil(t, p.Cached(0), "the first problem's analysis is not the second's")
	gs2 := p.GoalSearch(second.Goals[0])
	require.Same(t, second.Goals[0], gs2.Goal())
	assert.Same(t, gs2, p.Cached(0))
	names, cost, res, _ := planOf(p, second.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, []string{"add", "add", "add"}, names)
	assert.Equal(t, 3.0, cost)
}

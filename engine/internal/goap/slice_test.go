package goap

import (
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unsliced returns the expansions of pr's search for gs from start
// within depth 10 in one go.
func unsliced(pr *Problem, g *Goal, start State) int {
	p := newSearcher(pr)
	_, _, _, exp := p.Search(p.GoalSearch(g), start, 10)
	return exp
}

// sliceProblem is a count to 6 by steps of 1 (up, which also counts m,
// read only by its kind) or of 2 (leap, dearer), with a variable free
// that nothing reads.
func sliceProblem(t *testing.T) *Problem {
	return lower(t, []tVar{{"n", num(0)}, {"m", num(0)}, {"free", num(0)}}, "n >= 6",
		tAct{name: "up", eff: "n = n + 1, m = m + 1"},
		tAct{name: "leap", eff: "n = n + 2", cost: 3})
}

// TestASuspendedSearchRestartsWhenWhatItSearchesChanges: a search
// suspended by its slice's budget goes on in the next call only when
// that call searches the same goal within the same limits, leaves out the
// same actions and starts from the same values of the variables the
// search reads; otherwise it starts again, and Restarted says why.
func TestASuspendedSearchRestartsWhenWhatItSearchesChanges(t *testing.T) {
	pr := sliceProblem(t)
	other, err := expr.CompileCondition("n >= 4", pr.Schema)
	require.NoError(t, err)
	otherGoal := &Goal{Name: "h", Condition: other, Index: -1}
	for _, c := range []struct {
		name   string
		change func(p *Searcher, gs **GoalSearch, start State, depth *int)
		why    string
	}{
		{"nothing", func(*Searcher, **GoalSearch, State, *int) {}, ""},
		{"a variable no test reads", func(_ *Searcher, _ **GoalSearch, st State, _ *int) { st[2] = num(9) }, ""},
		{"a kind-only variable within its kind", func(_ *Searcher, _ **GoalSearch, st State, _ *int) { st[1] = num(7) }, ""},
		{"the goal", func(p *Searcher, gs **GoalSearch, _ State, _ *int) { *gs = p.GoalSearch(otherGoal) }, "the goal changed"},
		{"the depth limit", func(_ *Searcher, _ **GoalSearch, _ State, d *int) { *d = 9 }, "the planner's limits changed"},
		{"the budget", func(p *Searcher, _ **GoalSearch, _ State, _ *int) { p.Budget = 500 }, "the planner's limits changed"},
		{"the actions left out", func(p *Searcher, _ **GoalSearch, _ State, _ *int) { p.Skip = []bool{false, true} },
			"the actions left out changed (a back-off began or ended, or the policy changed)"},
		{"a value the search reads", func(_ *Searcher, _ **GoalSearch, st State, _ *int) { st[0] = num(1) },
			`variable "n" changed since the search began`},
		{"a kind-only variable's kind", func(_ *Searcher, _ **GoalSearch, st State, _ *int) { st[1] = expr.StringValue("x") },
			`variable "m" changed kind since the search began`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newSearcher(pr)
			gs := p.GoalSearch(pr.Goals[0])
			require.Equal(t, []int{0}, gs.full, "the search reads n by value")
			require.Equal(t, []int{1}, gs.kinds, "and m by kind")
			require.Equal(t, 7, unsliced(pr, pr.Goals[0], pr.Initial))
			sl := &Slice{}
			p.Slice = sl
			sl.SetLeft(2)
			sl.BeginChain()
			start, depth := pr.Initial.Clone(), 10
			_, res, _, exp := p.Search(gs, start, depth)
			require.Equal(t, Paused, res)
			require.Equal(t, 2, exp)
			require.True(t, sl.Held())
			require.Same(t, pr.Goals[0], sl.HeldGoal())

			c.change(p, &gs, start, &depth)
			sl.SetLeft(100)
			sl.BeginChain()
			end, res, _, exp := p.Search(gs, start, depth)
			assert.Equal(t, c.why, sl.Restarted())
			if c.why != "" {
				assert.False(t, sl.Held(), "the suspended search is dropped")
				return
			}
			require.Equal(t, Found, res)
			assert.Equal(t, 7, exp, "the expansions of the unsliced search")
			assert.Equal(t, 7, p.Expanded, "2 expansions in the first call, 5 in the second")
			assert.Equal(t, 6, p.EndDepth(end))
			assert.False(t, sl.Held())
			assert.Nil(t, sl.HeldGoal())
		})
	}
}

// TestADroppedSearchStartsAgain: after Drop the next call searches from
// the start, spending every expansion again.
func TestADroppedSearchStartsAgain(t *testing.T) {
	pr := sliceProblem(t)
	p := newSearcher(pr)
	gs := p.GoalSearch(pr.Goals[0])
	sl := &Slice{}
	p.Slice = sl
	sl.SetLeft(2)
	sl.BeginChain()
	_, res, _, _ := p.Search(gs, pr.Initial, 10)
	require.Equal(t, Paused, res)
	sl.Drop()
	assert.False(t, sl.Held())
	assert.Nil(t, sl.HeldGoal())
	sl.SetLeft(100)
	sl.BeginChain()
	_, res, _, exp := p.Search(gs, pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, 7, exp)
	assert.Equal(t, 9, p.Expanded, "2 expansions before the drop, 7 after")
	assert.Equal(t, "", sl.Restarted(), "nothing held, nothing restarted")
}

// TestASlicedChainReplaysTheSearchesItEnded: a chain of two searches
// whose second is suspended replays the first in the next call without
// spending an expansion (its plan read through PathTo and EndDepth), and
// goes on with the second; when the chain's first search would start
// from other values, the chain starts again.
func TestASlicedChainReplaysTheSearchesItEnded(t *testing.T) {
	pr := sliceProblem(t)
	four, err := expr.CompileCondition("n >= 4", pr.Schema)
	require.NoError(t, err)
	p := newSearcher(pr)
	fourGoal := &Goal{Name: "four", Condition: four, Index: -1}
	first, second := p.GoalSearch(fourGoal), p.GoalSearch(pr.Goals[0])
	require.Equal(t, 4, unsliced(pr, fourGoal, pr.Initial))
	require.Equal(t, 7, unsliced(pr, pr.Goals[0], pr.Initial))
	sl := &Slice{}
	p.Slice = sl

	// The first call: the first search ends (4 expansions), the second
	// pauses after the 2 left.
	sl.SetLeft(6)
	sl.BeginChain()
	end, res, _, exp := p.Search(first, pr.Initial, 10)
	require.Equal(t, Found, res)
	require.Equal(t, 4, exp)
	require.Equal(t, 4, p.EndDepth(end))
	_, res, _, exp = p.Search(second, pr.Initial, 10)
	require.Equal(t, Paused, res)
	require.Equal(t, 2, exp)
	require.True(t, p.Suspended())
	assert.Equal(t, 6, sl.SoFar())

	// The second call replays the first search.
	sl.SetLeft(100)
	sl.BeginChain()
	end, res, _, exp = p.Search(first, pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, 4, exp, "the replayed search's expansions")
	assert.Equal(t, 6, p.Expanded, "a replay spends none")
	assert.Equal(t, 4, p.EndDepth(end))
	assert.Equal(t, []int32{0, 0, 0, 0}, p.PathTo(end, nil))
	assert.Equal(t, []bool{true, true}, p.Held())
	end, res, _, exp = p.Search(second, pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, 7, exp, "the expansions of the unsliced search")
	assert.Equal(t, 11, p.Expanded, "4 and 2 in the first call, 5 in the second")
	assert.Equal(t, 6, p.EndDepth(end))
	assert.Equal(t, "", sl.Restarted())
	sl.EndChain()

	// A chain whose first search is ended and whose second is suspended,
	// called again from another start: the first search runs again.
	sl.SetLeft(6)
	sl.BeginChain()
	_, res, _, _ = p.Search(first, pr.Initial, 10)
	require.Equal(t, Found, res)
	_, res, _, _ = p.Search(second, pr.Initial, 10)
	require.Equal(t, Paused, res)
	start := pr.Initial.Clone()
	start[0] = num(1)
	sl.SetLeft(100)
	sl.BeginChain()
	end, res, _, exp = p.Search(first, start, 10)
	assert.Equal(t, `variable "n" changed since the search began`, sl.Restarted())
	require.Equal(t, Found, res)
	assert.Equal(t, 3, exp, "from n = 1, three steps")
	assert.Equal(t, 3, p.EndDepth(end))
	assert.Equal(t, []int32{0, 0, 0}, p.PathTo(end, nil))

	// The chain's second search suspended with a limit it no longer has,
	// its first unchanged: the second starts again.
	sl.EndChain()
	sl.SetLeft(6)
	sl.BeginChain()
	_, _, _, _ = p.Search(first, pr.Initial, 10)
	_, res, _, _ = p.Search(second, pr.Initial, 10)
	require.Equal(t, Paused, res)
	sl.SetLeft(100)
	sl.BeginChain()
	_, res, _, _ = p.Search(first, pr.Initial, 10)
	require.Equal(t, Found, res)
	_, res, _, exp = p.Search(second, pr.Initial, 8)
	require.Equal(t, Found, res)
	assert.Equal(t, "the planner's limits changed", sl.Restarted())
	assert.Equal(t, 7, exp, "the whole search again")
}

// TestSameMaskTakesNilForNoneLeftOut: two left-out masks are the same
// when they leave out the same actions, whatever their lengths.
func TestSameMaskTakesNilForNoneLeftOut(t *testing.T) {
	assert.True(t, sameMask(nil, []bool{false, false}))
	assert.True(t, sameMask([]bool{false, false}, nil))
	assert.True(t, sameMask([]bool{true}, []bool{true, false}))
	assert.False(t, sameMask(nil, []bool{false, true}))
	assert.False(t, sameMask([]bool{false, true}, []bool{false}))
}

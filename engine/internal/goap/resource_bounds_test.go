package goap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAResourcesBoundIsTheLoosestOfItsMovers: two actions raise x by 1
// and load y by 1, each while y is under a bound of its own; "rest"
// takes 1 off y. From x = 0, y = 0 to x >= 4, the estimate counts the
// restorer steps the loosest bound needs (at it, strict only when every
// mover's bound there is strict), and finds the optimum.
func TestAResourcesBoundIsTheLoosestOfItsMovers(t *testing.T) {
	cases := []struct {
		name           string
		first, second  string
		lim            float64
		strict         bool
		estimate, cost float64
		plan           string
	}{
		// Four raises take y to 3 before the last: one rest for y <= 2,
		// two for y < 2.
		{"at 2, then strictly at 2", "y <= 2", "y < 2", 2, false, 5, 5, "up up up rest up"},
		{"strictly at 2, then at 2", "y < 2", "y <= 2", 2, false, 5, 5, "up up up2 rest up2"},
		{"at 2, then at 1", "y <= 2", "y <= 1", 2, false, 5, 5, "up up up rest up"},
		{"strictly at 2, then strictly at 1", "y < 2", "y < 1", 2, true, 6, 6, "up up rest up rest up"},
	}
	for _, c := range cases {
		pr := lower(t, []tVar{{"x", num(0)}, {"y", num(0)}}, "x >= 4",
			tAct{name: "up", pre: c.first, eff: "x = x + 1, y = y + 1"},
			tAct{name: "up2", pre: c.second, eff: "x = x + 1, y = y + 1"},
			tAct{name: "rest", pre: "y > -10", eff: "y = y - 1"},
		)
		assertResourceBound(t, pr, c.name, c.lim, c.strict, c.estimate)
		for _, general := range []bool{true, false} {
			p := newSearcher(pr)
			p.GeneralOnly = general
			names, cost, found, _ := planOf(p, pr.Initial, 10)
			require.Equal(t, Found, found, c.name)
			assert.Equal(t, c.plan, strings.Join(names, " "), c.name)
			assert.Equal(t, c.cost, cost, c.name)
		}
	}
}

// TestAMoversBoundIsTheLoosestOfItsOwnTests: a mover with two tests on
// its resource is counted against the looser (a lower bound on the
// restorers, which its tighter test may make more), strict only when
// both tests at that bound are strict.
func TestAMoversBoundIsTheLoosestOfItsOwnTests(t *testing.T) {
	cases := []struct {
		pre      string
		lim      float64
		strict   bool
		estimate float64
		plan     string
	}{
		{"y <= 2 && y < 2", 2, false, 5, "up up rest up rest up"},
		{"y < 2 && y <= 2", 2, false, 5, "up up rest up rest up"},
		{"y < 2 && y < 2", 2, true, 6, "up up rest up rest up"},
		{"y <= 3 && y <= 2", 3, false, 4, "up up up rest up"},
	}
	for _, c := range cases {
		pr := lower(t, []tVar{{"x", num(0)}, {"y", num(0)}}, "x >= 4",
			tAct{name: "up", pre: c.pre, eff: "x = x + 1, y = y + 1"},
			tAct{name: "rest", pre: "y > -10", eff: "y = y - 1"},
		)
		assertResourceBound(t, pr, c.pre, c.lim, c.strict, c.estimate)
		names, _, found, _ := planOf(newSearcher(pr), pr.Initial, 10)
		require.Equal(t, Found, found, c.pre)
		assert.Equal(t, c.plan, strings.Join(names, " "), c.pre)
	}
}

// TestAMoverWithATighterBoundDoesNotHideTheCheapestPlan: "up2" needs
// y <= 1 where "up" needs only y <= 2. Counting the restorers against
// the tighter bound would estimate 5 from a state that reaches the goal
// in 4, and the search would take "hire" (5.5) over "up up up rest up"
// (5).
func TestAMoverWithATighterBoundDoesNotHideTheCheapestPlan(t *testing.T) {
	pr := lower(t, []tVar{{"x", num(0)}, {"y", num(0)}}, "x >= 4",
		tAct{name: "up", pre: "y <= 2", eff: "x = x + 1, y = y + 1"},
		tAct{name: "up2", pre: "y <= 1", eff: "x = x + 1, y = y + 1"},
		tAct{name: "rest", pre: "y > -10", eff: "y = y - 1"},
		tAct{name: "hire", cost: 5.5, finishes: true},
	)
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res)
		assert.Equal(t, "up up up rest up", strings.Join(names, " "), "general loop %v", general)
		assert.Equal(t, 5.0, cost)
		gs := p.GoalSearch(pr.Goals[0])
		h, _ := p.Heuristic(gs, State{num(1), num(1)})
		assert.Equal(t, 4.0, h, "three raises and one rest from x = 1, y = 1")
	}
}

// TestRestorersAreCountedByTheLargestPullAndTheCheapestThatPulls: the
// restorers of a resource from a fractional start (so the count is not
// made in integers): "idle" adds 0 to y (it pulls nothing, so its low
// cost is no restorer's), and the pull of "rest" is 2 or 100,000.
func TestRestorersAreCountedByTheLargestPullAndTheCheapestThatPulls(t *testing.T) {
	for _, c := range []struct {
		pull     string
		estimate float64
	}{
		// y = 0.5: three raises take it to 3.5 before the fourth, 1.5 past
		// the bound 2: one rest of 2 (or of 100,000) at cost 3.
		{"2", 7},
		{"100000", 7},
	} {
		pr := lower(t, []tVar{{"x", num(0)}, {"y", num(0.5)}}, "x >= 4",
			tAct{name: "up", pre: "y <= 2", eff: "x = x + 1, y = y + 1"},
			tAct{name: "idle", pre: "y > -1000000", eff: "y = y + 0", cost: 0.5},
			tAct{name: "rest", pre: "y > -1000000", eff: "y = y - " + c.pull, cost: 3},
		)
		p := newSearcher(pr)
		gs := p.GoalSearch(pr.Goals[0])
		res := gs.atoms[0].incRes
		require.NotNil(t, res, c.pull)
		assert.Equal(t, 3.0, res.backCost, c.pull)
		h, steps := p.Heuristic(gs, pr.Initial)
		assert.Equal(t, c.estimate, h, c.pull)
		assert.Equal(t, int32(5), steps, c.pull)
		for _, general := range []bool{true, false} {
			p := newSearcher(pr)
			p.GeneralOnly = general
			names, cost, found, _ := planOf(p, pr.Initial, 10)
			require.Equal(t, Found, found, c.pull)
			assert.Equal(t, "up up rest up up", strings.Join(names, " "), c.pull)
			assert.Equal(t, 7.0, cost, c.pull)
		}
	}
}

// assertResourceBound checks the bound on the resource that the estimate
// of pr's first goal counts restorers against, whether it is strict, and
// the estimate of the start.
func assertResourceBound(t *testing.T, pr *Problem, name string, lim float64, strict bool, estimate float64) {
	t.Helper()
	p := newSearcher(pr)
	gs := p.GoalSearch(pr.Goals[0])
	res := gs.atoms[0].incRes
	require.NotNil(t, res, name)
	assert.Equal(t, lim, res.lim, name)
	assert.Equal(t, strict, res.strict, name)
	h, _ := p.Heuristic(gs, pr.Initial)
	assert.Equal(t, estimate, h, name)
}

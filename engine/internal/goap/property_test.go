package goap_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

// The search core's property tests: random domains (package plantest's,
// the ones package engine's planner tests draw) lowered as engine.Compile
// lowers them, planned as engine.Planner plans them (plantest.Plan), and
// checked against the plain reference search (plantest.BruteForce) and
// the general loop against the word loop.

// defaultBudget is engine.Planner's budget when it sets none.
const defaultBudget = 10000

// searcher returns a searcher over pr with the given budget (0: the
// planner's default), left-out actions and loop.
func searcher(pr *goap.Problem, budget int, skip []bool, generalOnly bool) *goap.Searcher {
	if budget <= 0 {
		budget = defaultBudget
	}
	p := &goap.Searcher{Budget: budget, Skip: skip, GeneralOnly: generalOnly}
	p.Reset(pr)
	return p
}

// indexesOf returns the action indexes of the plan's step names.
func indexesOf(pr *goap.Problem, names []string) []int {
	var out []int
	for _, n := range names {
		i := slices.IndexFunc(pr.Actions, func(a goap.Action) bool { return a.Name == n })
		out = append(out, i)
	}
	return out
}

// checkAgainstReference requires that out, the outcome of planning g
// alone from st within depth, is the reference search's: the cheapest
// plan, first in declaration order among the cheapest, valid step by
// step; or, without one, a failure whose reason the reference search
// confirms (a plan beyond the depth limit for MaxDepthExceeded, none at
// any depth tried for Unreachable and CyclicPrecondition).
func checkAgainstReference(t *rapid.T, pr *goap.Problem, g *goap.Goal, st goap.State, depth int, skip []bool, out plantest.Outcome, desc string) {
	want, wantCost, exists := plantest.BruteForce(pr, g, st, depth, skip)
	if exists {
		require.Nil(t, out.Failure, desc)
		got := indexesOf(pr, out.Steps)
		switch {
		case len(want) == 0:
			require.Empty(t, got, desc)
		case !slices.ContainsFunc(pr.Actions, func(a goap.Action) bool { return a.NoRerun }):
			require.Equal(t, want, got, "the cheapest plan, first in declaration order: %s", desc)
		default:
			// With actions that run once per plan, the search tells states
			// apart by their values alone, so among plans of equal cost it
			// may keep a later one (a0 a2 a1 for a0 a1 a2): only the cost
			// (below) is the reference's.
		}
		require.Equal(t, wantCost, out.Cost, desc)
		end, err := plantest.Replay(pr, st, got)
		require.NoError(t, err, desc)
		if len(got) == 0 || !pr.Actions[got[len(got)-1]].Serves(g) {
			require.True(t, g.Condition.Eval(end), "the goal holds after the plan: %s", desc)
		}
		return
	}
	require.NotNil(t, out.Failure, "the reference search finds no plan within depth %d: %s", depth, desc)
	require.Equal(t, g.Name, out.Goal, desc)
	switch out.Failure.Reason {
	case goap.MaxDepthExceeded:
		// The detail names the length of the plan beyond the limit when
		// the deeper search found one within its own budget.
		var n int
		if _, err := fmt.Sscanf(out.Failure.Detail, "a plan of %d steps exists", &n); err == nil {
			require.Greater(t, n, depth, desc)
			longer := plantest.Reaches(pr, g, st, n, skip)
			require.True(t, longer, "the reported %d-step plan exists: %s", n, desc)
		}
	case goap.Unreachable, goap.CyclicPrecondition:
		deeper := plantest.Reaches(pr, g, st, depth+3, skip)
		require.False(t, deeper, "%d claims no plan at any depth: %s", out.Failure.Reason, desc)
	default:
		t.Fatalf("unexpected reason %d: %s", out.Failure.Reason, desc)
	}
}

// TestSearchFindsTheReferencePlan: on tiny random domains (plantest.Prop)
// both loops find the reference search's plan and cost within depth
// limits of 1 to 4, or fail for a reason it confirms, with the same
// expansions, and again on a warm searcher.
func TestSearchFindsTheReferencePlan(t *testing.T) {
	words := 0
	rapid.Check(t, func(t *rapid.T) {
		spec := plantest.Prop(t)
		pr, err := plantest.Lower(spec)
		require.NoError(t, err)
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		g, st := pr.Goals[0], pr.Initial
		desc := fmt.Sprintf("goal %q, depth %d, start %v, actions %+v", spec.Goals[0].Condition, depth, st, spec.Actions)
		gp, wp := searcher(pr, 0, nil, true), searcher(pr, 0, nil, false)
		want, ok := plantest.Plan(gp, pr.Goals, st, depth)
		require.True(t, ok)
		checkAgainstReference(t, pr, g, st, depth, nil, want, desc)
		got, _ := plantest.Plan(wp, pr.Goals, st, depth)
		if wp.WordMode() {
			words++
		}
		require.Equal(t, want, got, "word loop: %s", desc)
		again, _ := plantest.Plan(wp, pr.Goals, st, depth)
		require.Equal(t, want, again, "warm: %s", desc)
	})
	assert.Greater(t, words, 0, "some domains must run the word loop")
}

// compareLoops draws a depth limit (1 to maxDepth), a budget, now and
// then a left-out action, and requires that the general loop and the
// word loop give the same outcome for every goal by priority, again on
// the warm searchers, for the first goal alone, and for that goal time
// sliced by 1 to 5 expansions (both loops). With no budget and no
// left-out action the first goal's plan is the reference search's.
// It returns whether the first goal's search takes the word loop.
func compareLoops(t *rapid.T, spec plantest.Spec, pr *goap.Problem, st goap.State, maxDepth int, reference bool) bool {
	depth := rapid.IntRange(1, maxDepth).Draw(t, "depth")
	budget := rapid.SampledFrom([]int{0, 0, 3, 40}).Draw(t, "budget")
	var skip []bool
	if rapid.IntRange(0, 3).Draw(t, "exclude") == 0 {
		skip = make([]bool, len(pr.Actions))
		skip[rapid.IntRange(0, len(pr.Actions)-1).Draw(t, "excluded")] = true
	}
	goals := plantest.ByPriority(pr, spec)
	desc := fmt.Sprintf("depth %d, budget %d, skip %v, start %v, goals %+v, actions %+v", depth, budget, skip, st, spec.Goals, spec.Actions)
	gp, wp := searcher(pr, budget, skip, true), searcher(pr, budget, skip, false)
	want, _ := plantest.Plan(gp, goals, st, depth)
	got, _ := plantest.Plan(wp, goals, st, depth)
	words := wp.GoalSearch(pr.Goals[0]).HasWords()
	require.Equal(t, want, got, desc)
	again, _ := plantest.Plan(wp, goals, st, depth)
	require.Equal(t, want, again, "again: %s", desc)

	first := pr.Goals[:1]
	want0, _ := plantest.Plan(gp, first, st, depth)
	got0, _ := plantest.Plan(wp, first, st, depth)
	require.Equal(t, want0, got0, "the first goal alone: %s", desc)
	slice := rapid.IntRange(1, 5).Draw(t, "slice")
	for _, general := range []bool{false, true} {
		sliced, _, ok := plantest.PlanSliced(searcher(pr, budget, skip, general), first, st, depth, slice)
		require.True(t, ok, "the sliced search ends: %s", desc)
		require.Equal(t, want0, sliced, "sliced by %d, general only %v: %s", slice, general, desc)
	}
	if reference && budget == 0 && len(pr.Actions) <= 8 && depth <= 5 {
		checkAgainstReference(t, pr, pr.Goals[0], st, depth, skip, want0, desc)
	}
	return words
}

// TestWordLoopGivesTheGeneralLoop runs random domains of the shapes the
// word loop takes and some it does not (plantest.Words: booleans, small
// numbers, a location, and now and then a chain over more words than one
// dense pass takes) through both loops: the same plan, cost, expansions
// and failure, also with an action left out, small budgets and time
// sliced; the first goal's plan is the reference search's.
func TestWordLoopGivesTheGeneralLoop(t *testing.T) {
	// Draw again until both loops ran (a -short run draws 20 domains).
	words, general := compareLoopsOf(t, plantest.Words, func(words, general int) bool { return words > 0 && general > 0 })
	assert.Greater(t, words, 0, "some domains must run the word loop")
	assert.Greater(t, general, 0, "some domains must fall back")
}

// compareLoopsOf runs compareLoops on domains draw makes, in rounds of
// rapid.Check until enough says the counts suffice (at most 5 rounds),
// and returns how many domains ran the word loop and how many the
// general one.
func compareLoopsOf(t *testing.T, draw func(*rapid.T) plantest.Spec, enough func(words, general int) bool) (words, general int) {
	for round := 0; round < 5 && !enough(words, general); round++ {
		rapid.Check(t, func(t *rapid.T) {
			spec := draw(t)
			pr, err := plantest.Lower(spec)
			require.NoError(t, err)
			if compareLoops(t, spec, pr, pr.Initial, 12, true) {
				words++
			} else {
				general++
			}
		})
	}
	t.Logf("word loop %d, general %d", words, general)
	return words, general
}

// TestSmallWordLoopGivesTheGeneralLoop is TestWordLoopGivesTheGeneralLoop
// on domains whose rows fit a few words (plantest.Small), most of which
// run the word loop.
func TestSmallWordLoopGivesTheGeneralLoop(t *testing.T) {
	words, general := compareLoopsOf(t, plantest.Small, func(words, general int) bool { return words > general })
	assert.Greater(t, words, general, "most of these domains must run the word loop")
}

// TestWordLoopAtItsEdges: domains at the word loop's edges
// (plantest.SmallEdge: 1 to 5 words a row, around 64 actions, costs of
// 0, fractions and 1e6) and domains whose numbers sit at its bounds
// (plantest.Edge, with start values changed after lowering: a huge or
// fractional number, -0, a string the domain never names, another kind)
// plan in both loops alike.
func TestWordLoopAtItsEdges(t *testing.T) {
	skipUnderRace(t)
	words := 0
	rapid.Check(t, func(t *rapid.T) {
		spec := plantest.SmallEdge(t)
		pr, err := plantest.Lower(spec)
		require.NoError(t, err)
		maxDepth := 4
		if len(pr.Actions) > 3 {
			maxDepth = 2 // 60 actions 3 deep is 200,000 nodes
		}
		if compareLoops(t, spec, pr, pr.Initial, maxDepth, true) {
			words++
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		spec := plantest.Edge(t)
		pr, err := plantest.Lower(spec)
		if err != nil {
			t.Skip(err.Error()) // a number the language refuses
		}
		st := pr.Initial.Clone()
		switch rapid.IntRange(0, 4).Draw(t, "start") {
		case 0:
			st[0] = expr.NumberValue(rapid.SampledFrom(plantest.EdgeNumbers).Draw(t, "s0"))
		case 1:
			st[3] = expr.StringValue(rapid.SampledFrom([]string{"zz", "q", "c"}).Draw(t, "s3"))
		case 2:
			st[1] = rapid.SampledFrom([]expr.Value{expr.BoolValue(true), expr.StringValue("a"), {}}).Draw(t, "s1")
		}
		if compareLoops(t, spec, pr, st, 8, false) {
			words++
		}
	})
	t.Logf("word loop %d", words)
	assert.Greater(t, words, 0, "some domains must run the word loop")
}

// TestIndexedSearchFindsTheReferencePlan covers the precondition index:
// move graphs over string locations (plantest.Indexed, at least 8 moves,
// so the actions are indexed by the location they test), in both loops
// alike and as the reference search plans them.
func TestIndexedSearchFindsTheReferencePlan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := plantest.Indexed(t)
		pr, err := plantest.Lower(spec)
		require.NoError(t, err)
		compareLoops(t, spec, pr, pr.Initial, 4, false)
		depth := rapid.IntRange(1, 4).Draw(t, "refDepth")
		out, _ := plantest.Plan(searcher(pr, 0, nil, false), pr.Goals, pr.Initial, depth)
		checkAgainstReference(t, pr, pr.Goals[0], pr.Initial, depth, nil, out, fmt.Sprintf("depth %d, actions %+v", depth, spec.Actions))
	})
}

// graphSpec draws a big domain: a location among 12 places and n moves
// (n from 250 to 300, so action indexes pass the 255 a one-byte path key
// holds), each from one place to another at a cost of 1 to 4, now and
// then one that needs a key or takes it; the goal is a place, with the
// key or not.
func graphSpec(t *rapid.T) plantest.Spec {
	place := func(label string) string {
		return strconv.Quote("p" + strconv.Itoa(rapid.IntRange(0, 11).Draw(t, label)))
	}
	n := rapid.IntRange(250, 300).Draw(t, "moves")
	var acts []plantest.Action
	for i := range n {
		a := plantest.Action{Name: "m" + strconv.Itoa(i), Pre: "loc == " + place("from"),
			Effects: "loc = " + place("to"), Cost: float64(rapid.IntRange(1, 4).Draw(t, "cost"))}
		switch rapid.IntRange(0, 9).Draw(t, "key") {
		case 0:
			a.Pre += " && key"
		case 1:
			a.Effects += ", key = true"
		}
		acts = append(acts, a)
	}
	goal := "loc == " + place("goal")
	if rapid.Bool().Draw(t, "needsKey") {
		goal += " && key"
	}
	return plantest.Spec{Name: "G", State: []plantest.Var{{Name: "loc", Value: expr.StringValue("p0")}, {Name: "key", Value: expr.BoolValue(false)}},
		Goals: []plantest.Goal{{Name: "g", Condition: goal, Priority: plantest.Normal}}, Actions: acts}
}

// TestBigDomainsFindTheReferencePlan: domains of 250 to 300 actions
// (graphSpec) plan as the reference search within depth limits of 1 to
// 3, in both loops alike, with left-out actions, budgets and slices.
func TestBigDomainsFindTheReferencePlan(t *testing.T) {
	skipUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		spec := graphSpec(t)
		pr, err := plantest.Lower(spec)
		require.NoError(t, err)
		compareLoops(t, spec, pr, pr.Initial, 3, false)
		depth := rapid.IntRange(1, 3).Draw(t, "refDepth")
		out, _ := plantest.Plan(searcher(pr, 0, nil, false), pr.Goals, pr.Initial, depth)
		checkAgainstReference(t, pr, pr.Goals[0], pr.Initial, depth, nil, out, fmt.Sprintf("depth %d, goal %q", depth, spec.Goals[0].Condition))
	})
}

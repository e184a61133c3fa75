package goap_test

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

var update = flag.Bool("update", false, "rewrite testdata/searches.golden")

// goldenFamilies are the domains of the golden searches: each family's
// first count examples, planned within each depth limit.
var goldenFamilies = []struct {
	name    string
	example func(i int) plantest.Spec
	count   int
	depths  []int
}{
	{"prop", drawn(plantest.Prop), 60, []int{2, 4}},
	{"words", drawn(plantest.Words), 60, []int{3, 12}},
	{"small", drawn(plantest.Small), 60, []int{3, 12}},
	{"smalledge", drawn(plantest.SmallEdge), 40, []int{1, 2}},
	{"edge", drawn(plantest.Edge), 40, []int{2, 8}},
	{"relaxed", drawn(plantest.Relaxed), 40, []int{3, 32}},
	{"bools", drawn(plantest.Bools), 60, []int{2, 5}},
	{"graph", drawn(graphSpec), 10, []int{2, 3}},
	{"indexed", drawn(plantest.Indexed), 40, []int{2, 5}},
	{"cases", func(i int) plantest.Spec { return goldenCases[i] }, len(goldenCases), []int{3, 16}},
	// Searches exactly at their depth limit (see limitCases).
	{"limit", func(i int) plantest.Spec { return limitCases[i] }, len(limitCases), []int{12, 16}},
	// The deepest limit there is: a plan of 300 steps is beyond it.
	{"deep", func(int) plantest.Spec {
		return numbers("deep", "n >= 300", 0, plantest.Action{Name: "up", Effects: "n = n + 1"})
	}, 1, []int{goap.MaxMaxDepth}},
}

// drawn gives the examples of a rapid generator: example i is rapid's
// Example with seed i.
func drawn(draw func(*rapid.T) plantest.Spec) func(int) plantest.Spec {
	gen := rapid.Custom(draw)
	return func(i int) plantest.Spec { return gen.Example(i) }
}

// goldenCases are hand-written domains of shapes the drawn ones rarely
// take, each for a rule of the search named in its comment.
var goldenCases = []plantest.Spec{
	// An effect that assigns the goal's number twice (the second wins):
	// the number's estimate leaves such an action out of its steps.
	numbers("twice", "n >= 10", 0,
		plantest.Action{Name: "jump", Effects: "n = n + 9, n = n + 1"},
		plantest.Action{Name: "up", Effects: "n = n + 2", Cost: 2}),
	// A strict bound at 2^50, the largest number the estimate counts
	// steps to exactly: from 2^50 - 4 by steps of 2, three steps.
	numbers("strict2^50", "n > 1125899906842624", 1125899906842620,
		plantest.Action{Name: "up2", Effects: "n = n + 2"},
		plantest.Action{Name: "up1", Effects: "n = n + 1", Cost: 2}),
	numbers("le2^50", "n >= 1125899906842624", 1125899906842620,
		plantest.Action{Name: "up2", Effects: "n = n + 2"},
		plantest.Action{Name: "up1", Effects: "n = n + 1", Cost: 2}),
	// A need of exactly 2^50 in steps of 2^30 (counted in floats), and a
	// need of whole steps from a fraction (counted in floats, kept below
	// the exact count).
	numbers("need2^50", "n > 1125899906842623", -1,
		plantest.Action{Name: "jump", Effects: "n = n + 1073741824"}),
	numbers("fraction", "n >= 10.5", 0.5,
		plantest.Action{Name: "up", Effects: "n = n + 1"}),
	numbers("fraction strict", "n > 10.5", 0.5,
		plantest.Action{Name: "up", Effects: "n = n + 1"}),
	numbers("fraction down", "n <= -9.5", 0.5,
		plantest.Action{Name: "down", Effects: "n = n - 0.5"}),
	// Eight actions and more: the search indexes them by the location
	// they test for equality; "loc != ..." tests, a number compared for
	// equality and a second string variable are not filed under the
	// location.
	spec("index not-equal", []plantest.Var{{Name: "loc", Value: expr.StringValue("a")}, {Name: "key", Value: expr.BoolValue(false)}},
		`loc == "d" && key`,
		plantest.Action{Name: "toB", Pre: `loc == "a"`, Effects: `loc = "b"`},
		plantest.Action{Name: "toC", Pre: `loc == "b"`, Effects: `loc = "c"`},
		plantest.Action{Name: "grab", Pre: `loc != "a"`, Effects: "key = true"},
		plantest.Action{Name: "toD", Pre: `loc == "c"`, Effects: `loc = "d"`},
		plantest.Action{Name: "toA", Pre: `loc == "d"`, Effects: `loc = "a"`},
		plantest.Action{Name: "fromC", Pre: `loc == "c"`, Effects: `loc = "a"`},
		plantest.Action{Name: "wander", Pre: `loc != "d"`, Effects: `loc = "d"`, Cost: 5},
		plantest.Action{Name: "drop", Pre: "key", Effects: "key = false"}),
	spec("index numbers", []plantest.Var{{Name: "n", Value: expr.NumberValue(0)}, {Name: "loc", Value: expr.StringValue("a")}},
		`n >= 8 && loc == "b"`,
		plantest.Action{Name: "s0", Pre: "n == 0", Effects: "n = 1"},
		plantest.Action{Name: "s1", Pre: "n == 1", Effects: "n = 2"},
		plantest.Action{Name: "s2", Pre: "n == 2", Effects: "n = 3"},
		plantest.Action{Name: "s3", Pre: "n == 3", Effects: "n = 4"},
		plantest.Action{Name: "s4", Pre: "n == 4", Effects: "n = 5"},
		plantest.Action{Name: "s5", Pre: "n == 5", Effects: "n = 6"},
		plantest.Action{Name: "s6", Pre: "n == 6", Effects: "n = 7"},
		plantest.Action{Name: "s7", Pre: "n == 7", Effects: "n = 8"},
		plantest.Action{Name: "go", Pre: `loc == "a"`, Effects: `loc = "b"`}),
	spec("index two strings", []plantest.Var{{Name: "room", Value: expr.StringValue("r1")}, {Name: "loc", Value: expr.StringValue("a")}, {Name: "key", Value: expr.BoolValue(false)}},
		`loc == "d" && key`,
		plantest.Action{Name: "toB", Pre: `loc == "a"`, Effects: `loc = "b"`},
		plantest.Action{Name: "toC", Pre: `loc == "b"`, Effects: `loc = "c"`},
		plantest.Action{Name: "toD", Pre: `loc == "c"`, Effects: `loc = "d"`},
		plantest.Action{Name: "toA", Pre: `loc == "d"`, Effects: `loc = "a"`},
		plantest.Action{Name: "grab", Pre: `room == "r1" && loc == "b"`, Effects: "key = true"},
		plantest.Action{Name: "leave", Pre: `room == "r1" && loc == "c"`, Effects: `room = "r2"`},
		plantest.Action{Name: "back", Pre: `room == "r2" && loc == "a"`, Effects: `room = "r1"`},
		plantest.Action{Name: "jump", Pre: `loc == "a"`, Effects: `loc = "d"`, Cost: 4}),
	// Goals no action can move toward (a dead end at the start): a number
	// whose movers use up a resource nothing restores, a number moved
	// only the other way, a condition that is false whatever the state.
	spec("dead end resource", []plantest.Var{{Name: "bread", Value: expr.NumberValue(0)}, {Name: "wheat", Value: expr.NumberValue(2)}},
		"bread > 5",
		plantest.Action{Name: "Bake", Pre: "wheat > 0", Effects: "bread = bread + 1, wheat = wheat - 1"},
		plantest.Action{Name: "Knead", Pre: "wheat > 0", Effects: "bread = bread + 2, wheat = wheat - 1", Cost: 3}),
	numbers("dead end other way", "n > 5", 0, plantest.Action{Name: "Spend", Effects: "n = n - 1"}),
	spec("dead end false", []plantest.Var{{Name: "flag", Value: expr.BoolValue(false)}},
		"flag && false", plantest.Action{Name: "set", Effects: "flag = true"}),
	// An action with no effects that fulfills the goal: the plan is
	// that one step.
	spec("fulfilled", []plantest.Var{{Name: "done", Value: expr.BoolValue(false)}, {Name: "n", Value: expr.NumberValue(0)}},
		"done && n > 2",
		plantest.Action{Name: "up", Effects: "n = n + 1"},
		plantest.Action{Name: "finish", Pre: "n > 1", Fulfills: []string{"g"}, Cost: 2}),
	// Variables the search compares by kind only: z and w are operands
	// of an addition that needs them to be numbers, not what the goal
	// reads; a literal, a copy and a sum make them numbers.
	spec("kinds", []plantest.Var{{Name: "n", Value: expr.NumberValue(0)}, {Name: "z", Value: expr.StringValue("t")},
		{Name: "w", Value: expr.StringValue("s")}, {Name: "v", Value: expr.NumberValue(3)}},
		"n >= 2",
		plantest.Action{Name: "A", Effects: "n = n + 1, z = z + w"},
		plantest.Action{Name: "B", Effects: "w = 5"},
		plantest.Action{Name: "E", Effects: "z = w + 1", Cost: 3},
		plantest.Action{Name: "F", Effects: "z = v"},
		plantest.Action{Name: "G", Effects: "w = v + 1", Cost: 2}),
	// A number set from another plus a constant, and from itself plus 0.
	spec("offset", []plantest.Var{{Name: "n", Value: expr.NumberValue(3)}, {Name: "m", Value: expr.NumberValue(4)}},
		"n >= 5",
		plantest.Action{Name: "still", Effects: "n = n + 0"},
		plantest.Action{Name: "copy", Effects: "n = m + 1", Cost: 2},
		plantest.Action{Name: "up", Effects: "n = n + 1"}),
	// Plans of equal cost: the first in declaration order wins, a shorter
	// one before a longer one that it is a prefix of.
	spec("ties", []plantest.Var{{Name: "n", Value: expr.NumberValue(0)}, {Name: "tag", Value: expr.NumberValue(0)}}, "n >= 2 && tag >= 0",
		plantest.Action{Name: "two", Effects: "n = n + 2, tag = 1", Cost: 2},
		plantest.Action{Name: "one", Effects: "n = n + 1"}),
	spec("ties reversed", []plantest.Var{{Name: "n", Value: expr.NumberValue(0)}, {Name: "tag", Value: expr.NumberValue(0)}}, "n >= 2 && tag >= 0",
		plantest.Action{Name: "one", Effects: "n = n + 1"},
		plantest.Action{Name: "two", Effects: "n = n + 2, tag = 1", Cost: 2}),
	// The forage domain: the movers of food need tired under a bound that
	// they push, so sleeps (restorers) must come between (the resource
	// estimate); upward, downward, with the bound the other way round,
	// loose or strict, and without a restorer.
	forage("forage up", "food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
	forage("forage down", "food < -80", "tired < 50", "food = food - 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food + 5"),
	forage("forage flipped", "food >= 80", "tired >= -50", "food = food + 10, tired = tired - 20", "tired < -30", "tired = tired + 50", "food = food - 5"),
	forage("forage loose", "food <= -80", "tired <= 50", "food = food - 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food + 5"),
	forage("forage no sleep", "food > 30", "tired < 50", "food = food + 10, tired = tired + 20", "false", "tired = tired - 50", "food = food - 5"),
	forage("forage small sleep", "food > 60", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 10", "tired = tired - 15", "food = food - 5"),
	// So many forages that the steps they and their sleeps take pass
	// 2^31 - 1; a Forage that costs 3.
	forage("forage huge", "food > 20000000000", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
	withCost(forage("forage costly", "food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"), 1, 3),
	// A Forage that pushes tired twice (the second wins), and an idle
	// action that moves food by 0.
	forage("forage twice", "food > 80", "tired < 50", "food = food + 10, tired = tired + 20, tired = tired + 45", "tired > 30", "tired = tired - 50", "food = food - 5"),
	withAction(forage("forage idle", "food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
		plantest.Action{Name: "Idle", Effects: "food = food + 0"}),
	// Two restorers of different costs; a second mover that leaves the
	// resource alone; sleeps of 20 toward a bound of 60 that they divide.
	withAction(forage("forage two sleeps", "food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
		plantest.Action{Name: "Nap", Pre: "tired > 10", Effects: "tired = tired - 50", Cost: 1}),
	withAction(forage("forage gather", "food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
		plantest.Action{Name: "Gather", Pre: "tired < 50", Effects: "food = food + 5", Cost: 4}),
	forage("forage divides", "food > 80", "tired < 60", "food = food + 10, tired = tired + 20", "tired > 10", "tired = tired - 20", "food = food - 5"),
	forage("forage divides loose", "food > 80", "tired <= 60", "food = food + 10, tired = tired + 20", "tired > 10", "tired = tired - 20", "food = food - 5"),
	forage("forage eats", "food < -80", "tired < 50", "food = food - 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
	// One forage from tired = 2^49 under the bound tired < -2^49 needs
	// exactly 2^50 of the sleeps' pulls of 1: the first need counted in
	// floats (kept below the exact 2^50 + 1 sleeps), not in integers.
	spec("forage need 2^50", []plantest.Var{{Name: "food", Value: expr.NumberValue(0)}, {Name: "tired", Value: expr.NumberValue(562949953421312)}},
		"food > 5",
		plantest.Action{Name: "Forage", Pre: "tired < -562949953421312", Effects: "food = food + 10, tired = tired + 20"},
		plantest.Action{Name: "Sleep", Effects: "tired = tired - 1", Cost: 2}),
}

// limitCases are searched within 12 steps, where the estimate of the
// start counts 12 but the plan takes 13: every child of the start is cut
// by its estimated steps, and only as many states as that allows are
// expanded; and within 16, where the plan fits.
var limitCases = []plantest.Spec{
	// The forage domain whose Forage also needs a tool, fetched once: the
	// estimate counts the forages and the sleeps between them (9 and 3),
	// not the tool.
	withVar(withAction(forage("forage tool", "food > 80", "tired < 50 && tool", "food = food + 10, tired = tired + 20", "tired > 30", "tired = tired - 50", "food = food - 5"),
		plantest.Action{Name: "GetTool", Pre: "!tool", Effects: "tool = true"}), plantest.Var{Name: "tool", Value: expr.BoolValue(false)}),
	// Steps of 2 that cost 3 toward n >= 24 (12 steps), after a setup
	// that the estimate does not count, and a cheap step back.
	spec("steps and costs", []plantest.Var{{Name: "n", Value: expr.NumberValue(0)}, {Name: "ready", Value: expr.BoolValue(false)}},
		"n >= 24",
		plantest.Action{Name: "setup", Pre: "!ready", Effects: "ready = true"},
		plantest.Action{Name: "up2", Pre: "ready", Effects: "n = n + 2", Cost: 3},
		plantest.Action{Name: "down", Pre: "ready", Effects: "n = n - 1"}),
}

// withCost returns s with action i's cost c.
func withCost(s plantest.Spec, i int, c float64) plantest.Spec {
	s.Actions = append([]plantest.Action(nil), s.Actions...)
	s.Actions[i].Cost = c
	return s
}

// withVar returns s with v the last variable.
func withVar(s plantest.Spec, v plantest.Var) plantest.Spec {
	s.State = append(append([]plantest.Var(nil), s.State...), v)
	return s
}

// withAction returns s with a the last action.
func withAction(s plantest.Spec, a plantest.Action) plantest.Spec {
	s.Actions = append(append([]plantest.Action(nil), s.Actions...), a)
	return s
}

// forage is the forage domain: food and tired start at 0 (hunger at 80);
// Eat lowers hunger and changes food by eatEff, Forage (pre, eff) moves
// food, Sleep (sleepPre, sleepEff) moves tired back.
func forage(name, goal, pre, eff, sleepPre, sleepEff, eatEff string) plantest.Spec {
	return plantest.Spec{Name: name,
		State: []plantest.Var{{Name: "hunger", Value: expr.NumberValue(80)}, {Name: "food", Value: expr.NumberValue(0)}, {Name: "tired", Value: expr.NumberValue(0)}},
		Goals: []plantest.Goal{{Name: "g", Condition: goal, Priority: plantest.Normal}},
		Actions: []plantest.Action{
			{Name: "Eat", Pre: "food > 0", Effects: "hunger = hunger - 50, " + eatEff},
			{Name: "Forage", Pre: pre, Effects: eff},
			{Name: "Sleep", Pre: sleepPre, Effects: sleepEff, Cost: 2},
		}}
}

// spec is a domain of the variables, one goal and the actions.
func spec(name string, vars []plantest.Var, goal string, acts ...plantest.Action) plantest.Spec {
	return plantest.Spec{Name: name, State: vars, Goals: []plantest.Goal{{Name: "g", Condition: goal, Priority: plantest.Normal}}, Actions: acts}
}

// numbers is a domain of one number n starting at n0, one goal and the
// actions.
func numbers(name, goal string, n0 float64, acts ...plantest.Action) plantest.Spec {
	return plantest.Spec{Name: name, State: []plantest.Var{{Name: "n", Value: expr.NumberValue(n0)}},
		Goals: []plantest.Goal{{Name: "g", Condition: goal, Priority: plantest.Normal}}, Actions: acts}
}

// describe writes an outcome on one line.
func describe(o plantest.Outcome) string {
	if f := o.Failure; f != nil {
		return fmt.Sprintf("no plan for %s (%d expansions): reason %d, action %q, precondition %q, failure expansions %d, %q",
			o.Goal, o.Expansions, f.Reason, f.Action, f.Precondition, f.Expansions, f.Detail)
	}
	return fmt.Sprintf("%s, cost %s, %d expansions", strings.Join(o.Steps, " "), strconv.FormatFloat(o.Cost, 'g', -1, 64), o.Expansions)
}

// TestSearchesMatchTheGoldenFile plans fixed domains (goldenFamilies)
// within two depth limits, with a budget of 300 expansions (so that the
// deeper search behind MaxDepthExceeded stays short), of 7, and of 300
// with the first action left out, and requires of each search the plan,
// cost, expansions and failure (reason, action, precondition, detail)
// recorded in testdata/searches.golden, and the estimate of the first
// goal at the start: both loops alike, and the first goal time sliced by
// 2 expansions as unsliced, in as many calls. A change to the search's
// estimates that keeps its plans but expands other states shows here;
// refresh the file with -update after checking that the plans stay.
func TestSearchesMatchTheGoldenFile(t *testing.T) {
	skipUnderRace(t)
	var b strings.Builder
	for _, fam := range goldenFamilies {
		for i := range fam.count {
			spec := fam.example(i)
			name := fam.name + "/" + strconv.Itoa(i)
			pr, err := plantest.Lower(spec)
			if err != nil {
				fmt.Fprintf(&b, "%s: refused: %v\n", name, err)
				continue
			}
			goals := plantest.ByPriority(pr, spec)
			gs := searcher(pr, 0, nil, false).GoalSearch(pr.Goals[0])
			h, _ := searcher(pr, 0, nil, true).Heuristic(gs, pr.Initial)
			fmt.Fprintf(&b, "%s: estimate %s, word loop %v\n", name, strconv.FormatFloat(h, 'g', -1, 64), gs.HasWords())
			for _, depth := range fam.depths {
				for _, v := range []struct {
					label  string
					budget int
					skip   []bool
				}{{"", 300, nil}, {" budget 7", 7, nil}, {" without the first action", 300, append([]bool{true}, make([]bool, len(pr.Actions)-1)...)}} {
					gp, wp := searcher(pr, v.budget, v.skip, true), searcher(pr, v.budget, v.skip, false)
					want, _ := plantest.Plan(gp, goals, pr.Initial, depth)
					got, _ := plantest.Plan(wp, goals, pr.Initial, depth)
					line := fmt.Sprintf("%s depth %d%s", name, depth, v.label)
					require.Equal(t, want, got, "%s: the word loop gives the general loop", line)
					// A plan job slices the planning of one goal.
					first := pr.Goals[:1]
					want0, _ := plantest.Plan(gp, first, pr.Initial, depth)
					sliced, calls, ok := plantest.PlanSliced(searcher(pr, v.budget, v.skip, false), first, pr.Initial, depth, 2)
					require.True(t, ok, line)
					require.Equal(t, want0, sliced, "%s: the first goal sliced by 2", line)
					_, generalCalls, _ := plantest.PlanSliced(searcher(pr, v.budget, v.skip, true), first, pr.Initial, depth, 2)
					require.Equal(t, generalCalls, calls, "%s: calls sliced by 2", line)
					fmt.Fprintf(&b, "%s: %s; the first goal sliced by 2 in %d calls\n", line, describe(want), calls)
				}
			}
		}
	}
	const path = "testdata/searches.golden"
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	golden, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to write it")
	wantLines, gotLines := strings.Split(string(golden), "\n"), strings.Split(b.String(), "\n")
	for i := range min(len(wantLines), len(gotLines)) {
		if wantLines[i] != gotLines[i] {
			assert.Equal(t, wantLines[i], gotLines[i], "line %d of %s", i+1, path)
			return
		}
	}
	assert.Equal(t, len(wantLines), len(gotLines), "lines in %s", path)
}

package engine

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
)

// smallDomain draws a random domain whose rows fit a few words: at most
// 4 variables (two numbers, a boolean, a string location), goals of one
// test, preconditions of up to 2 tests, effects that assign literals or
// add a step; up to 6 actions, some fulfilling the first goal or not
// rerunnable; now and then a second goal. The soldier and the forage
// domain have this shape.
func smallDomain(t *rapid.T) RoleSpec {
	locs := []string{"a", "b", "c"}
	state := []Var{
		{"n0", expr.NumberValue(float64(rapid.IntRange(-2, 4).Draw(t, "n0")))},
		{"n1", expr.NumberValue(float64(rapid.IntRange(0, 60).Draw(t, "n1")))},
		{"b0", expr.BoolValue(rapid.Bool().Draw(t, "b0"))},
		{"loc", expr.StringValue(rapid.SampledFrom(locs).Draw(t, "loc"))},
	}
	test := func(label string) string {
		switch rapid.IntRange(0, 4).Draw(t, label+"shape") {
		case 0:
			return rapid.SampledFrom([]string{"b0", "!b0", "b0 == false", "n0 == \"a\""}).Draw(t, label+"b")
		case 1:
			return "loc == " + strconv.Quote(rapid.SampledFrom(append(locs, "z")).Draw(t, label+"s"))
		default:
			v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, label+"v")
			op := rapid.SampledFrom([]string{">", ">=", "<", "<=", "==", "!="}).Draw(t, label+"op")
			return v + " " + op + " " + strconv.Itoa(rapid.IntRange(-2, 60).Draw(t, label+"c"))
		}
	}
	var actions []ActionSpec
	for i := range rapid.IntRange(1, 6).Draw(t, "actions") {
		seen := map[string]bool{}
		var effs []string
		for range rapid.IntRange(1, 2).Draw(t, "effects") {
			var e string
			switch rapid.IntRange(0, 5).Draw(t, "effect") {
			case 0:
				e = "b0 = " + strconv.FormatBool(rapid.Bool().Draw(t, "bval"))
			case 1:
				e = "loc = " + strconv.Quote(rapid.SampledFrom(append(locs, "d")).Draw(t, "to"))
			case 2:
				e = rapid.SampledFrom([]string{"n0 = 3", "n1 = 0", "n1 = 30"}).Draw(t, "lit")
			default:
				v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, "nv")
				k := rapid.SampledFrom([]string{"1", "2", "20", "50", "0"}).Draw(t, "k")
				e = v + " = " + v + rapid.SampledFrom([]string{" + ", " - "}).Draw(t, "sign") + k
			}
			target, _, _ := strings.Cut(e, " ")
			if seen[target] {
				continue
			}
			seen[target] = true
			effs = append(effs, e)
		}
		pre := make([]string, rapid.IntRange(0, 2).Draw(t, "pren"))
		for j := range pre {
			pre[j] = test("pre")
		}
		b := NewAction("a" + strconv.Itoa(i)).Pre(strings.Join(pre, " && ")).Effects(strings.Join(effs, ", ")).
			Cost(float64(rapid.IntRange(1, 3).Draw(t, "cost")))
		if rapid.IntRange(0, 4).Draw(t, "fulfills") == 0 {
			b.Fulfills("g0")
		}
		if rapid.IntRange(0, 7).Draw(t, "once") == 0 {
			b.NoRerun()
		}
		actions = append(actions, b.Spec())
	}
	goals := []GoalSpec{NewGoal("g0", test("goal"), High)}
	if rapid.IntRange(0, 3).Draw(t, "second") == 0 {
		goals = append(goals, NewGoal("g1", test("goal1"), Normal))
	}
	return RoleSpec{Name: "T", State: state, Goals: goals, Actions: actions}
}

// TestSmallWordSearchGivesTheGeneralSearch is
// TestWordSearchGivesTheGeneralSearch on small domains (smallDomain): the
// same plan, cost, expansions and error as the general search, for Plan
// (twice, warm), PlanFor and time-sliced, with actions backed off or
// forbidden and small budgets.
func TestSmallWordSearchGivesTheGeneralSearch(t *testing.T) {
	words, general := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := smallDomain(t)
		d, err := Compile(spec)
		if err != nil {
			t.Skip(err.Error()) // a shape the language refuses
		}
		compareWithGeneral(t, d, spec, func(wp *Planner) {
			if gs := wp.searchGoal(d.Goals[0]); gs.HasWords() {
				words++
			} else {
				general++
			}
		})
	})
	t.Logf("word search %d, general %d", words, general)
	assert.Greater(t, words, general, "most of these domains must run the word search")
}

// TestWordSearchTakesSoldierAndDeep: the goals of the soldier and of the
// forage domain take the word search.
func TestWordSearchTakesSoldierAndDeep(t *testing.T) {
	takesWords := func(state []Var, goal string, acts ...ActionSpec) bool {
		d, err := Compile(RoleSpec{Name: "T", State: state, Goals: []GoalSpec{NewGoal("g", goal, Normal)}, Actions: acts})
		require.NoError(t, err)
		return NewPlanner(d).searchGoal(d.Goals[0]).HasWords()
	}
	soldier := []Var{{"ammo", expr.NumberValue(0)}, {"magazines", expr.NumberValue(0)}}
	fetch := NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec()
	reload := NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("g").Spec()
	assert.True(t, takesWords(soldier, "ammo > 10", fetch, reload), "soldier")
	assert.True(t, takesWords([]Var{{"hunger", expr.NumberValue(80)}, {"food", expr.NumberValue(0)}, {"tired", expr.NumberValue(0)}}, "food > 80",
		NewAction("Eat").Pre("food > 0").Effects("hunger = hunger - 50, food = food - 5").Spec(),
		NewAction("Forage").Pre("tired < 50").Effects("tired = tired + 20, food = food + 10, hunger = hunger + 5").Spec(),
		NewAction("Sleep").Pre("tired > 30").Effects("tired = tired - 50").Spec()), "deep")
}

// smallEdgeDomain draws small domains at the word search's edges: 1 to 8
// number variables of wide or narrow ranges (so rows of 1 to 5 words), 1
// to 3 or 60 to 67 actions (around a candidate word's 64), costs of 0,
// fractions and large ones, once actions, one goal conjunct.
func smallEdgeDomain(t *rapid.T) RoleSpec {
	nv := rapid.IntRange(1, 8).Draw(t, "vars")
	var state []Var
	for i := range nv {
		state = append(state, Var{"v" + strconv.Itoa(i), expr.NumberValue(rapid.SampledFrom([]float64{0, 1, 5, 1000, 100000, 1 << 40}).Draw(t, "start"))})
	}
	v := func(label string) string { return "v" + strconv.Itoa(rapid.IntRange(0, nv-1).Draw(t, label)) }
	var n int
	if rapid.Bool().Draw(t, "many") {
		n = rapid.IntRange(60, 67).Draw(t, "n")
	} else {
		n = rapid.IntRange(1, 3).Draw(t, "n")
	}
	costs := []float64{0, 0, 0.5, 1, 1, 2.25, 7, 1e6}
	var actions []ActionSpec
	for i := range n {
		b := NewAction("a" + strconv.Itoa(i))
		target := v("target")
		k := rapid.SampledFrom([]string{"1", "2", "-1", "1000", "0"}).Draw(t, "k")
		b.Effects(target + " = " + target + " + " + k)
		if rapid.IntRange(0, 2).Draw(t, "haspre") == 0 {
			b.Pre(v("prev") + " " + rapid.SampledFrom([]string{"<", ">=", "!="}).Draw(t, "preop") + " " + strconv.Itoa(rapid.IntRange(0, 8).Draw(t, "prec")))
		}
		b.Cost(rapid.SampledFrom(costs).Draw(t, "cost"))
		if rapid.IntRange(0, 4).Draw(t, "once") == 0 {
			b.NoRerun()
		}
		actions = append(actions, b.Spec())
	}
	goal := v("goal") + " " + rapid.SampledFrom([]string{">=", ">", "==", "<"}).Draw(t, "gop") + " " + strconv.Itoa(rapid.IntRange(-1, 6).Draw(t, "gc"))
	return RoleSpec{Name: "E", State: state, Goals: []GoalSpec{NewGoal("g", goal, High)}, Actions: actions}
}

// TestSmallWordSearchAtItsEdges: on small domains at its edges, the word
// search gives the general search's plan, cost, expansions and error for
// Plan, PlanFor, sliced, with depth limits of 1 to 4 and budgets of 1 to
// 3 expansions, and with plain Plan calls between a sliced job's slices
// on one Planner.
func TestSmallWordSearchAtItsEdges(t *testing.T) {
	words, general := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := smallEdgeDomain(t)
		d, err := Compile(spec)
		require.NoError(t, err)
		st := d.NewState()
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		if len(spec.Actions) > 3 {
			depth = min(depth, 2) // 60 actions 3 deep is 200,000 nodes
		}
		budget := rapid.SampledFrom([]int{0, 1, 2, 3}).Draw(t, "budget")
		mk := func(generalOnly bool) *Planner {
			p := depthPlanner(d, depth)
			p.Budget, p.s.GeneralOnly = budget, generalOnly
			return p
		}
		gp, wp := mk(true), mk(false)
		if gs := wp.searchGoal(d.Goals[0]); gs.HasWords() {
			words++
		} else {
			general++
		}
		desc := fmt.Sprintf("depth %d budget %d start %v goal %+v actions %+v", depth, budget, st, spec.Goals, spec.Actions)
		want := outcomeOf(gp.Plan(st))
		require.Equal(t, want, outcomeOf(wp.Plan(st)), desc)
		require.Equal(t, want, outcomeOf(wp.Plan(st)), "again: %s", desc)
		want0 := outcomeOf(gp.PlanFor(d.Goals[0], st))
		require.Equal(t, want0, outcomeOf(wp.PlanFor(d.Goals[0], st)), "PlanFor: %s", desc)
		slice := rapid.IntRange(1, 3).Draw(t, "slice")
		// rounds runs a sliced job of slice expansions a round on p,
		// calling between for each paused round, for at most limit rounds.
		rounds := func(p *Planner, limit int, between func()) (planOutcome, int, *goap.Slice) {
			sl := &goap.Slice{}
			for r := 1; r <= limit; r++ {
				sl.SetLeft(slice)
				p.s.Slice = sl
				pl, err := p.PlanFor(d.Goals[0], st)
				p.s.Slice = nil
				if err != errSearchPaused {
					return outcomeOf(pl, err), r, sl
				}
				between()
			}
			return planOutcome{}, limit + 1, sl
		}
		plain, n, _ := rounds(mk(false), 400, func() {})
		if n > 400 {
			return // too long a job to run twice more
		}
		require.Equal(t, want0, plain, "sliced by %d: %s", slice, desc)

		// The sliced job with plain Plan calls of another planner of the
		// domain between its rounds, from the start state and from one
		// changed (a world's job borrows a planner of its own; they share
		// the domain's compiled searches): each Plan answers as the
		// general search and the job as unsliced, in as many rounds. (Plan
		// calls on the job's own planner between its rounds would reuse
		// the held search's arena, general and word search alike; no
		// caller does that.)
		st2 := st.Clone()
		st2[0] = expr.NumberValue(3)
		want2 := outcomeOf(gp.Plan(st2))
		other := mk(false)
		got, m, _ := rounds(mk(false), n, func() {
			require.Equal(t, want, outcomeOf(other.Plan(st)), "plain Plan between rounds: %s", desc)
			require.Equal(t, want2, outcomeOf(other.Plan(st2)), "plain Plan from %v between rounds: %s", st2, desc)
		})
		require.Equal(t, n, m, "rounds: %s", desc)
		require.Equal(t, want0, got, "sliced by %d with Plan between: %s", slice, desc)
	})
	t.Logf("word search %d, general %d", words, general)
	assert.Greater(t, words, 0, "some domains must run the word search")
}

package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// tinyDomain draws a random domain of the tiny word search's shape (see
// planner_tiny.go): at most 4 variables (two numbers, a boolean, a string
// location), goals of one test, preconditions of up to 2 tests, effects
// that assign literals or add a step; up to 6 actions, some fulfilling
// the first goal or not rerunnable; now and then a second goal.
func tinyDomain(t *rapid.T) RoleSpec {
	locs := []string{"a", "b", "c"}
	state := []Var{
		{"n0", NumberValue(float64(rapid.IntRange(-2, 4).Draw(t, "n0")))},
		{"n1", NumberValue(float64(rapid.IntRange(0, 60).Draw(t, "n1")))},
		{"b0", BoolValue(rapid.Bool().Draw(t, "b0"))},
		{"loc", StringValue(rapid.SampledFrom(locs).Draw(t, "loc"))},
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

// TestTinySearchGivesTheGeneralSearch is TestWordSearchGivesTheGeneralSearch
// on domains of the tiny search's shape: the same plan, cost, expansions
// and error as the general search, for Plan (twice, warm), PlanFor and
// time-sliced, with actions backed off or forbidden and small budgets.
func TestTinySearchGivesTheGeneralSearch(t *testing.T) {
	tiny, other := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		spec := tinyDomain(t)
		d, err := Compile(spec)
		if err != nil {
			t.Skip(err.Error()) // a shape the language refuses
		}
		compareWithGeneral(t, d, spec, func(wp *Planner) {
			if gs := wp.searchGoal(d.Goals[0]); gs.words != nil && gs.words.tiny != nil {
				tiny++
			} else {
				other++
			}
		})
	})
	t.Logf("tiny %d, other %d", tiny, other)
	assert.Greater(t, tiny, other, "most of these domains must run the tiny search")
}

// TestTinySearchTakesSoldierAndDeep checks which goals take the tiny
// search: the seed's soldier and the forage domain do; a goal of two
// conjuncts, an effect copying another variable, or more than 4 words do
// not.
func TestTinySearchTakesSoldierAndDeep(t *testing.T) {
	tinyOf := func(state []Var, goal string, acts ...ActionSpec) bool {
		d, err := Compile(RoleSpec{Name: "T", State: state, Goals: []GoalSpec{NewGoal("g", goal, Normal)}, Actions: acts})
		require.NoError(t, err)
		gs := NewPlanner(d).searchGoal(d.Goals[0])
		require.NotNil(t, gs.words, "a word search")
		return gs.words.tiny != nil
	}
	soldier := []Var{{"ammo", NumberValue(0)}, {"magazines", NumberValue(0)}}
	fetch := NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec()
	reload := NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("g").Spec()
	assert.True(t, tinyOf(soldier, "ammo > 10", fetch, reload), "soldier")
	assert.True(t, tinyOf([]Var{{"hunger", NumberValue(80)}, {"food", NumberValue(0)}, {"tired", NumberValue(0)}}, "food > 80",
		NewAction("Eat").Pre("food > 0").Effects("hunger = hunger - 50, food = food - 5").Spec(),
		NewAction("Forage").Pre("tired < 50").Effects("tired = tired + 20, food = food + 10, hunger = hunger + 5").Spec(),
		NewAction("Sleep").Pre("tired > 30").Effects("tired = tired - 50").Spec()), "deep")
	assert.False(t, tinyOf(soldier, "ammo > 10 && magazines > 1", fetch, reload), "two conjuncts")
	assert.False(t, tinyOf(soldier, "ammo > 10", fetch, reload,
		NewAction("swap").Effects("ammo = magazines").Spec()), "a copy")
	five := []Var{{"a", NumberValue(0)}, {"b", NumberValue(0)}, {"c", NumberValue(0)}, {"d", NumberValue(0)}, {"e", NumberValue(0)}}
	assert.False(t, tinyOf(five, "a > 4", NewAction("all").Pre("e < 3").Effects("a = a + 1, b = b + 1, c = c + 1, d = d + 1").Spec()), "5 words")
}

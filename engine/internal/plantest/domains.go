package plantest

import (
	"math"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Prop draws a tiny random domain: up to 2 bool and 2 small-int
// variables, 1 to 4 actions with random preconditions, effects and costs
// 1..3, and one goal "g".
func Prop(t *rapid.T) Spec {
	nb := rapid.IntRange(0, 2).Draw(t, "bools")
	ni := rapid.IntRange(0, 2).Draw(t, "ints")
	if nb+ni == 0 {
		nb = 1
	}
	var state []Var
	for i := 0; i < nb; i++ {
		state = append(state, Var{"b" + strconv.Itoa(i), expr.BoolValue(rapid.Bool().Draw(t, "b"))})
	}
	for i := 0; i < ni; i++ {
		state = append(state, Var{"n" + strconv.Itoa(i), expr.NumberValue(float64(rapid.IntRange(0, 3).Draw(t, "n")))})
	}
	atom := func(label string) string {
		if v := rapid.IntRange(0, nb+ni-1).Draw(t, label+"var"); v < nb {
			name := "b" + strconv.Itoa(v)
			if rapid.Bool().Draw(t, label+"neg") {
				return "!" + name
			}
			return name
		} else {
			name := "n" + strconv.Itoa(v-nb)
			op := rapid.SampledFrom([]string{">", ">=", "<", "<=", "==", "!="}).Draw(t, label+"op")
			return name + " " + op + " " + strconv.Itoa(rapid.IntRange(-1, 5).Draw(t, label+"c"))
		}
	}
	conj := func(label string, maxAtoms int) string {
		return conjunction(t, label, label+"atoms", 0, maxAtoms, atom)
	}
	goalCond := conj("goal", 2)
	if goalCond == "" {
		goalCond = atom("goal")
	}
	na := rapid.IntRange(1, 4).Draw(t, "actions")
	var actions []Action
	for i := 0; i < na; i++ {
		ne := rapid.IntRange(1, 2).Draw(t, "effects")
		var effs []string
		seen := map[string]bool{}
		for j := 0; j < ne; j++ {
			v := rapid.IntRange(0, nb+ni-1).Draw(t, "target")
			var e string
			if v < nb {
				name := "b" + strconv.Itoa(v)
				e = name + " = " + strconv.FormatBool(rapid.Bool().Draw(t, "bval"))
				if seen[name] {
					continue
				}
				seen[name] = true
			} else {
				name := "n" + strconv.Itoa(v-nb)
				if seen[name] {
					continue
				}
				seen[name] = true
				switch rapid.IntRange(0, 3).Draw(t, "kind") {
				case 0:
					e = name + " = " + name + " + 1"
				case 1:
					e = name + " = " + name + " - 1"
				case 2:
					e = name + " = " + name + " + 2"
				default:
					e = name + " = " + strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "nval"))
				}
			}
			effs = append(effs, e)
		}
		a := Action{Name: "a" + strconv.Itoa(i), Pre: conj("pre", 2), Effects: strings.Join(effs, ", "),
			Cost: float64(rapid.IntRange(1, 3).Draw(t, "cost"))}
		if rapid.IntRange(0, 4).Draw(t, "fulfills") == 0 {
			a.Fulfills = []string{"g"}
		}
		actions = append(actions, a)
	}
	return Spec{Name: "P", State: state, Goals: []Goal{{"g", goalCond, Normal}}, Actions: actions}
}

// Words draws a random domain of the shapes the word search takes (and
// some it does not): booleans, small integers and a string location;
// preconditions and goals of flat tests; effects that assign literals
// (now and then one of another kind, or a fraction), copy a variable, or
// add a step; up to 6 actions, up to 2 goals; now and then 14 more
// booleans in a chain of 13 actions, over the words one dense pass
// takes.
func Words(t *rapid.T) Spec {
	locs := []string{"a", "b", "c"}
	state := []Var{
		{"b0", expr.BoolValue(rapid.Bool().Draw(t, "b0"))},
		{"b1", expr.BoolValue(rapid.Bool().Draw(t, "b1"))},
		{"n0", expr.NumberValue(float64(rapid.IntRange(-2, 4).Draw(t, "n0")))},
		{"n1", expr.NumberValue(float64(rapid.IntRange(0, 60).Draw(t, "n1")))},
		{"loc", expr.StringValue(rapid.SampledFrom(locs).Draw(t, "loc"))},
	}
	test := func(label string) string {
		switch rapid.IntRange(0, 6).Draw(t, label+"shape") {
		case 0:
			return rapid.SampledFrom([]string{"b0", "b1", "!b0", "!b1"}).Draw(t, label+"b")
		case 1:
			return "loc == " + strconv.Quote(rapid.SampledFrom(append(locs, "z")).Draw(t, label+"s"))
		case 2:
			return rapid.SampledFrom([]string{"b0 == true", "b1 != false", "b0 == false", "loc != \"a\""}).Draw(t, label+"g")
		case 3:
			return rapid.SampledFrom([]string{"n0", "!n1", "loc", "n0 == \"a\""}).Draw(t, label+"odd")
		default:
			v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, label+"v")
			op := rapid.SampledFrom([]string{">", ">=", "<", "<=", "==", "!="}).Draw(t, label+"op")
			c := strconv.Itoa(rapid.IntRange(-2, 60).Draw(t, label+"c"))
			if rapid.IntRange(0, 5).Draw(t, label+"frac") == 0 {
				c += ".5"
			}
			return v + " " + op + " " + c
		}
	}
	conj := func(label string, lo, hi int) string {
		return conjunction(t, label, label+"n", lo, hi, test)
	}
	var actions []Action
	for i := range rapid.IntRange(1, 6).Draw(t, "actions") {
		seen := map[string]bool{}
		var effs []string
		for range rapid.IntRange(1, 3).Draw(t, "effects") {
			var e string
			switch rapid.IntRange(0, 9).Draw(t, "effect") {
			case 0, 1:
				v := rapid.SampledFrom([]string{"b0", "b1"}).Draw(t, "bv")
				e = v + " = " + strconv.FormatBool(rapid.Bool().Draw(t, "bval"))
			case 2:
				e = "loc = " + strconv.Quote(rapid.SampledFrom(append(locs, "d")).Draw(t, "to"))
			case 3:
				e = rapid.SampledFrom([]string{"b0 = b1", "n0 = n1", "b1 = b0", "n1 = n0"}).Draw(t, "copy")
			case 4:
				e = rapid.SampledFrom([]string{"n0 = 3", "n1 = 0", "b0 = 1", "n0 = 0.5", "loc = true"}).Draw(t, "lit")
			default:
				v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, "nv")
				k := rapid.SampledFrom([]string{"1", "2", "20", "50", "0"}).Draw(t, "k")
				if rapid.IntRange(0, 12).Draw(t, "kfrac") == 0 {
					k = "0.25"
				}
				e = v + " = " + v + rapid.SampledFrom([]string{" + ", " - "}).Draw(t, "sign") + k
			}
			target, _, _ := strings.Cut(e, " ")
			if seen[target] {
				continue
			}
			seen[target] = true
			effs = append(effs, e)
		}
		a := Action{Name: "a" + strconv.Itoa(i), Pre: conj("pre", 0, 2), Effects: strings.Join(effs, ", "),
			Cost: float64(rapid.IntRange(1, 3).Draw(t, "cost"))}
		if rapid.IntRange(0, 5).Draw(t, "fulfills") == 0 {
			a.Fulfills = []string{"g0"}
		}
		if rapid.IntRange(0, 7).Draw(t, "once") == 0 {
			a.NoRerun = true
		}
		actions = append(actions, a)
	}
	if rapid.Bool().Draw(t, "wide") {
		// 14 more booleans in a chain of actions: over maxDense words, so
		// the search runs assignment by assignment with the sum hash.
		for i := range 14 {
			state = append(state, Var{"x" + strconv.Itoa(i), expr.BoolValue(i == 0)})
		}
		for i := range 13 {
			x, y := "x"+strconv.Itoa(i), "x"+strconv.Itoa(i+1)
			actions = append(actions, Action{Name: "t" + strconv.Itoa(i), Pre: x, Effects: x + " = false, " + y + " = true"})
		}
		if rapid.Bool().Draw(t, "wideGoal") {
			return Spec{Name: "W", State: state, Actions: actions,
				Goals: []Goal{{"g0", "x" + strconv.Itoa(rapid.IntRange(1, 13).Draw(t, "xg")) + " && " + test("wg"), High}}}
		}
	}
	goals := []Goal{{"g0", conj("goal", 1, 2), High}}
	if rapid.Bool().Draw(t, "second") {
		goals = append(goals, Goal{"g1", conj("goal1", 1, 2), Normal})
	}
	return Spec{Name: "W", State: state, Goals: goals, Actions: actions}
}

// Small draws a random domain whose rows fit a few words: at most 4
// variables (two numbers, a boolean, a string location), goals of one
// test, preconditions of up to 2 tests, effects that assign literals or
// add a step; up to 6 actions, some fulfilling the first goal or not
// rerunnable; now and then a second goal. The soldier and the forage
// domain have this shape.
func Small(t *rapid.T) Spec {
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
	var actions []Action
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
		a := Action{Name: "a" + strconv.Itoa(i), Pre: strings.Join(pre, " && "), Effects: strings.Join(effs, ", "),
			Cost: float64(rapid.IntRange(1, 3).Draw(t, "cost"))}
		if rapid.IntRange(0, 4).Draw(t, "fulfills") == 0 {
			a.Fulfills = []string{"g0"}
		}
		if rapid.IntRange(0, 7).Draw(t, "once") == 0 {
			a.NoRerun = true
		}
		actions = append(actions, a)
	}
	goals := []Goal{{"g0", test("goal"), High}}
	if rapid.IntRange(0, 3).Draw(t, "second") == 0 {
		goals = append(goals, Goal{"g1", test("goal1"), Normal})
	}
	return Spec{Name: "T", State: state, Goals: goals, Actions: actions}
}

// SmallEdge draws small domains at the word search's edges: 1 to 8
// number variables of wide or narrow ranges (so rows of 1 to 5 words), 1
// to 3 or 60 to 67 actions (around a candidate word's 64), costs of 0,
// fractions and large ones, once actions, one goal conjunct.
func SmallEdge(t *rapid.T) Spec {
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
	var actions []Action
	for i := range n {
		a := Action{Name: "a" + strconv.Itoa(i)}
		target := v("target")
		k := rapid.SampledFrom([]string{"1", "2", "-1", "1000", "0"}).Draw(t, "k")
		a.Effects = target + " = " + target + " + " + k
		if rapid.IntRange(0, 2).Draw(t, "haspre") == 0 {
			a.Pre = v("prev") + " " + rapid.SampledFrom([]string{"<", ">=", "!="}).Draw(t, "preop") + " " + strconv.Itoa(rapid.IntRange(0, 8).Draw(t, "prec"))
		}
		a.Cost = rapid.SampledFrom(costs).Draw(t, "cost")
		if rapid.IntRange(0, 4).Draw(t, "once") == 0 {
			a.NoRerun = true
		}
		actions = append(actions, a)
	}
	goal := v("goal") + " " + rapid.SampledFrom([]string{">=", ">", "==", "<"}).Draw(t, "gop") + " " + strconv.Itoa(rapid.IntRange(-1, 6).Draw(t, "gc"))
	return Spec{Name: "E", State: state, Goals: []Goal{{"g", goal, High}}, Actions: actions}
}

// EdgeNumbers are start values, test constants and assigned literals at
// the word search's edges: its number bound (2^40), its step bound
// (2^30), 32-bit and float64-exact edges, -0 and their neighbours.
var EdgeNumbers = []float64{0, math.Copysign(0, -1), 1, -1, 3,
	1 << 30, 1<<30 + 1, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32,
	1<<40 - 1, 1 << 40, 1<<40 + 1, -(1 << 40), -(1 << 40) - 1,
	1 << 50, 1 << 53, 1<<53 + 2, -(1 << 53), 1 << 60, 1 << 62, 1 << 63, -(1 << 63), 1e300, 2.5, -0.5}

// edgeLit writes f as a literal of the expression language.
func edgeLit(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Edge draws a domain whose numbers sit at EdgeNumbers: huge and
// negative integers, steps at the step bound, copies between numbers,
// booleans compared as numbers, strings not in the domain's literals,
// copies across kinds and tests of one variable against another; up to
// 10 goals of any priority.
func Edge(t *rapid.T) Spec {
	num := func(label string) float64 { return rapid.SampledFrom(EdgeNumbers).Draw(t, label) }
	state := []Var{
		{"n0", expr.NumberValue(num("n0"))},
		{"n1", expr.NumberValue(num("n1"))},
		{"b0", expr.BoolValue(rapid.Bool().Draw(t, "b0"))},
		{"loc", expr.StringValue(rapid.SampledFrom([]string{"a", "b"}).Draw(t, "loc"))},
	}
	test := func(label string) string {
		switch rapid.IntRange(0, 4).Draw(t, label+"shape") {
		case 0:
			return rapid.SampledFrom([]string{"b0", "!b0", "b0 == 1", "b0 != 0", "n0 == true", "loc == \"zz\"", "loc != \"b\"", "loc == \"a\"", "n0 == n1", "n0 < n1", "b0 == n0", "loc == b0"}).Draw(t, label+"o")
		default:
			v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, label+"v")
			op := rapid.SampledFrom([]string{">", ">=", "<", "<=", "==", "!="}).Draw(t, label+"op")
			return v + " " + op + " " + edgeLit(num(label+"c"))
		}
	}
	conj := func(label string, lo, hi int) string {
		return conjunction(t, label, label+"n", lo, hi, test)
	}
	var actions []Action
	for i := range rapid.IntRange(1, 5).Draw(t, "actions") {
		seen := map[string]bool{}
		var effs []string
		for range rapid.IntRange(1, 2).Draw(t, "effects") {
			var e string
			switch rapid.IntRange(0, 5).Draw(t, "effect") {
			case 0:
				e = "b0 = " + strconv.FormatBool(rapid.Bool().Draw(t, "bval"))
			case 1:
				e = "loc = " + strconv.Quote(rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "to"))
			case 2:
				e = rapid.SampledFrom([]string{"n0 = n1", "n1 = n0", "n0 = b0", "b0 = n1", "loc = n0", "n1 = loc", "b0 = loc"}).Draw(t, "copy")
			case 3:
				v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, "lv")
				e = v + " = " + edgeLit(num("lit"))
			default:
				v := rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, "nv")
				k := rapid.SampledFrom([]float64{1, 1 << 29, 1 << 30, 1<<30 + 1, 1 << 39, 3}).Draw(t, "k")
				e = v + " = " + v + rapid.SampledFrom([]string{" + ", " - "}).Draw(t, "sign") + edgeLit(k)
			}
			target, _, _ := strings.Cut(e, " ")
			if seen[target] {
				continue
			}
			seen[target] = true
			effs = append(effs, e)
		}
		actions = append(actions, Action{Name: "a" + strconv.Itoa(i), Pre: conj("pre", 0, 2), Effects: strings.Join(effs, ", "),
			Cost: float64(rapid.IntRange(1, 3).Draw(t, "cost"))})
	}
	goals := []Goal{{"g0", conj("goal", 1, 2), High}}
	for i := 1; i < rapid.IntRange(1, 10).Draw(t, "goals"); i++ {
		pri := rapid.SampledFrom([]int{Low, Normal, High, Critical}).Draw(t, "pri")
		goals = append(goals, Goal{"g" + strconv.Itoa(i), conj("goal"+strconv.Itoa(i), 1, 2), pri})
	}
	return Spec{Name: "E", State: state, Goals: goals, Actions: actions}
}

// Indexed draws a graph of moves over string locations "a" to "d" (8 to
// 12 moves, so the search indexes its actions by the location they
// test) with some moves that do not test the location mixed in; the goal
// is a location with the key.
func Indexed(t *rapid.T) Spec {
	locs := []string{"a", "b", "c", "d"}
	var actions []Action
	n := rapid.IntRange(8, 12).Draw(t, "moves")
	for i := 0; i < n; i++ {
		from := rapid.SampledFrom(locs).Draw(t, "from")
		to := rapid.SampledFrom(locs).Draw(t, "to")
		a := Action{Name: "m" + strconv.Itoa(i), Cost: float64(rapid.IntRange(1, 3).Draw(t, "cost"))}
		switch rapid.IntRange(0, 3).Draw(t, "shape") {
		case 0: // no location test: lands in the unindexed list
			a.Pre, a.Effects = "key", `loc = "`+to+`"`
		case 1: // location test plus another
			a.Pre, a.Effects = `loc == "`+from+`" && !key`, `key = true, loc = "`+to+`"`
		default:
			a.Pre, a.Effects = `loc == "`+from+`"`, `loc = "`+to+`"`
		}
		actions = append(actions, a)
	}
	goal := rapid.SampledFrom(locs).Draw(t, "goal")
	return Spec{Name: "G", State: []Var{{"loc", expr.StringValue("a")}, {"key", expr.BoolValue(false)}},
		Goals: []Goal{{"g", `loc == "` + goal + `" && key`, Normal}}, Actions: actions}
}

// conjunction draws lo to hi (under the label count) tests made by atom
// with label, joined by &&: the empty condition when it draws 0.
func conjunction(t *rapid.T, label, count string, lo, hi int, atom func(label string) string) string {
	parts := make([]string, rapid.IntRange(lo, hi).Draw(t, count))
	for i := range parts {
		parts[i] = atom(label)
	}
	return strings.Join(parts, " && ")
}

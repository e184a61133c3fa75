package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// edgeNumbers are start values, test constants and assigned literals at
// the word search's edges: its number bound (2^40), its step bound
// (2^30), 32-bit and float64-exact edges, -0 and their neighbours.
var edgeNumbers = []float64{0, math.Copysign(0, -1), 1, -1, 3,
	1 << 30, 1<<30 + 1, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32,
	1<<40 - 1, 1 << 40, 1<<40 + 1, -(1 << 40), -(1 << 40) - 1,
	1 << 50, 1 << 53, 1<<53 + 2, -(1 << 53), 1 << 60, 1 << 62, 1 << 63, -(1 << 63), 1e300, 2.5, -0.5}

func edgeLit(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// edgeDomain draws a domain whose numbers sit at edgeNumbers: huge and
// negative integers, steps at the step bound, copies between numbers,
// booleans compared as numbers, strings not in the domain's literals,
// copies across kinds and tests of one variable against another;
// up to 10 goals of any priority.
func edgeDomain(t *rapid.T) RoleSpec {
	num := func(label string) float64 { return rapid.SampledFrom(edgeNumbers).Draw(t, label) }
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
		parts := make([]string, rapid.IntRange(lo, hi).Draw(t, label+"n"))
		for i := range parts {
			parts[i] = test(label)
		}
		return strings.Join(parts, " && ")
	}
	var actions []ActionSpec
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
		actions = append(actions, NewAction("a"+strconv.Itoa(i)).Pre(conj("pre", 0, 2)).Effects(strings.Join(effs, ", ")).
			Cost(float64(rapid.IntRange(1, 3).Draw(t, "cost"))).Spec())
	}
	goals := []GoalSpec{NewGoal("g0", conj("goal", 1, 2), High)}
	for i := 1; i < rapid.IntRange(1, 10).Draw(t, "goals"); i++ {
		pri := rapid.SampledFrom([]Priority{Low, Normal, High, Critical}).Draw(t, "pri")
		goals = append(goals, NewGoal("g"+strconv.Itoa(i), conj("goal"+strconv.Itoa(i), 1, 2), pri))
	}
	return RoleSpec{Name: "E", State: state, Goals: goals, Actions: actions}
}

// TestWordSearchAtTheEdges: domains whose numbers sit at the word search's
// bounds, and start states changed after compiling (a huge or fractional
// number, -0, a string the domain never names, another kind), plan
// exactly as the general search plans them.
func TestWordSearchAtTheEdges(t *testing.T) {
	words := 0
	// Most drawn starts send the search to the general one on purpose, so
	// only a few checks in 100 run a word search: draw again until some did
	// (about 2% of 100-check runs had none).
	for round := 0; words == 0 && round < 5; round++ {
		edgeRound(t, &words)
	}
	t.Logf("word search ran %d times", words)
	require.Greater(t, words, 0)
}

// edgeRound is one rapid run of TestWordSearchAtTheEdges, counting the
// plans that ran a word search in words.
func edgeRound(t *testing.T, words *int) {
	rapid.Check(t, func(t *rapid.T) {
		spec := edgeDomain(t)
		d, err := Compile(spec)
		if err != nil {
			t.Skip(err.Error())
		}
		st := d.NewState()
		switch rapid.IntRange(0, 4).Draw(t, "start") {
		case 0:
			st[0] = expr.NumberValue(rapid.SampledFrom(edgeNumbers).Draw(t, "s0"))
		case 1:
			st[3] = expr.StringValue(rapid.SampledFrom([]string{"zz", "q", "c"}).Draw(t, "s3"))
		case 2:
			st[1] = rapid.SampledFrom([]expr.Value{expr.BoolValue(true), expr.StringValue("a"), {}}).Draw(t, "s1")
		}
		depth := rapid.IntRange(1, 8).Draw(t, "depth")
		mk := func(generalOnly bool) *Planner {
			p := depthPlanner(d, depth)
			p.s.GeneralOnly = generalOnly
			return p
		}
		gp, wp := mk(true), mk(false)
		want := outcomeOf(gp.Plan(st))
		got := outcomeOf(wp.Plan(st))
		if wp.s.WordMode() {
			*words++
		}
		desc := fmt.Sprintf("start %v, goals %+v, actions %+v", st, spec.Goals, spec.Actions)
		require.Equal(t, want, got, desc)
		require.Equal(t, want, outcomeOf(wp.Plan(st)), "again: %s", desc)
		require.Equal(t, outcomeOf(gp.PlanFor(d.Goals[0], st)), outcomeOf(planSliced(mk(false), d.Goals[0], st, 2)), "sliced: %s", desc)
	})
}

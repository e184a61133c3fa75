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
)

// propDomain draws a tiny random domain: up to 2 bool and 2 small-int
// variables, 1 to 4 actions with random preconditions, effects and costs
// 1..3, and one goal.
func propDomain(t *rapid.T) RoleSpec {
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
		k := rapid.IntRange(0, maxAtoms).Draw(t, label+"atoms")
		parts := make([]string, k)
		for i := range parts {
			parts[i] = atom(label)
		}
		return strings.Join(parts, " && ")
	}
	goalCond := conj("goal", 2)
	if goalCond == "" {
		goalCond = atom("goal")
	}
	na := rapid.IntRange(1, 4).Draw(t, "actions")
	var actions []ActionSpec
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
		b := NewAction("a" + strconv.Itoa(i)).Pre(conj("pre", 2)).Effects(strings.Join(effs, ", ")).
			Cost(float64(rapid.IntRange(1, 3).Draw(t, "cost")))
		if rapid.IntRange(0, 4).Draw(t, "fulfills") == 0 {
			b.Fulfills("g")
		}
		actions = append(actions, b.Spec())
	}
	return RoleSpec{Name: "P", State: state, Goals: []GoalSpec{NewGoal("g", goalCond, Normal)}, Actions: actions}
}

// bruteForce returns the cheapest plan of at most depth steps that is valid
// and reaches the goal (its condition holds, or its last step fulfills the
// goal: see Goal.Candidate), the first in declaration order among the cheapest
// (depth-first search in declaration order visits plans in that order), and
// whether one exists.
func bruteForce(d *Domain, g *Goal, st expr.State, depth int) ([]int, float64, bool) {
	var best []int
	bestCost, ok := 0.0, false
	path := []int{}
	var walk func(st expr.State, cost float64)
	walk = func(st expr.State, cost float64) {
		done := g.Satisfied(st) || len(path) > 0 && d.Actions[path[len(path)-1]].Serves(g)
		if done && (!ok || cost < bestCost) {
			best, bestCost, ok = append([]int(nil), path...), cost, true
		}
		if len(path) == depth {
			return
		}
		for _, a := range d.Actions {
			if !a.Pre.Eval(st) {
				continue
			}
			next := st.Clone()
			if err := a.Effects.Apply(next, st); err != nil {
				continue
			}
			path = append(path, a.Index)
			walk(next, cost+a.Cost)
			path = path[:len(path)-1]
		}
	}
	walk(st, 0)
	return best, bestCost, ok
}

// checkValid replays a plan step by step.
func checkValid(t require.TestingT, g *Goal, st expr.State, steps []*Action) {
	st = st.Clone()
	for i, a := range steps {
		require.True(t, a.Pre.Eval(st), "step %d (%s): precondition %q fails in %v", i, a.Name, a.Pre.Source(), st)
		next := st.Clone()
		require.NoError(t, a.Effects.Apply(next, st), "step %d (%s)", i, a.Name)
		st = next
	}
	if len(steps) > 0 && steps[len(steps)-1].Serves(g) {
		return // the last step fulfills the goal: its body is trusted to make it hold
	}
	require.True(t, g.Satisfied(st), "the goal does not hold after the plan")
}

func TestPlannerProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := propDomain(t)
		d, err := Compile(spec)
		require.NoError(t, err)
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		g := d.Goals[0]
		st := d.NewState()
		p, err := depthPlanner(d, depth).PlanFor(g, st)
		want, wantCost, exists := bruteForce(d, g, st, depth)
		desc := fmt.Sprintf("goal %q, depth %d, actions %+v", g.Condition.Source(), depth, spec.Actions)
		if exists {
			require.NoError(t, err, desc)
			checkValid(t, g, st, p.Steps)
			var got []int
			for _, a := range p.Steps {
				got = append(got, a.Index)
			}
			require.Equal(t, wantCost, p.Cost, desc)
			if len(want) == 0 {
				require.Empty(t, got, desc)
			} else {
				require.Equal(t, want, got, "the cheapest plan, first in declaration order: %s", desc)
			}
			return
		}
		var pe *PlanError
		require.ErrorAs(t, err, &pe, "brute force finds no plan within depth: %s", desc)
		switch pe.Reason {
		case MaxDepthExceeded:
			var n int
			if _, scanErr := fmt.Sscanf(pe.Detail, "a plan of %d steps exists", &n); scanErr == nil {
				require.Greater(t, n, depth, desc)
				_, _, longer := bruteForce(d, g, st, n)
				require.True(t, longer, "the reported %d-step plan exists: %s", n, desc)
			}
		case Unreachable, CyclicPrecondition:
			_, _, deeper := bruteForce(d, g, st, depth+3)
			require.False(t, deeper, "%s claims no plan at any depth: %s", pe.Reason, desc)
		default:
			t.Fatalf("unexpected reason %s: %s", pe.Reason, desc)
		}
	})
}

func TestPlannerIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := propDomain(t)
		d, err := Compile(spec)
		require.NoError(t, err)
		p1, err1 := depthPlanner(d, 4).Plan(d.NewState())
		reused := depthPlanner(d, 4)
		_, _ = reused.Plan(d.NewState())
		p2, err2 := reused.Plan(d.NewState())
		if err1 != nil {
			assert.Equal(t, err1.Error(), err2.Error())
			return
		}
		require.NoError(t, err2)
		assert.Equal(t, p1.Names(), p2.Names())
	})
}

// TestPlannerIndexedProperties covers the precondition index: random move
// graphs over string locations (at least 8 moves, so the index is built),
// with some actions that do not test the location mixed in.
func TestPlannerIndexedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		locs := []string{"a", "b", "c", "d"}
		var actions []ActionSpec
		n := rapid.IntRange(8, 12).Draw(t, "moves")
		for i := 0; i < n; i++ {
			from := rapid.SampledFrom(locs).Draw(t, "from")
			to := rapid.SampledFrom(locs).Draw(t, "to")
			b := NewAction("m" + strconv.Itoa(i)).Cost(float64(rapid.IntRange(1, 3).Draw(t, "cost")))
			switch rapid.IntRange(0, 3).Draw(t, "shape") {
			case 0: // no location test: lands in the unindexed list
				b.Pre("key").Effects(`loc = "` + to + `"`)
			case 1: // location test plus another
				b.Pre(`loc == "` + from + `" && !key`).Effects(`key = true, loc = "` + to + `"`)
			default:
				b.Pre(`loc == "` + from + `"`).Effects(`loc = "` + to + `"`)
			}
			actions = append(actions, b.Spec())
		}
		goal := rapid.SampledFrom(locs).Draw(t, "goal")
		d, err := Compile(RoleSpec{Name: "G", State: []Var{{"loc", expr.StringValue("a")}, {"key", expr.BoolValue(false)}},
			Goals: []GoalSpec{NewGoal("g", `loc == "`+goal+`" && key`, Normal)}, Actions: actions})
		require.NoError(t, err)
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		g := d.Goals[0]
		st := d.NewState()
		pl := depthPlanner(d, depth)
		p, err := pl.PlanFor(g, st)
		want, wantCost, exists := bruteForce(d, g, st, depth)
		if !exists {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		checkValid(t, g, st, p.Steps)
		var got []int
		for _, a := range p.Steps {
			got = append(got, a.Index)
		}
		require.Equal(t, wantCost, p.Cost)
		require.Equal(t, want, got)
	})
}

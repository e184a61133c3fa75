package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

// roleOf writes a drawn domain (see plantest) as a RoleSpec.
func roleOf(s plantest.Spec) RoleSpec {
	r := RoleSpec{Name: s.Name}
	for _, v := range s.State {
		r.State = append(r.State, Var{v.Name, v.Value})
	}
	for _, g := range s.Goals {
		r.Goals = append(r.Goals, NewGoal(g.Name, g.Condition, Priority(g.Priority)))
	}
	for _, a := range s.Actions {
		b := NewAction(a.Name).Pre(a.Pre).Effects(a.Effects).Cost(a.Cost)
		for _, f := range a.Fulfills {
			b.Fulfills(f)
		}
		if a.NoRerun {
			b.NoRerun()
		}
		r.Actions = append(r.Actions, b.Spec())
	}
	return r
}

// bruteForce is plantest.BruteForce over d's lowered problem: the
// cheapest plan of at most depth steps for g from st, first in
// declaration order among the cheapest, and whether one exists.
func bruteForce(d *Domain, g *Goal, st expr.State, depth int) ([]int, float64, bool) {
	return plantest.BruteForce(d.lowered, d.lowered.Goals[g.Index], st, depth, nil)
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
		spec := roleOf(plantest.Prop(t))
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
				longer := plantest.Reaches(d.lowered, d.lowered.Goals[g.Index], st, n, nil)
				require.True(t, longer, "the reported %d-step plan exists: %s", n, desc)
			}
		case Unreachable, CyclicPrecondition:
			deeper := plantest.Reaches(d.lowered, d.lowered.Goals[g.Index], st, depth+3, nil)
			require.False(t, deeper, "%s claims no plan at any depth: %s", pe.Reason, desc)
		default:
			t.Fatalf("unexpected reason %s: %s", pe.Reason, desc)
		}
	})
}

func TestPlannerIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := roleOf(plantest.Prop(t))
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
// graphs over string locations (plantest.Indexed: at least 8 moves, so the
// index is built), with some actions that do not test the location mixed
// in.
func TestPlannerIndexedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, err := Compile(roleOf(plantest.Indexed(t)))
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

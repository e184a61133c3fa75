package bench

import (
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/internal/plancases"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBaselineFindsPlansOfMoonmindsCost checks the guard's baseline: on
// every planner domain the textbook A* finds a plan of the same cost as
// moonmind's planner, and that plan is valid step by step when replayed
// with the engine's compiled preconditions and effects.
func TestBaselineFindsPlansOfMoonmindsCost(t *testing.T) {
	for _, c := range plancases.PlannerCases() {
		t.Run(c.Name, func(t *testing.T) {
			pl, st := compileCase(t, c)
			want, err := pl.Plan(st)
			require.NoError(t, err)
			bd, err := NewBaselineDomain(c)
			require.NoError(t, err)
			plan, cost, ok := bd.BaselinePlan(bd.Start())
			require.True(t, ok, "the baseline finds a plan")
			assert.Equal(t, want.Cost, cost, "baseline plan %v against moonmind's %v", plan, want.Names())
			assert.LessOrEqual(t, len(plan), c.MaxDepth)

			d := pl.Domain
			sim := st.Clone()
			var sum float64
			for _, name := range plan {
				a := d.Action(name)
				require.NotNil(t, a, name)
				require.True(t, a.Pre == nil || a.Pre.Eval(sim), "%s applies in %v", name, sim)
				if a.Effects != nil {
					require.NoError(t, a.Effects.ApplyInPlace(sim))
				}
				sum += a.Cost
			}
			assert.True(t, d.Goals[0].Condition.Eval(sim), "the goal holds after the baseline's plan")
			assert.Equal(t, cost, sum)
		})
	}
}

// TestBaselineInterpreter checks the baseline's reading of the condition
// and effect strings against the engine's on the expression benchmark's
// state.
func TestBaselineInterpreter(t *testing.T) {
	sc, st := exprSchema(t)
	vars := []string{"ammo", "magazines", "mode", "enemy_visible", "health"}
	ms := MapState{}
	for _, v := range vars {
		slot, _ := sc.Lookup(v)
		ms[v] = st[slot].Interface()
	}
	for _, src := range []string{
		condition5, "ammo > 30", `mode != "patrol"`, "!(ammo > 10) || health <= 80", "enemy_visible", "!enemy_visible",
		"ammo >= 20 && ammo < 20.5 && magazines == 2",
	} {
		ec, err := expr.CompileCondition(src, sc)
		require.NoError(t, err, src)
		bc, err := EvalMapCond(src, vars)
		require.NoError(t, err, src)
		assert.Equal(t, ec.Eval(st), bc(ms), src)
	}
	ee, err := expr.CompileEffect(effect3, sc)
	require.NoError(t, err)
	be, err := ApplyMapEffects(effect3, vars)
	require.NoError(t, err)
	dst := st.Clone()
	require.NoError(t, ee.Apply(dst, st))
	mdst := MapState{}
	be(ms, mdst)
	for _, v := range []string{"ammo", "magazines", "mode"} {
		slot, _ := sc.Lookup(v)
		assert.Equal(t, dst[slot].Interface(), mdst[v], v)
	}
	_, err = EvalMapCond("ammo >", vars)
	assert.EqualError(t, err, `bench: baseline: missing operand in "ammo >"`)
}

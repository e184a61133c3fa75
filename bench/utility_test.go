package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// The utility planner's budgets (design.md): one choice over 20
// actions × 4 considerations in about a microsecond and no allocation with
// Go considerations, within 10 µs with Lua ones.

const utilityActions = 20

// utilityRole has 20 actions, all applicable in utilityState, half with a
// precondition to evaluate.
func utilityRole() engine.RoleSpec { return utilityRoleN(utilityActions) }

// utilityRoleN is utilityRole with n actions.
func utilityRoleN(n int) engine.RoleSpec {
	r := engine.RoleSpec{Name: "Bench", State: []engine.Var{
		{Name: "health", Value: expr.NumberValue(65)},
		{Name: "ammo", Value: expr.NumberValue(12)},
		{Name: "distance", Value: expr.NumberValue(18)},
		{Name: "enemy_visible", Value: expr.BoolValue(true)},
	}}
	for i := range n {
		a := engine.ActionSpec{Name: fmt.Sprintf("act%02d", i),
			Utility: engine.UtilitySpec{Cost: float64(5 * i), Value: float64(100 - 3*i), Weight: 1 + float64(i%3)/10}}
		if i%2 == 0 {
			a.Pre = "enemy_visible && health > 0"
		}
		r.Actions = append(r.Actions, a)
	}
	return r
}

func goConsiderations(d *engine.Domain) []engine.Consideration {
	slot := func(n string) int { s, _ := d.Schema.Lookup(n); return s }
	health, ammo, dist := slot("health"), slot("ammo"), slot("distance")
	num := func(st expr.State, s int) float64 { v, _ := st[s].AsNumber(); return v }
	return []engine.Consideration{
		engine.FuncConsideration("health", 1, func(a *engine.Action, st expr.State) float64 {
			return num(st, health) / 100
		}),
		engine.FuncConsideration("ammo", 0.5, func(a *engine.Action, st expr.State) float64 {
			return num(st, ammo) / 30 * a.Utility.Weight
		}),
		engine.FuncConsideration("distance", 2, func(a *engine.Action, st expr.State) float64 {
			return 1 - num(st, dist)/50
		}),
		engine.FuncConsideration("value", 1, func(a *engine.Action, _ expr.State) float64 {
			return a.Utility.Value / 100
		}),
	}
}

func curveConsiderations(b testing.TB, d *engine.Domain) []engine.Consideration {
	specs := []engine.ConsiderationSpec{
		{Input: "health", Min: 0, Max: 100, Curve: &curve.Curve{Kind: curve.Logistic, Slope: 10, Offset: 0.5}},
		{Input: "ammo", Min: 0, Max: 30, Curve: &curve.Curve{Kind: curve.Polynomial, Exponent: 2}},
		{Input: "distance", Min: 50, Max: 0, Weight: 2},
		{Kind: engine.ConsiderCost, Weight: 0.3},
	}
	var out []engine.Consideration
	for _, sp := range specs {
		c, err := engine.CompileConsideration(sp, d.Schema)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func benchPlanner(b testing.TB, mode string, cs func(*engine.Domain) []engine.Consideration) (*engine.UtilityPlanner, expr.State) {
	r := utilityRole()
	r.UtilityMode = mode
	d, err := engine.Compile(r)
	if err != nil {
		b.Fatal(err)
	}
	u := engine.NewUtilityPlanner(d)
	u.Considerations = cs(d)
	st := d.NewState()
	if len(u.ActionsByUtility(st)) != utilityActions {
		b.Fatal("every action must apply")
	}
	return u, st
}

// BenchmarkUtilityGo is the budget: SelectBestAction over 20 actions × 4
// Go considerations, ≤ 1 µs and 0 allocs/op.
func BenchmarkUtilityGo(b *testing.B) {
	for _, mode := range []string{engine.UtilityAverage, engine.UtilityMultiply} {
		b.Run(mode, func(b *testing.B) {
			u, st := benchPlanner(b, mode, goConsiderations)
			b.ReportAllocs()
			for b.Loop() {
				if u.SelectBestAction(st) == nil {
					b.Fatal("no pick")
				}
			}
		})
	}
}

// BenchmarkUtilityCurves is the same choice with response curves and a
// seed consideration instead of Go functions.
func BenchmarkUtilityCurves(b *testing.B) {
	for _, mode := range []string{engine.UtilityAverage, engine.UtilityMultiply} {
		b.Run(mode, func(b *testing.B) {
			u, st := benchPlanner(b, mode, func(d *engine.Domain) []engine.Consideration { return curveConsiderations(b, d) })
			b.ReportAllocs()
			for b.Loop() {
				if u.SelectBestAction(st) == nil {
					b.Fatal("no pick")
				}
			}
		})
	}
}

// BenchmarkUtilityPick is the tick loop's call with a running action, with
// and without the explanation.
func BenchmarkUtilityPick(b *testing.B) {
	for _, explain := range []bool{false, true} {
		b.Run(fmt.Sprintf("explain=%v", explain), func(b *testing.B) {
			u, st := benchPlanner(b, engine.UtilityAverage, goConsiderations)
			u.Explain = explain
			running := u.Domain.Actions[7]
			b.ReportAllocs()
			for b.Loop() {
				if p, _ := u.Pick(st, running); p == nil {
					b.Fatal("no pick")
				}
			}
		})
	}
}

// utilityLua writes a role file whose four role-wide considerations are
// Lua functions equivalent to goConsiderations.
func utilityLua(b testing.TB) string { return utilityLuaN(b, utilityActions) }

// utilityLuaN is utilityLua with n actions.
func utilityLuaN(b testing.TB, n int) string {
	var sb strings.Builder
	sb.WriteString(`return {
  name = "BenchLua",
  decide = "utility",
  state = { health = 65, ammo = 12, distance = 18, enemy_visible = true },
  considerations = {
    { name = "health", fn = function(action, state) return state.health / 100 end },
    { name = "ammo", weight = 0.5, fn = function(action, state) return state.ammo / 30 * action.weight end },
    { name = "distance", weight = 2, fn = function(action, state) return 1 - state.distance / 50 end },
    { name = "value", fn = function(action, state) return action.value / 100 end },
  },
  actions = {
`)
	for i := range n {
		pre := ""
		if i%2 == 0 {
			pre = `pre = "enemy_visible && health > 0", `
		}
		fmt.Fprintf(&sb, "    { name = \"act%02d\", %sutility = { cost = %d, value = %d, weight = %g } },\n",
			i, pre, 5*i, 100-3*i, 1+float64(i%3)/10)
	}
	sb.WriteString("  },\n}\n")
	src := sb.String()
	path := filepath.Join(b.TempDir(), "bench_utility.lua")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkUtilityLua is the budget with Lua considerations: the same
// choice, every consideration a Lua function called through the runtime's
// budgeted Call, ≤ 10 µs.
func BenchmarkUtilityLua(b *testing.B) {
	u, step, done := luaUtility(b)
	defer done()
	b.ReportAllocs()
	for b.Loop() {
		step()
	}
	if n, err := u.LastError(); err != nil {
		b.Fatalf("%d consideration errors, the last: %v", n, err)
	}
}

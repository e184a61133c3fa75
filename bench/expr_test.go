package bench

import (
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// condition5 and effect3 are the expressions the benchmarks and the bench
// guard evaluate.
const (
	condition5 = `ammo > 10 && magazines >= 1 && mode == "patrol" && !enemy_visible || health < 25.5`
	effect3    = "ammo = ammo + 30, magazines = magazines - 1, mode = ATTACK"
)

// exprSchema is the soldier-like state the expression benchmarks use.
func exprSchema(tb testing.TB) (*expr.Schema, expr.State) {
	sc := expr.NewSchema("ammo", "magazines", "mode", "enemy_visible", "health")
	st := sc.NewState()
	st.Set(sc, "ammo", expr.NumberValue(20))
	st.Set(sc, "magazines", expr.NumberValue(2))
	st.Set(sc, "mode", expr.StringValue("patrol"))
	st.Set(sc, "enemy_visible", expr.BoolValue(false))
	st.Set(sc, "health", expr.NumberValue(80))
	return sc, st
}

// BenchmarkCondition5 evaluates a 5-clause condition (numbers, a string, a
// negated bool, "&&" and "||") that holds, so every "&&" clause runs.
func BenchmarkCondition5(b *testing.B) {
	sc, st := exprSchema(b)
	c, err := expr.CompileCondition(condition5, sc)
	if err != nil {
		b.Fatal(err)
	}
	if !c.Eval(st) {
		b.Fatal("the condition should hold")
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Eval(st)
	}
}

// BenchmarkEffect3 applies a 3-assignment effect (two arithmetic, one bare
// word) from a state into a copy of it, as the planner does per expansion.
func BenchmarkEffect3(b *testing.B) {
	sc, st := exprSchema(b)
	e, err := expr.CompileEffect(effect3, sc)
	if err != nil {
		b.Fatal(err)
	}
	dst := st.Clone()
	if err := e.Apply(dst, st); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		copy(dst, st)
		_ = e.Apply(dst, st)
	}
}

// BenchmarkEffect3InPlace applies the same effect to one state in place,
// as an action body that applies its promised effects does.
func BenchmarkEffect3InPlace(b *testing.B) {
	sc, st := exprSchema(b)
	e, err := expr.CompileEffect(effect3, sc)
	if err != nil {
		b.Fatal(err)
	}
	work := st.Clone()
	b.ReportAllocs()
	for b.Loop() {
		copy(work, st)
		_ = e.ApplyInPlace(work)
	}
}

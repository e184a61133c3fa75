package bench

import (
	"strconv"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// The parse benchmarks compile texts of n terms; ns/op divided by n is the
// cost of one term, which stays flat as n grows when parsing is linear.

// bigCondition returns "x0 > 0 && x1 > 1 && ... " with n clauses, each on
// its own variable (so the reads list grows with n).
func bigCondition(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(" && ")
		}
		b.WriteString("x" + strconv.Itoa(i) + " > " + strconv.Itoa(i))
	}
	return b.String()
}

// bigEffect returns "x0 = x0 + 1, x1 = x1 + 1, ..." with n assignments.
func bigEffect(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		v := "x" + strconv.Itoa(i)
		b.WriteString(v + " = " + v + " + 1")
	}
	return b.String()
}

// longSum returns "x = x + 1 + 1 ..." with n terms on one right-hand side.
func longSum(n int) string {
	return "x = x" + strings.Repeat(" + 1", n-1)
}

var parseSizes = []int{1_000, 50_000, 200_000}

// BenchmarkParseCondition compiles conditions of n clauses.
func BenchmarkParseCondition(b *testing.B) {
	for _, n := range parseSizes {
		src := bigCondition(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := expr.CompileCondition(src, expr.NewSchema()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseEffect compiles effects of n assignments, and one
// assignment of n terms.
func BenchmarkParseEffect(b *testing.B) {
	for _, shape := range []struct {
		name string
		text func(int) string
	}{{"assigns", bigEffect}, {"terms", longSum}} {
		for _, n := range parseSizes {
			src := shape.text(n)
			b.Run(shape.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := expr.CompileEffect(src, expr.NewSchema()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCompileBigRole compiles a role whose one action has a
// precondition and an effect of n terms each, through engine.Compile, the
// path a Lua role takes.
func BenchmarkCompileBigRole(b *testing.B) {
	for _, n := range []int{50_000, 200_000} {
		spec := engine.RoleSpec{
			Name:  "Big",
			Goals: []engine.GoalSpec{{Name: "done", Condition: "x0 > 1"}},
			Actions: []engine.ActionSpec{{
				Name: "grow", Pre: bigCondition(n), Effects: bigEffect(n), Cost: 1, Fulfills: []string{"done"},
			}},
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := engine.Compile(spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

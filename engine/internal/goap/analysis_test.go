package goap

import (
	"math"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlatTestsGiveConditionEval checks every flattened test form (the
// number and string comparisons that skip the generic compare, bare and
// negated variables) against Condition.Eval on values of every kind,
// Unknown, NaN, infinities and signed zeros among them.
func TestFlatTestsGiveConditionEval(t *testing.T) {
	sc := expr.NewSchema("x")
	values := []Value{{}, expr.NilValue(), expr.BoolValue(true), expr.BoolValue(false), expr.StringValue(""), expr.StringValue("a"), expr.StringValue("b"),
		expr.NumberValue(0), expr.NumberValue(math.Copysign(0, -1)), expr.NumberValue(1), expr.NumberValue(-1), expr.NumberValue(2.5),
		expr.NumberValue(math.Inf(1)), expr.NumberValue(math.Inf(-1)), expr.NumberValue(math.NaN())}
	lits := []string{"0", "-0", "1", "-1", "2.5", `"a"`, `""`, "true", "false", "nil"}
	var srcs []string
	for _, op := range []string{"==", "!=", "<", "<=", ">", ">="} {
		for _, lit := range lits {
			srcs = append(srcs, "x "+op+" "+lit)
		}
	}
	srcs = append(srcs, "x", "!x")
	for _, src := range srcs {
		c, err := expr.CompileCondition(src, sc)
		if err != nil {
			continue // an operator the language refuses for that literal
		}
		fc := flatCond(c)
		require.Nil(t, fc.slow, src)
		require.Len(t, fc.tests, 1, src)
		for _, v := range values {
			st := State{v}
			assert.Equal(t, c.Eval(st), fc.eval(st), "%s with x = %v", src, v)
		}
	}
}

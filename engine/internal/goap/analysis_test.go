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

// TestNumberRangeGivesEval checks the range form of a one-test number
// condition (GoalSearch.Satisfied's) against Condition.Eval, at the
// literal, its neighbouring floats, the extremes, NaN and signed zeros,
// and on values of other kinds.
func TestNumberRangeGivesEval(t *testing.T) {
	sc := expr.NewSchema("x")
	lits := []float64{0, 1, -1, 2.5, 10, 0.1, 1<<53 - 1, -(1<<53 - 1)}
	var values []Value
	for _, f := range append(lits, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1)) {
		values = append(values, expr.NumberValue(f), expr.NumberValue(math.Nextafter(f, math.Inf(1))),
			expr.NumberValue(math.Nextafter(f, math.Inf(-1))))
	}
	values = append(values, Value{}, expr.BoolValue(true), expr.StringValue("a"))
	ranged := 0
	for _, op := range []string{"==", "!=", "<", "<=", ">", ">="} {
		for _, lit := range lits {
			src := "x " + op + " " + expr.NumberValue(lit).String()
			c, err := expr.CompileCondition(src, sc)
			require.NoError(t, err, src)
			fc := flatCond(c)
			r := rangeOf(&fc)
			if op == "!=" {
				assert.False(t, r.on, src)
				continue
			}
			require.True(t, r.on, src)
			ranged++
			for _, v := range values {
				st := State{v}
				assert.Equal(t, c.Eval(st), r.holds(st), "%s with x = %v", src, v)
			}
		}
	}
	assert.Equal(t, 5*len(lits), ranged)
	// Literals the language cannot write, against the flat test itself.
	for _, ev := range []uint8{evNumLt, evNumLe, evNumGt, evNumGe, evNumEq} {
		for _, lit := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
			fc := fastCond{tests: []fastTest{{kind: testCmp, ev: ev, num: lit}}}
			r := rangeOf(&fc)
			require.True(t, r.on)
			for _, v := range values {
				st := State{v}
				assert.Equal(t, fc.eval(st), r.holds(st), "ev %d, literal %v, x = %v", ev, lit, v)
			}
		}
	}
	c, err := expr.CompileCondition("x > 1 && x < 3", sc)
	require.NoError(t, err)
	fc := flatCond(c)
	assert.False(t, rangeOf(&fc).on, "two tests")
}

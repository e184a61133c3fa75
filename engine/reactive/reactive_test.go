package reactive

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestGoalsCompareAndPrint: a named goal and a tuple goal are equal only
// to goals of their own shape with equal terms, and print as a name or a
// Lua-like tuple with short numbers.
func TestGoalsCompareAndPrint(t *testing.T) {
	named := GoalNamed("prepare")
	tuple := GoalTuple(expr.StringValue("start"), expr.NumberValue(1), expr.NumberValue(2.5))
	assert.Equal(t, "prepare", named.Name())
	assert.Equal(t, "prepare", named.String())
	assert.Equal(t, "start", tuple.Name(), "a tuple is named by its first string")
	assert.Equal(t, `{"start", 1, 2.5}`, tuple.String())
	assert.True(t, named.Equal(GoalNamed("prepare")))
	assert.False(t, named.Equal(GoalTuple(expr.StringValue("prepare"))), "a name is not a one-element tuple")
	assert.False(t, tuple.Equal(GoalTuple(expr.StringValue("start"), expr.NumberValue(1))))
	assert.True(t, GoalTuple(expr.NumberValue(0)).Equal(GoalTuple(expr.NumberValue(math.Copysign(0, -1)))), "the scripts' equality: 0 equals -0")
	assert.Equal(t, "", GoalTuple(expr.NumberValue(3)).Name(), "no string first: no name")
	assert.Equal(t, "", Goal{}.Name())
}

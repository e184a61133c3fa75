package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestCompileOperatorWordState checks that a state variable named like a
// condition operator (and, or, not) is refused with the reason, while
// names that only hold the words compile.
func TestCompileOperatorWordState(t *testing.T) {
	_, err := engine.Compile(engine.RoleSpec{
		Name: "Farmer", File: "farmer.lua",
		State: []engine.Var{{Name: "not", Value: expr.BoolValue(true)}, {Name: "nothing", Value: expr.NumberValue(1)}},
		Goals: []engine.GoalSpec{{Name: "fed", Condition: "nothing > 0 and not hungry"}},
	})
	var ce *engine.CompileError
	require.ErrorAs(t, err, &ce)
	require.NotEmpty(t, ce.Problems)
	assert.Equal(t, `farmer.lua: state variable "not": not is an operator in conditions (as in Lua), so no condition could read it; rename the variable`, ce.Problems[0].String())

	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Farmer",
		State: []engine.Var{{Name: "nothing", Value: expr.NumberValue(1)}, {Name: "hungry", Value: expr.BoolValue(false)}},
		Goals: []engine.GoalSpec{{Name: "fed", Condition: "nothing > 0 and not hungry"}},
	})
	require.NoError(t, err)
	assert.True(t, d.Goals[0].Condition.Eval(d.Initial), "nothing > 0 and not hungry holds")
}

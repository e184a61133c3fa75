package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestAnUnreachableGoalOnANamedConditionSaysSo: a goal no action can
// reach is UNREACHABLE; when its condition reads named conditions the
// detail names them and says that only the world makes them true, and
// otherwise it adds nothing.
func TestAnUnreachableGoalOnANamedConditionSaysSo(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R",
		State: []Var{{"x", expr.NumberValue(0)}},
		Conditions: []ConditionSpec{
			{Name: "seen", Test: func(*Agent) (bool, error) { return false, nil }},
			{Name: "near", Test: func(*Agent) (bool, error) { return false, nil }},
		},
		Goals: []GoalSpec{NewGoal("spot", "seen && near", Normal), NewGoal("look", "seen", Normal), NewGoal("count", "x > 3", Normal)}})
	p := NewPlanner(d)
	_, err := p.PlanFor(d.Goal("spot"), d.NewState())
	require.Error(t, err)
	assert.Equal(t, `engine: UNREACHABLE: goal "spot": no action fulfills the goal or assigns a variable its condition reads`+
		` (seen, near are named conditions, computed by the game each tick: no action's effects can change them,`+
		` so a goal on them is reached only when the world makes them true; to plan towards them, write the goal on state variables that actions assign)`,
		err.Error())
	_, err = p.PlanFor(d.Goal("look"), d.NewState())
	require.Error(t, err)
	assert.Equal(t, `engine: UNREACHABLE: goal "look": no action fulfills the goal or assigns a variable its condition reads`+
		` (seen is a named condition, computed by the game each tick: no action's effects can change it,`+
		` so a goal on it is reached only when the world makes it true; to plan towards it, write the goal on state variables that actions assign)`,
		err.Error())
	_, err = p.PlanFor(d.Goal("count"), d.NewState())
	require.Error(t, err)
	assert.Equal(t, `engine: UNREACHABLE: goal "count": no action fulfills the goal or assigns a variable its condition reads`, err.Error())
}

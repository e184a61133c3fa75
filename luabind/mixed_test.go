package luabind_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// A Go role and a Lua role on one agent: Runtime.LoadRole reads the Lua
// role, engine.Compile merges it with a role written in Go, and one plan
// runs a Lua body and a Go body in turn.
func TestGoRoleAndLuaRoleOnOneAgent(t *testing.T) {
	rt := luabind.NewRuntime(luabind.Options{})
	defer rt.Close()
	lua, err := rt.LoadRole(filepath.Join("testdata", "examples", "lumberjack.lua"))
	require.NoError(t, err)
	carried := 0
	goRole := engine.RoleSpec{
		Name:  "Carrier",
		State: []engine.Var{{Name: "stacked", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "stacked >= 2", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("carry").Pre("wood >= 2").Effects("wood = wood - 2, stacked = stacked + 2").
				Body(engine.BodyFunc(func(a *engine.Agent, act *engine.Action) (engine.Status, error) {
					carried++
					return engine.ApplyEffects(a, act)
				})).Spec(),
		},
	}
	d, err := engine.Compile(lua, goRole)
	require.NoError(t, err)
	assert.Equal(t, "Lumberjack+Carrier", d.Name)

	w := engine.NewWorld(1)
	var got []string
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventPlan:
			got = append(got, "plan "+e.Goal+" "+e.Plan[0]+","+e.Plan[1])
		case record.EventStart, record.EventFinish, record.EventFail:
			got = append(got, e.Kind.String()+" "+e.Action+" "+e.Reason)
		}
	}
	a := engine.NewAgent("jo", d)
	w.Add(a)
	for i := 0; i < 20; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{
		"plan stocked chop,carry",
		"start chop ",
		"finish chop ",
		"start carry ",
		"finish carry ",
	}, got)
	assert.Equal(t, 1, carried)
	assert.Equal(t, expr.NumberValue(2), a.Get("stacked"))
	assert.Equal(t, expr.NumberValue(0), a.Get("wood"))
}

package engine_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// What the engine hands back prints as names, not as structs of pointers:
// the running action, the current goal, a plan with its cost, the agent.
func ExampleAction_String() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "magazines", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetchMagazine").Effects("magazines = magazines + 1").Body(sawBody{seconds: 0.5}).Spec(),
			engine.NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	p, err := engine.NewPlanner(d).Plan(d.NewState())
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	fmt.Println(p.Goals[0])

	w := engine.NewWorld(1)
	a := engine.NewAgent("Soldier#1", d)
	w.Add(a)
	w.Tick(0.1)
	fmt.Println(a, "runs", a.Running(), "for", a.CurrentGoal())
	fmt.Println(d.Action("reload").Pre, "then", d.Action("reload").Effects)
	// Output:
	// fetchMagazine, reload [cost 2]
	// armed: fetchMagazine, reload [cost 2]
	// Soldier#1 (role Soldier) runs fetchMagazine for armed
	// magazines > 0 then ammo = 30, magazines = magazines - 1
}

func TestStringsOfWhatTheEngineHandsBack(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{
		Name:       "Guard",
		State:      []engine.Var{{Name: "alert", Value: expr.BoolValue(false)}},
		Goals:      []engine.GoalSpec{engine.NewGoal("ready", "alert", engine.Normal)},
		Actions:    []engine.ActionSpec{engine.NewAction("wake").Effects("alert = true").Cost(1.5).Spec()},
		Sensors:    []engine.SensorSpec{{Name: "ears", Run: func(*engine.Agent, float64) error { return nil }}},
		Conditions: []engine.ConditionSpec{{Name: "noisy", Test: func(*engine.Agent) (bool, error) { return false, nil }}},
	})
	require.NoError(t, err)
	assert.Equal(t, "wake", fmt.Sprint(d.Action("wake")))
	assert.Equal(t, "ready", fmt.Sprint(d.Goal("ready")))
	assert.Equal(t, "role Guard", fmt.Sprint(d))
	assert.Equal(t, "ears", fmt.Sprint(d.Sensors[0]))
	assert.Equal(t, "noisy", fmt.Sprint(d.Conditions[0]))
	assert.Equal(t, "[wake]", fmt.Sprint([]*engine.Action{d.Action("wake")}), "a slice of actions prints its names")

	p, err := engine.NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, "wake [cost 1.5]", p.String())

	st := d.NewState()
	st.Set(d.Schema, "alert", expr.BoolValue(true))
	done, err := engine.NewPlanner(d).Plan(st)
	require.NoError(t, err)
	assert.Equal(t, "(no steps) [cost 0]", done.String(), "a plan whose goals hold has no steps")

	var none *engine.Action
	assert.Equal(t, "<nil>", none.String())
	assert.Equal(t, "<nil>", fmt.Sprint(engine.NewAgent("g", d).Running()), "an idle agent runs nothing")
	assert.Equal(t, "g (role Guard)", engine.NewAgent("g", d).String())
}

package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// warmRole: Pray fulfills warm but its effects say nothing of fire; Light
// makes fire true by its effects; Chop only helps Light.
func warmRole(prayCost float64) RoleSpec {
	return RoleSpec{Name: "R",
		State: []Var{{"wood", expr.NumberValue(0)}, {"fire", expr.BoolValue(false)}, {"faith", expr.NumberValue(0)}},
		Goals: []GoalSpec{NewGoal("warm", "fire", Normal)},
		Actions: []ActionSpec{
			NewAction("Chop").Effects("wood = wood + 1").Body(ticksBody{n: 1}).Spec(),
			NewAction("Light").Pre("wood >= 2").Effects("fire = true").Body(ticksBody{n: 1}).Spec(),
			NewAction("Pray").Effects("faith = faith + 1").Fulfills("warm").Cost(prayCost).Body(BodyFunc(func(a *Agent, _ *Action) (Status, error) {
				a.Set("fire", expr.BoolValue(true)) // the body keeps the promise fulfills makes
				return Succeeded, nil
			})).Spec(),
		}}
}

func TestFulfillsIsOneRule(t *testing.T) {
	tests := []struct {
		name, reason string
		prayCost     float64
		chaining     bool
		plan         []string
	}{
		{name: "fulfills is cheapest", reason: "Pray completes warm though its effects do not touch fire",
			prayCost: 1, chaining: true, plan: []string{"Pray"}},
		{name: "effects are cheaper", reason: "Chop, Chop, Light costs 3, Pray 5",
			prayCost: 5, chaining: true, plan: []string{"Chop", "Chop", "Light"}},
		{name: "no chaining", reason: "without chaining Pray can run now and completes the goal; Light cannot run",
			prayCost: 5, chaining: false, plan: []string{"Pray"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Compile(warmRole(tc.prayCost))
			require.NoError(t, err)
			pl := NewPlanner(d)
			pl.Chaining = tc.chaining
			p, err := pl.Plan(d.NewState())
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.plan, p.Names(), tc.reason)
		})
	}

	d, err := Compile(warmRole(1))
	require.NoError(t, err)
	warm := d.Goal("warm")
	a := NewAgent("npc", d)
	handle, err := a.PlanForGoal("warm")
	require.NoError(t, err)
	assert.Equal(t, []string{"Light", "Pray"}, names(handle), "PlanForGoal: Light by its effects, Pray by fulfills")
	assert.Equal(t, []string{"Light", "Pray"}, names(d.candidates(warm)))
	u := NewUtilityPlanner(d)
	st := d.NewState()
	st.Set(d.Schema, "wood", expr.NumberValue(2))
	var scored []string
	for _, sa := range u.ActionsForGoal(warm, st) {
		scored = append(scored, sa.Action.Name)
	}
	assert.ElementsMatch(t, []string{"Light", "Pray"}, scored, "ActionsForGoal agrees with PlanForGoal on the applicable ones")

	plan, err := a.Plan()
	require.NoError(t, err)
	assert.Equal(t, []string{"Pray"}, plan.Names())
	res, err := a.ExecutePlan(plan.Names())
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, expr.BoolValue(true), a.Get("fire"))
}

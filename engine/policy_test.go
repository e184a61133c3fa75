package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// robOrWork is the role of issue 13.1: robbing is cheap and secured,
// working is dear and always allowed.
func robOrWork(rob ActionSpec) RoleSpec {
	return RoleSpec{Name: "R",
		State: []Var{{"rich", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("money", "rich", Normal)},
		Actions: []ActionSpec{
			rob,
			NewAction("Work").Effects("rich = true").Cost(5).Body(ticksBody{n: 2}).Spec(),
		}}
}

func TestRestrictedActionsArePlannedAround(t *testing.T) {
	rob := NewAction("Rob").Effects("rich = true").Cost(1).Body(ticksBody{n: 1})
	tests := []struct {
		name, reason string
		rob          ActionSpec
		authorities  []string
		plan         []string // the plan recorded at tick 1
		note         string   // its reason
		started      []string
	}{
		{name: "restricted", reason: "Rob is never permitted: the dearer Work is planned and starts at once",
			rob: rob.Restricted().Spec(), plan: []string{"Work"}, note: `left out: Rob (action "Rob" is restricted)`,
			started: []string{"1 start Work"}},
		{name: "authority missing", reason: "Rob needs crime, not granted",
			rob:  NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Authority("crime").Spec(),
			plan: []string{"Work"}, note: `left out: Rob (action "Rob" needs authority "crime", and none is granted)`,
			started: []string{"1 start Work"}},
		{name: "another authority", reason: "granting something else does not grant crime",
			rob:         NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Authority("crime").Spec(),
			authorities: []string{"trade"}, plan: []string{"Work"},
			note:    `left out: Rob (action "Rob" needs authority "crime", not granted (granted: trade))`,
			started: []string{"1 start Work"}},
		{name: "authority granted", reason: "with crime granted the cheaper Rob is planned",
			rob:         NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Authority("crime").Spec(),
			authorities: []string{"trade", "crime"}, plan: []string{"Rob"}, started: []string{"1 start Rob"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, a, tr := newWorld(t, robOrWork(tc.rob))
			a.Authorities = tc.authorities
			for i := 0; i < 5; i++ {
				w.Tick(0.1)
			}
			require.Equal(t, []string{"1 plan money"}, tr.lines(record.EventPlan, record.EventPlanFailed, record.EventRefused), tc.reason)
			for _, e := range tr.events {
				if e.Kind == record.EventPlan {
					assert.Equal(t, tc.plan, e.Plan, tc.reason)
					assert.Equal(t, tc.note, e.Reason, tc.reason)
				}
			}
			assert.Equal(t, tc.started, tr.lines(record.EventStart), tc.reason)
			assert.Empty(t, tr.lines(record.EventStuck, record.EventRefused), tc.reason)
			assert.Equal(t, expr.BoolValue(true), a.Get("rich"), tc.reason)
		})
	}
}

func TestSecuredActionOnlyPlanFails(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R",
		State:   []Var{{"rich", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("money", "rich", Normal)},
		Actions: []ActionSpec{NewAction("Rob").Effects("rich = true").Authority("crime").Body(ticksBody{n: 1}).Spec()}})
	require.NoError(t, err)

	p := NewPlanner(d)
	plan, err := p.Plan(d.NewState())
	require.NoError(t, err, "a planner without a policy plans every action, as the seed's does")
	assert.Equal(t, []string{"Rob"}, plan.Names())

	p.Policy = &Policy{}
	_, err = p.Plan(d.NewState())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, NotAuthorized, pe.Reason)
	assert.Equal(t, "Rob", pe.Action)
	assert.Equal(t, "crime", pe.Authority)
	assert.Equal(t, `engine: NOT_AUTHORIZED: goal "money", action "Rob": a plan exists only through action "Rob", which needs authority "crime", and none is granted`, err.Error())

	p.Policy = &Policy{Authorities: []string{"crime"}}
	plan, err = p.Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"Rob"}, plan.Names())

	p.Policy, p.Chaining = &Policy{}, false
	_, err = p.Plan(d.NewState())
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, NotAuthorized, pe.Reason, "without chaining too")

	// Executors refuse the handed-in plan before any step runs.
	a := NewAgent("npc", d)
	_, err = a.ExecutePlan([]string{"Rob"})
	assert.ErrorIs(t, err, ErrRestricted)
	assert.EqualError(t, err, `engine: action "Rob": the action needs authority "crime", and none is granted; executors refuse it`)
	assert.Equal(t, expr.BoolValue(false), a.Get("rich"))
	assert.ErrorIs(t, a.RunAction(d.Action("Rob"), 0, 0), ErrRestricted, "RunAction refuses it too")
	assert.Equal(t, expr.BoolValue(false), a.Get("rich"))

	a.Authorities = []string{"crime"}
	res, err := a.ExecutePlan([]string{"Rob"})
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, expr.BoolValue(true), a.Get("rich"))
}

func TestAgentPlanUsesItsPolicy(t *testing.T) {
	d, err := Compile(robOrWork(NewAction("Rob").Effects("rich = true").Authority("crime").Body(ticksBody{n: 1}).Spec()))
	require.NoError(t, err)
	a := NewAgent("npc", d)
	p, err := a.Plan()
	require.NoError(t, err)
	assert.Equal(t, []string{"Work"}, p.Names(), "Agent.Plan plans around Rob before any tick")
	a.Authorities = []string{"crime"}
	p, err = a.Plan()
	require.NoError(t, err)
	assert.Equal(t, []string{"Rob"}, p.Names(), "and reads Authorities afresh")
}

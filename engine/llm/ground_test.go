package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// soldier is the shipped soldier's supply side, in Go.
func soldier(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "magazines", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetchMagazine").Effects("magazines = magazines + 1").Cost(2).Spec(),
			engine.NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
			engine.NewAction("selfDestruct").Restricted().Spec(),
		},
	})
	require.NoError(t, err)
	return d
}

func planOf(actions ...string) Plan {
	p := Plan{Goal: "get armed"}
	for _, a := range actions {
		p.Steps = append(p.Steps, PlanStep{Action: a})
	}
	return p.renumbered(p.Steps)
}

func TestGroundingValidAndInvalidPlans(t *testing.T) {
	d := soldier(t)
	st := d.NewState()
	armed := d.Goal("armed")
	tests := []struct {
		name   string
		plan   Plan
		valid  bool
		failed int
		prefix int
		reason string
	}{
		{"valid", planOf("fetchMagazine", "reload"), true, -1, 2, ""},
		{"unknown action", planOf("fetchMagazine", "reloda"), false, 1, 1,
			`step 1 (reloda): the role Soldier has no action "reloda" (did you mean "reload"?)`},
		{"precondition fails", planOf("reload", "fetchMagazine"), false, 0, 0,
			`step 0 (reload): the precondition of "reload", magazines > 0, does not hold`},
		{"goal not reached", planOf("fetchMagazine"), false, 1, 1,
			"after step 0 the goal armed (ammo > 10) does not hold"},
		{"restricted", planOf("selfDestruct"), false, 0, 0, `step 0 (selfDestruct): action "selfDestruct" is restricted`},
		{"empty", planOf(), false, 0, 0, "the plan is empty and the goal armed (ammo > 10) does not hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Ground(d, st, armed, tt.plan)
			assert.Equal(t, tt.valid, g.Valid)
			assert.Equal(t, tt.failed, g.FailedStep)
			assert.Equal(t, tt.prefix, g.Prefix)
			assert.Equal(t, tt.reason, g.Reason)
			assert.Len(t, g.Actions, tt.prefix)
		})
	}
	g := Ground(d, st, armed, planOf("fetchMagazine", "reload"))
	assert.Equal(t, "30", g.End.Get(d.Schema, "ammo").String(), "the simulated end state")
	assert.Equal(t, "0", st.Get(d.Schema, "ammo").String(), "the start state is not modified")
	assert.True(t, Ground(d, st, nil, planOf("fetchMagazine")).Valid, "without a goal only the steps are checked")
}

func TestGroundingRuleFallbacks(t *testing.T) {
	d := soldier(t)
	rule := GroundingRule{Domain: d, State: d.NewState(), Goal: d.Goal("armed")}
	review := func(r GroundingRule, p Plan) Verdict {
		v, err := NewPlanApprovalGate(r.Review).Review(p)
		require.NoError(t, err)
		return v
	}
	v := review(rule, planOf("fetchMagazine", "reload"))
	assert.True(t, v.Approved)

	v = review(rule, planOf("fetchMagazine", "fly", "reload"))
	assert.False(t, v.Approved)
	assert.Equal(t, `step 1 (fly): the role Soldier has no action "fly"`, v.Reason)

	rule.OnInvalid = TrimToValidPrefix
	v = review(rule, planOf("fetchMagazine", "fly", "reload"))
	assert.True(t, v.Approved)
	assert.Equal(t, []string{"fetchMagazine"}, v.Plan.Actions(), "trimmed to the valid prefix")
	v = review(rule, planOf("fly"))
	assert.False(t, v.Approved)

	rule.OnInvalid = FallBackToGOAP
	v = review(rule, planOf("reload"))
	assert.True(t, v.Approved)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, v.Plan.Actions(), "the GOAP planner's plan for the goal")
	assert.Equal(t, "get armed", v.Plan.Goal)
	assert.Contains(t, v.Plan.Reasoning, "GOAP fallback: step 0 (reload)")
}

func TestCapabilitiesOfARole(t *testing.T) {
	d := soldier(t)
	assert.Equal(t, []Capability{
		{Name: "fetchMagazine", Description: "makes magazines = magazines + 1; cost 2"},
		{Name: "reload", Description: "needs magazines > 0; makes ammo = 30, magazines = magazines - 1; cost 1"},
	}, CapabilitiesOf(d), "restricted actions are left out")
}

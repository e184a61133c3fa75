package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// directDomain has one goal that several single actions reach: a forbidden
// one, one blocked by its precondition, and two that run, of which the
// cheaper wins; "fed" needs the money the first goal's step brings.
func directDomain(t *testing.T, workCost, tradeCost float64) *Domain {
	t.Helper()
	d, err := Compile(RoleSpec{Name: "Direct",
		State: []Var{{"money", num(0)}, {"key", expr.BoolValue(false)}, {"fed", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("rich", "money >= 10", High), NewGoal("fed", "fed", Normal)},
		Actions: []ActionSpec{
			NewAction("Rob").Authority("crime").Effects("money = 100").Cost(1).Spec(),
			NewAction("Beg").Pre("key").Effects("money = 10").Cost(2).Spec(),
			NewAction("Work").Effects("money = 10").Cost(workCost).Spec(),
			NewAction("Trade").Effects("money = 20").Cost(tradeCost).Spec(),
			NewAction("Eat").Pre("money >= 10").Effects("fed = true, money = money - 5").Cost(1).Spec(),
		},
	})
	require.NoError(t, err)
	return d
}

func TestWithoutChainingTheCheapestSingleActionWins(t *testing.T) {
	tests := []struct {
		name        string
		work, trade float64
		want        []string
		cost        float64
	}{
		{"the cheaper of two", 5, 4, []string{"Trade", "Eat"}, 5},
		{"the first of equals", 4, 4, []string{"Work", "Eat"}, 5},
		{"the cheaper first", 3, 4, []string{"Work", "Eat"}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := directDomain(t, tc.work, tc.trade)
			p := NewPlanner(d)
			p.Chaining, p.Policy = false, &Policy{}
			plan, err := p.Plan(d.NewState())
			require.NoError(t, err)
			assert.Equal(t, tc.want, plan.Names(), "Eat runs on the money the first goal's step brings")
			assert.Equal(t, tc.cost, plan.Cost)
		})
	}
}

func TestWithoutChainingALeftOutActionIsTheCause(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Direct",
		State: []Var{{"money", num(0)}, {"key", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("rich", "money >= 10", High)},
		Actions: []ActionSpec{
			NewAction("Beg").Pre("key").Effects("money = 10").Cost(2).Spec(),
			NewAction("Steal").Authority("crime").Pre("key").Effects("money = 50").Spec(),
			NewAction("Rob").Authority("crime").Effects("money = 100").Spec(),
			NewAction("Loot").Authority("crime").Effects("money = 100").Spec(),
		},
	})
	require.NoError(t, err)
	p := NewPlanner(d)
	p.Chaining, p.Policy = false, &Policy{}
	_, err = p.Plan(d.NewState())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, NotAuthorized, pe.Reason)
	assert.Equal(t, "Rob", pe.Action, "the first forbidden action that would serve, not Steal (blocked) or Loot (later)")

	p.Policy = &Policy{Authorities: []string{"crime"}}
	plan, err := p.Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"Rob"}, plan.Names())

	// Nothing runs: the blocked action is named, not the forbidden one.
	p.Policy = &Policy{}
	st := d.NewState()
	d2, err := Compile(RoleSpec{Name: "Direct",
		State: []Var{{"money", num(0)}, {"key", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("rich", "money >= 10", High)},
		Actions: []ActionSpec{
			NewAction("Steal").Authority("crime").Pre("key").Effects("money = 50").Spec(),
			NewAction("Beg").Pre("key").Effects("money = 10").Cost(2).Spec(),
		},
	})
	require.NoError(t, err)
	p = NewPlanner(d2)
	p.Chaining, p.Policy = false, &Policy{}
	_, err = p.Plan(st)
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, Unreachable, pe.Reason)
	assert.Equal(t, "Beg", pe.Action, "a forbidden blocked action is not named")
	assert.Equal(t, "key", pe.Precondition)
}

// PlanEach leaves out a goal that the steps planned before it satisfy.
func TestPlanEachLeavesOutAGoalTheEarlierStepsSatisfy(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "S",
		State: []Var{{"money", num(0)}},
		Goals: []GoalSpec{NewGoal("rich", "money >= 10", High), NewGoal("comfortable", "money >= 5", Normal)},
		Actions: []ActionSpec{
			NewAction("Work").Effects("money = money + 10").Spec(),
			NewAction("Odd").Effects("money = money + 5").Cost(5).Spec(),
		}})
	require.NoError(t, err)
	out := NewPlanner(d).PlanEach(d.NewState())
	require.Len(t, out, 1)
	assert.Equal(t, "rich", out[0].Goal.Name)
	assert.Equal(t, []string{"Work"}, names(out[0].Steps))
}

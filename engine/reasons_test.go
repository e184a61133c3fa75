package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// failOnce fails its first run and succeeds, making its effects true, after.
type failOnce struct{ runs *int }

func (b failOnce) Start(a *Agent, act *Action) (Task, error) {
	*b.runs++
	if *b.runs == 1 {
		return nil, errors.New("the tool broke")
	}
	return &ticksTask{b: ticksBody{n: 1}, a: a, act: act}, nil
}

func TestFailureReasonsNameTheRealCause(t *testing.T) {
	tests := []struct {
		name, reason string
		extra        []ActionSpec
		want         string // the plan-failed record after the failure
	}{
		{name: "only way backed off", reason: "Work is the only way and is backed off for 1 s",
			want: `BACKED_OFF: a plan exists only through action "Work", which is backed off after a failure (0.9 s left)`},
		{name: "not cyclic", reason: "Invest needs what it produces: without the back-off this read CYCLIC_PRECONDITION",
			extra: []ActionSpec{NewAction("Invest").Pre("rich").Effects("rich = true").Body(ticksBody{n: 1}).Spec()},
			want:  `BACKED_OFF: a plan exists only through action "Work", which is backed off after a failure (0.9 s left)`},
		{name: "not max depth", reason: "the long way round is too long: without the back-off this read MAX_DEPTH_EXCEEDED",
			extra: []ActionSpec{
				NewAction("Save").Effects("coins = coins + 1").Body(ticksBody{n: 1}).Spec(),
				NewAction("Buy").Pre("coins >= 20").Effects("rich = true").Body(ticksBody{n: 1}).Spec(),
			},
			want: `BACKED_OFF: a plan exists only through action "Work", which is backed off after a failure (0.9 s left)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs := 0
			w, a, tr := newWorld(t, RoleSpec{Name: "R",
				State:   []Var{{"rich", expr.BoolValue(false)}, {"coins", expr.NumberValue(0)}},
				Goals:   []GoalSpec{NewGoal("money", "rich", Normal)},
				Actions: append([]ActionSpec{NewAction("Work").Effects("rich = true").Body(failOnce{&runs}).Spec()}, tc.extra...)})
			for i := 0; i < 12; i++ {
				w.Tick(0.1)
			}
			assert.Equal(t, []string{"1 plan money", "1 fail Work", "2 plan-failed money", "11 plan money", "11 start Work", "11 finish Work"},
				tr.lines(record.EventPlan, record.EventPlanFailed, record.EventFail, record.EventStart, record.EventFinish), tc.reason)
			for _, e := range tr.events {
				if e.Kind == record.EventPlanFailed {
					assert.Equal(t, tc.want, e.Reason, tc.reason)
				}
			}
			assert.Equal(t, expr.BoolValue(true), a.Get("rich"))
		})
	}
}

func TestUnreachableNamesTheBlockingAction(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "S",
		State: []Var{{"ammo", expr.NumberValue(0)}, {"magazines", expr.NumberValue(0)}, {"at_crate", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("armed", "ammo > 10", Normal)},
		Actions: []ActionSpec{
			NewAction("reload").Pre("magazines > 0").Effects("ammo = ammo + 30, magazines = magazines - 1").Spec(),
			NewAction("fetchMagazine").Pre("at_crate").Effects("magazines = magazines + 1").Spec(),
		}})
	require.NoError(t, err)
	_, err = NewPlanner(d).Plan(d.NewState())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, Unreachable, pe.Reason)
	assert.Equal(t, "fetchMagazine", pe.Action, "reload waits on a magazine; what blocks the chain is fetchMagazine's at_crate")
	assert.Equal(t, "at_crate", pe.Precondition)
	assert.Equal(t, `the precondition of "fetchMagazine" never holds, so "reload" ("magazines > 0") can never run`, pe.Detail)
}

func TestPlanEachPlansThePossibleGoal(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "S",
		State: []Var{{"fed", expr.BoolValue(false)}, {"flying", expr.BoolValue(false)}, {"wings", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("fly", "flying", High), NewGoal("eat", "fed", Normal)},
		Actions: []ActionSpec{
			NewAction("Flap").Pre("wings").Effects("flying = true").Spec(),
			NewAction("Eat").Effects("fed = true").Cost(2).Spec(),
		}})
	require.NoError(t, err)
	p := NewPlanner(d)
	_, err = p.Plan(d.NewState())
	require.Error(t, err, "Plan stops at the first goal without a plan, as the seed's does")

	out := p.PlanEach(d.NewState())
	require.Len(t, out, 2)
	assert.Equal(t, "fly", out[0].Goal.Name)
	require.NotNil(t, out[0].Err)
	assert.Equal(t, Unreachable, out[0].Err.Reason)
	assert.Equal(t, "Flap", out[0].Err.Action)
	assert.Nil(t, out[0].Steps)
	assert.Equal(t, "eat", out[1].Goal.Name)
	assert.Nil(t, out[1].Err)
	assert.Equal(t, []string{"Eat"}, names(out[1].Steps))
	assert.Equal(t, 2.0, out[1].Cost)
}

func TestDeadEndNamesTheWrongWayMovers(t *testing.T) {
	const lead = "the goal's condition can never hold: no action can move its variables toward it, or the actions that do run out of a resource nothing restores"
	tests := []struct {
		name, reason string
		state        []Var
		goal         string
		actions      []ActionSpec
		note         string
	}{
		{name: "a number moved the other way", reason: "Spend and Tax only lower gold",
			state: []Var{{"gold", expr.NumberValue(0)}}, goal: "gold >= 10",
			actions: []ActionSpec{NewAction("Spend").Effects("gold = gold - 5").Spec(), NewAction("Tax").Effects("gold = gold - 1").Spec()},
			note:    ` ("gold": Spend, Tax only move it the other way)`},
		{name: "a mover that uses up a resource", reason: "Bake raises bread but needs wheat, which only Bake changes, downward",
			state: []Var{{"bread", expr.NumberValue(0)}, {"wheat", expr.NumberValue(0)}}, goal: "bread >= 2",
			actions: []ActionSpec{NewAction("Bake").Pre("wheat >= 2").Effects("bread = bread + 1, wheat = wheat - 2").Spec(),
				NewAction("Eat").Pre("bread > 0").Effects("bread = bread - 1").Spec()},
			note: ` ("bread": Bake uses up "wheat", which no action restores enough of)`},
		{name: "a flag nothing sets", reason: "Dig is a candidate (it writes tired), but nothing assigns rained",
			state: []Var{{"rained", expr.BoolValue(false)}, {"tired", expr.BoolValue(false)}}, goal: "rained && !tired",
			actions: []ActionSpec{NewAction("Dig").Effects("tired = true").Spec()},
			note:    ` (no action assigns "rained")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := planCase(t, tc.state, tc.goal, tc.actions...)
			var pe *PlanError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, Unreachable, pe.Reason, tc.reason)
			assert.Equal(t, lead+tc.note, pe.Detail, tc.reason)
		})
	}
}

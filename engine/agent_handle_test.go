package engine

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// fixedHandle is a custom planner handle: it always proposes the named
// steps for the goal, whatever the default planner would choose.
type fixedHandle struct {
	a     *Agent
	goal  string
	steps []string
	err   error
	asked *int
}

func (h fixedHandle) Plan() (*Plan, error) {
	*h.asked++
	if h.err != nil {
		return nil, h.err
	}
	var steps []*Action
	cost := 0.0
	for _, s := range h.steps {
		steps = append(steps, h.a.Domain.Action(s))
		cost += h.a.Domain.Action(s).Cost
	}
	return &Plan{Steps: steps, Cost: cost, Goals: []GoalPlan{{Goal: h.a.Domain.Goal(h.goal), Steps: steps, Cost: cost}}}, nil
}

func (h fixedHandle) PlanForGoal(name string) ([]*Action, error) {
	return nil, errors.New("engine: not used")
}
func (h fixedHandle) ExecutePlan(steps []string) (PlanResult, error) {
	return h.a.executePlan(steps)
}

func TestAPlannerHandleThatPlans(t *testing.T) {
	tests := []struct {
		name, reason string
		steps        []string
		err          error
		want         []string
	}{
		{name: "the handle's plan runs", reason: "the handle proposes the dearer Work; the tick runs it, not the default's cheaper Rob",
			steps: []string{"Work"}, want: []string{"1 plan money", "1 start Work", "2 finish Work", "3 idle "}},
		{name: "the handle's plan is checked", reason: "a restricted step in the handle's plan is refused, never run",
			steps: []string{"Rob"}, want: []string{"1 refused money"}},
		{name: "the handle fails", reason: "a handle's error is a plan-failed record",
			err: errors.New("engine: the oracle is asleep"), want: []string{"1 plan-failed "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, a, tr := newWorld(t, robOrWork(NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Spec()))
			a.Domain.Action("Rob").Restricted = tc.name == "the handle's plan is checked"
			asked := 0
			a.SetPlannerHandle(fixedHandle{a: a, goal: "money", steps: tc.steps, err: tc.err, asked: &asked})
			for i := 0; i < 4; i++ {
				w.Tick(0.1)
			}
			assert.Equal(t, tc.want, tr.lines(record.EventPlan, record.EventPlanFailed, record.EventRefused, record.EventStart, record.EventFinish, record.EventIdle), tc.reason)
			assert.GreaterOrEqual(t, asked, 1, "the tick asked the handle")
		})
	}
}

func TestPlanningOffDoesNotRepickAfterTheGoal(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"fed", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("eat", "fed", Normal)},
		Actions: []ActionSpec{NewAction("Eat").Effects("fed = true").Body(ticksBody{n: 1}).Spec()}})
	a.SetPlannerHandle(nil) // what the command line and the demo do for MOONMIND_GOAP=off
	for i := 0; i < 10; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 pick Eat", "1 start Eat", "1 finish Eat"}, tr.lines(record.EventPick, record.EventStart, record.EventFinish),
		"without a planner the goap role picks while its goal is unmet, then stops (it re-picked Eat every tick)")
}

// TestAHandlesPlanWithABackedOffStepIsRefusedWithTheTimeLeft: a step
// that failed is backed off for RetryDelay; a planner handle's plan that
// has it meanwhile is refused, naming the seconds left of the back-off.
func TestAHandlesPlanWithABackedOffStepIsRefusedWithTheTimeLeft(t *testing.T) {
	failing := BodyFunc(func(*Agent, *Action) (Status, error) { return Failed, errors.New("no work today") })
	w, a, tr := newWorld(t, robOrWork(NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Spec()))
	a.Domain.Action("Work").Body = failing
	a.RetryDelay = 2
	asked := 0
	a.SetPlannerHandle(fixedHandle{a: a, goal: "money", steps: []string{"Work"}, asked: &asked})
	for range 6 {
		w.Tick(0.5)
	}
	var reasons []string
	for _, e := range tr.events {
		if e.Kind == record.EventFail || e.Kind == record.EventRefused {
			reasons = append(reasons, fmt.Sprintf("%g %s: %s", e.Time, e.Kind, e.Reason))
		}
	}
	assert.Equal(t, []string{
		"0 fail: no work today",
		"0.5 refused: action Work is backed off for 1.5 s after a failure",
		"2 fail: no work today",
		"2.5 refused: action Work is backed off for 1.5 s after a failure",
	}, reasons, "refused while backed off; asked again when the back-off ends")
}

// TestAHandlesPlanIsPursuedAndItsPlanErrorRecorded: the goal of a plan a
// handle gives is the goal the agent pursues (a snapshot names it); a
// handle's *PlanError is a plan-failed record with its goal and reason.
func TestAHandlesPlanIsPursuedAndItsPlanErrorRecorded(t *testing.T) {
	w, a, _ := newWorld(t, robOrWork(NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Spec()))
	asked := 0
	a.SetPlannerHandle(fixedHandle{a: a, goal: "money", steps: []string{"Work"}, asked: &asked})
	w.Tick(0.1)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	assert.Contains(t, buf.String(), `"pursuit": "money"`)

	w, a, tr := newWorld(t, robOrWork(NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Spec()))
	a.SetPlannerHandle(fixedHandle{a: a, asked: &asked,
		err: &PlanError{Reason: Unreachable, Goal: "money", Detail: "the bank is closed"}})
	w.Tick(0.1)
	var failed []string
	for _, e := range tr.events {
		if e.Kind == record.EventPlanFailed {
			failed = append(failed, e.Goal+": "+e.Reason)
		}
	}
	assert.Equal(t, []string{"money: UNREACHABLE: the bank is closed"}, failed)
}

// TestAHandlesPlanWithAnotherDomainsActionFails: a step of another
// domain, even one whose index is past this domain's actions, makes the
// handle's plan fail with a record naming it.
func TestAHandlesPlanWithAnotherDomainsActionFails(t *testing.T) {
	w, a, tr := newWorld(t, robOrWork(NewAction("Rob").Effects("rich = true").Body(ticksBody{n: 1}).Spec()))
	other := compileRoles(t, RoleSpec{Name: "Other", Actions: []ActionSpec{{Name: "A"}, {Name: "B"}, {Name: "Steal"}}})
	require.Len(t, a.Domain.Actions, 2)
	steal := other.Action("Steal")
	require.Equal(t, 2, steal.Index, "one past the agent's actions")
	a.SetPlannerHandle(stepsHandle{goal: a.Domain.Goal("money"), steps: []*Action{steal}})
	w.Tick(0.1)
	assert.Equal(t, []string{"1 plan-failed money"}, tr.lines(record.EventPlanFailed, record.EventPlan, record.EventStart))
	assert.Equal(t, "the planner handle's plan has action Steal, which is not one of the agent's", tr.events[0].Reason)
}

// stepsHandle is a planner handle whose plan is the given steps for goal.
type stepsHandle struct {
	goal  *Goal
	steps []*Action
}

func (h stepsHandle) Plan() (*Plan, error) {
	return &Plan{Steps: h.steps, Goals: []GoalPlan{{Goal: h.goal, Steps: h.steps}}}, nil
}
func (h stepsHandle) PlanForGoal(string) ([]*Action, error) {
	return nil, errors.New("engine: not used")
}
func (h stepsHandle) ExecutePlan([]string) (PlanResult, error) {
	return PlanResult{}, errors.New("engine: not used")
}

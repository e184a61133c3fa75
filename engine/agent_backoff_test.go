package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestAnIdleAgentWakesWhenTheFirstBackOffEnds: both ways to the goal
// failed and are backed off, the cheap one for 1 s, the dear one for
// 0.3 s. The planner names only the cheap one (the best plan goes through
// it), yet the agent, with no plan and an unchanged state, must ask again
// as soon as the dear one may run (t = 0.4), not when the cheap one may
// (t = 1).
func TestAnIdleAgentWakesWhenTheFirstBackOffEnds(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{
			NewAction("Cheap").Effects("done = true").Body(ticksBody{n: 1, fail: true}).Spec(),
			NewAction("Dear").Effects("done = true").Cost(5).Body(ticksBody{n: 1, fail: true}).Spec(),
		}})
	a.RetryDelay = 1
	w.Tick(0.1) // t = 0: Cheap fails, backed off until t = 1
	a.RetryDelay = 0.3
	for range 5 { // t = 0.1: Dear fails, backed off until t = 0.4
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 start Cheap", "1 fail Cheap", "2 start Dear", "2 fail Dear", "3 plan-failed g", "5 start Dear", "5 fail Dear", "6 plan-failed g"},
		tr.lines(record.EventStart, record.EventFail, record.EventPlanFailed))
}

// TestMessagesRoundWaitsToTheirDecimals: the waits a message names are
// rounded to the decimals asked for, half up.
func TestMessagesRoundWaitsToTheirDecimals(t *testing.T) {
	assert.Equal(t, 0.935, roundTo(0.93456, 3))
	assert.Equal(t, 0.9, roundTo(0.9, 3))
	assert.Equal(t, 2.0, roundTo(1.5, 0))
	assert.Equal(t, 0.0, roundTo(0.0004, 3))
}

// TestBrokenPromisesCountUpTo255: the count of an action's broken
// promises in a row stops at 255, so the action stays backed off at every
// later one.
func TestBrokenPromisesCountUpTo255(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Try").Effects("done = true").Body(ticksBody{n: 1}).Spec()}})
	require.NoError(t, err)
	a := NewAgent("a", d)
	act := d.Action("Try")
	var last string
	for range 300 {
		last = a.notePromise(act, true)
	}
	assert.Equal(t, "backed off for 1 s after 255 broken promises in a row", last)
	assert.Empty(t, a.notePromise(act, false))
	assert.Empty(t, a.notePromise(act, true), "kept once: the count starts again")
}

package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestABackOffEndsAtItsTimeAndANoRerunActionIsNotRunTwice: Prep may run
// once per goal (NoRerun) and is a candidate for it (it writes a variable
// the goal reads); its first start fails and backs it off for 1e-9 s. The world's clock stands still (dt 0), so the back-off ends at
// once: a back-off is over when the clock is within 1e-9 s of its end,
// and then Prep is planned again, with nothing left out. Once Prep ran,
// a plan that needs it again fails with CANNOT_RERUN (not BACKED_OFF),
// although its back-off ended exactly at the time of asking.
func TestABackOffEndsAtItsTimeAndANoRerunActionIsNotRunTwice(t *testing.T) {
	runs := 0
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"a", expr.BoolValue(false)}, {"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("g", "a and done", Normal)},
		Actions: []ActionSpec{
			NewAction("Prep").Effects("a = true").NoRerun().Body(failOnce{&runs}).Spec(),
			NewAction("Use").Pre("a").Effects("done = true").Body(ticksBody{n: 1}).Spec(),
		}})
	a.RetryDelay = 1e-9
	w.Tick(0) // Prep fails: backed off until 0 + 1e-9
	w.Tick(0) // the back-off is over: Prep runs and finishes
	require.Equal(t, expr.BoolValue(true), a.Get("a"))
	require.True(t, a.Set("a", expr.BoolValue(false)))
	w.Tick(0) // Use may not start; the only way is through Prep, which ran
	assert.Equal(t, []string{"1 plan g", "1 fail Prep", "2 plan g", "2 finish Prep", "3 plan-failed g"},
		tr.lines(record.EventPlan, record.EventFail, record.EventFinish, record.EventPlanFailed))
	for _, e := range tr.events {
		switch e.Kind {
		case record.EventPlan:
			assert.Empty(t, e.Reason, "tick %d: nothing is left out of the plan", e.Tick)
		case record.EventPlanFailed:
			assert.Equal(t, `CANNOT_RERUN: a plan exists only through action "Prep", which already ran while this goal is pursued and cannot run again (can_rerun = false)`, e.Reason)
		}
	}
}

// TestAnAgentWithNoPlanAsksAgainWhenItsBackOffEndsWithinTheTolerance:
// Work, the only way to the goal, fails at 0 s and is backed off for
// 1 + 1e-9 s; the agent, left with no plan, asks again once its clock is
// within 1e-9 s of the back-off's end (at 1 s), not a tick later.
func TestAnAgentWithNoPlanAsksAgainWhenItsBackOffEndsWithinTheTolerance(t *testing.T) {
	runs := 0
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Work").Effects("done = true").Body(failOnce{&runs}).Spec()}})
	a.RetryDelay = 1 + 1e-9
	w.Tick(0.5) // Work fails at 0 s: backed off until 1 + 1e-9 s
	w.Tick(0.5) // at 0.5 s: no plan
	require.Equal(t, a.RetryDelay, a.Time()+1e-9, "the next tick is within 1e-9 s of the back-off's end")
	w.Tick(0.5)
	assert.Equal(t, []string{"1 plan g", "1 fail Work", "2 plan-failed g", "3 plan g"},
		tr.lines(record.EventPlan, record.EventFail, record.EventPlanFailed))
}

// TestABackOffOverAtTheTimeOfAskingIsNoReasonToAskAgain: Work fails and
// is backed off for 1e-9 s while the clock stands still, so its back-off
// is already over at the next tick, where the world has taken the tool
// Work needs and no plan is found; the agent then asks again only when
// the state changes, not at every tick for a back-off that has ended.
func TestABackOffOverAtTheTimeOfAskingIsNoReasonToAskAgain(t *testing.T) {
	runs := 0
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"tool", expr.BoolValue(true)}, {"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Work").Pre("tool").Effects("done = true").Body(failOnce{&runs}).Spec()}})
	a.RetryDelay = 1e-9
	w.Tick(0) // Work fails: backed off until 0 + 1e-9 s
	require.True(t, a.Set("tool", expr.BoolValue(false)))
	w.Tick(0) // no plan; Work's back-off is over
	w.Tick(0)
	w.Tick(0)
	require.True(t, a.Set("tool", expr.BoolValue(true)))
	w.Tick(0)
	assert.Equal(t, []string{"1 plan g", "1 fail Work", "2 plan-failed g", "5 plan g"},
		tr.lines(record.EventPlan, record.EventFail, record.EventPlanFailed))
}

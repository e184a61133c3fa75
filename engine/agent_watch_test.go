package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestTheWholePlanIsWatched(t *testing.T) { watchTable(t, 0, 7, nil) }

// watchTable runs the plan watch's cases in a world with the given plan
// budget for ticks ticks; want, when given, replaces each case's expected
// records (by case name).
func watchTable(t *testing.T, budget, ticks int, want map[string][]string) {
	role := RoleSpec{Name: "R",
		State: []Var{{"inside", expr.BoolValue(false)}, {"has_key", expr.BoolValue(false)}, {"front_open", expr.BoolValue(true)},
			{"back_open", expr.BoolValue(true)}, {"ladder", expr.BoolValue(true)}},
		Goals: []GoalSpec{NewGoal("in", "inside", Normal)},
	}
	tests := []struct {
		name, reason string
		actions      func(interrupted *int) []ActionSpec
		change       string // the variable the world sets false (or inside: true) after tick 2
		want         []string
		interrupted  int
	}{
		{name: "the world achieves the goal", reason: "inside becomes true while FetchKey runs: it ends at once, interrupted",
			actions: func(n *int) []ActionSpec {
				return []ActionSpec{
					NewAction("FetchKey").Effects("has_key = true").Body(ticksBody{n: 5, interrupted: n}).Spec(),
					NewAction("UseFront").Pre("has_key && front_open").Effects("inside = true").Body(ticksBody{n: 1}).Spec(),
				}
			},
			change: "inside", interrupted: 1,
			want: []string{"1 plan in", "1 start FetchKey", "3 interrupt FetchKey", "3 idle "}},
		{name: "a later step cannot run: another plan", reason: "the front closes; the ladder is the other way: FetchKey stops, Climb starts in the same tick",
			actions: func(n *int) []ActionSpec {
				return []ActionSpec{
					NewAction("FetchKey").Effects("has_key = true").Body(ticksBody{n: 5, interrupted: n}).Spec(),
					NewAction("UseFront").Pre("has_key && front_open").Effects("inside = true").Body(ticksBody{n: 1}).Spec(),
					NewAction("Climb").Pre("ladder").Effects("inside = true").Cost(10).Body(ticksBody{n: 1}).Spec(),
				}
			},
			change: "front_open", interrupted: 1,
			want: []string{"1 plan in", "1 start FetchKey", "3 interrupt FetchKey", "3 plan in", "3 start Climb", "3 finish Climb", "4 idle "}},
		{name: "the new plan begins with the running action", reason: "the front closes, the back is open: FetchKey goes on, not restarted, and finishes on time",
			actions: func(n *int) []ActionSpec {
				return []ActionSpec{
					NewAction("FetchKey").Effects("has_key = true").Body(ticksBody{n: 5, interrupted: n}).Spec(),
					NewAction("UseFront").Pre("has_key && front_open").Effects("inside = true").Body(ticksBody{n: 1}).Spec(),
					NewAction("UseBack").Pre("has_key && back_open").Effects("inside = true").Cost(3).Body(ticksBody{n: 1}).Spec(),
				}
			},
			change: "front_open",
			want:   []string{"1 plan in", "1 start FetchKey", "3 replan FetchKey", "5 finish FetchKey", "6 start UseBack", "6 finish UseBack", "7 idle "}},
		{name: "no other plan", reason: "the front closes and there is no other way: FetchKey goes on; the plan fails only when UseFront is due",
			actions: func(n *int) []ActionSpec {
				return []ActionSpec{
					NewAction("FetchKey").Effects("has_key = true").Body(ticksBody{n: 5, interrupted: n}).Spec(),
					NewAction("UseFront").Pre("has_key && front_open").Effects("inside = true").Body(ticksBody{n: 1}).Spec(),
				}
			},
			change: "front_open",
			want:   []string{"1 plan in", "1 start FetchKey", "5 finish FetchKey", "6 replan UseFront", "6 plan-failed in"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			interrupted := 0
			r := role
			r.Actions = tc.actions(&interrupted)
			w, a, tr := newWorld(t, r)
			w.PlanBudget = budget
			if want != nil {
				tc.want = want[tc.name]
			}
			for i := 0; i < ticks; i++ {
				if i == 2 {
					a.Set(tc.change, expr.BoolValue(tc.change == "inside"))
				}
				w.Tick(0.1)
			}
			assert.Equal(t, tc.want, tr.lines(record.EventPlan, record.EventPlanFailed, record.EventStart, record.EventFinish, record.EventInterrupt, record.EventReplan, record.EventIdle), tc.reason)
			assert.Equal(t, tc.interrupted, interrupted, "on_interrupt runs: %s", tc.reason)
		})
	}
}

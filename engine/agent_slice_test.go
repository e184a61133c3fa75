package engine

import "testing"

// TestTheWholePlanIsWatchedUnderABudget: the plan watch's cases with a
// plan budget. The probe plans in the tick of the change (3) and the agent
// acts on its plan in the next (4); every plan starts the tick after it is
// found.
func TestTheWholePlanIsWatchedUnderABudget(t *testing.T) {
	watchTable(t, 1000, 8, map[string][]string{
		"the world achieves the goal": {"1 plan in", "2 start FetchKey", "3 interrupt FetchKey", "3 idle "},
		"a later step cannot run: another plan": {"1 plan in", "2 start FetchKey", "4 interrupt FetchKey", "4 plan in",
			"4 start Climb", "4 finish Climb", "5 idle "},
		"the new plan begins with the running action": {"1 plan in", "2 start FetchKey", "4 replan FetchKey",
			"6 finish FetchKey", "7 start UseBack", "7 finish UseBack", "8 idle "},
		"no other plan": {"1 plan in", "2 start FetchKey", "6 finish FetchKey", "7 replan UseFront", "7 plan-failed in"},
	})
}

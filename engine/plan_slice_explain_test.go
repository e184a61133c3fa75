package engine

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// explainRoles are roles whose goal has no plan, one per failure reason
// whose explanation needs searches of its own, with the planner depth
// limit each runs at and the reason's expected start.
func explainRoles() []struct {
	name, reason string
	role         RoleSpec
	maxDepth     int
} {
	chain := chainRole("")
	return []struct {
		name, reason string
		role         RoleSpec
		maxDepth     int
	}{
		{name: "unreachable", reason: "UNREACHABLE", maxDepth: DefaultMaxDepth, role: RoleSpec{Name: "U",
			State: []Var{{"a", expr.BoolValue(false)}, {"b", expr.BoolValue(false)}, {"c", expr.BoolValue(false)},
				{"key", expr.BoolValue(false)}, {"done", expr.BoolValue(false)}},
			Goals: []GoalSpec{NewGoal("g", "done", Normal)},
			Actions: []ActionSpec{
				NewAction("A").Effects("a = true").Body(ticksBody{n: 1}).Spec(),
				NewAction("B").Pre("a").Effects("b = true").Body(ticksBody{n: 1}).Spec(),
				NewAction("C").Pre("b").Effects("c = true").Body(ticksBody{n: 1}).Spec(),
				NewAction("Finish").Pre("c && key").Effects("done = true").Body(ticksBody{n: 1}).Spec(),
			}}},
		{name: "beyond max depth", reason: "MAX_DEPTH_EXCEEDED: a plan of 6 steps exists", maxDepth: 3, role: chain},
		{name: "beyond max depth, last step not authorized", reason: "UNREACHABLE", maxDepth: 3, role: chainRole("crime")},
		{name: "backed off", reason: `BACKED_OFF`, maxDepth: DefaultMaxDepth, role: RoleSpec{Name: "B",
			State: []Var{{"a", expr.BoolValue(false)}, {"b", expr.BoolValue(false)}, {"done", expr.BoolValue(false)}},
			Goals: []GoalSpec{NewGoal("g", "done", Normal)},
			Actions: []ActionSpec{
				NewAction("A").Effects("a = true").Body(ticksBody{n: 1}).Spec(),
				NewAction("B").Pre("a").Effects("b = true").Body(ticksBody{n: 1}).Spec(),
				NewAction("Finish").Pre("b").Effects("done = true").Body(ticksBody{n: 1, fail: true}).Spec(),
			}}},
		{name: "not authorized", reason: `NOT_AUTHORIZED`, maxDepth: DefaultMaxDepth, role: RoleSpec{Name: "R",
			State: []Var{{"cased", expr.BoolValue(false)}, {"rich", expr.BoolValue(false)}},
			Goals: []GoalSpec{NewGoal("money", "rich", Normal)},
			Actions: []ActionSpec{
				NewAction("Case").Effects("cased = true").Body(ticksBody{n: 1}).Spec(),
				NewAction("Rob").Pre("cased").Effects("rich = true").Authority("crime").Body(ticksBody{n: 1}).Spec(),
			}}},
	}
}

// chainRole is a role whose goal, s6, needs the six steps S1..S6 in
// order; S6 needs authority when one is given (none is granted).
func chainRole(authority string) RoleSpec {
	chain := RoleSpec{Name: "Chain", Goals: []GoalSpec{NewGoal("top", "s6", Normal)}}
	for i := 1; i <= 6; i++ {
		chain.State = append(chain.State, Var{fmt.Sprintf("s%d", i), expr.BoolValue(false)})
		a := NewAction(fmt.Sprintf("S%d", i)).Effects(fmt.Sprintf("s%d = true", i)).Body(ticksBody{n: 1})
		if i > 1 {
			a = a.Pre(fmt.Sprintf("s%d", i-1))
		}
		if i == 6 && authority != "" {
			a = a.Authority(authority)
		}
		chain.Actions = append(chain.Actions, a.Spec())
	}
	return chain
}

// timeLeft is the back-off's time left in a reason: a sliced failure is
// explained some ticks later, when less of it is left.
var timeLeft = regexp.MustCompile(` \([0-9.]+ s left\)$`)

// explainRun ticks one agent of role under budget for ticks ticks and
// returns its first plan-failed reason and what each tick spent.
func explainRun(t *testing.T, role RoleSpec, maxDepth, budget, ticks int) (string, []int) {
	t.Helper()
	d, err := Compile(role)
	require.NoError(t, err)
	w := NewWorld(7)
	w.PlanBudget = budget
	var reason string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPlanFailed && reason == "" {
			reason = e.Reason
		}
	}
	a := NewAgent("npc", d)
	a.Planner().MaxDepth = maxDepth
	w.Add(a)
	var spent []int
	for range ticks {
		w.Tick(0.1)
		spent = append(spent, w.PlanExpansions())
	}
	return timeLeft.ReplaceAllString(reason, ""), spent
}

// TestFailureExplanationsStayWithinTheBudget: the searches that explain a
// failure count against the plan budget and are suspended like the main
// search, so no tick spends more than the budget, no expansion is spent
// twice, and the reason is the unsliced one.
func TestFailureExplanationsStayWithinTheBudget(t *testing.T) {
	const ticks = 60
	for _, tc := range explainRoles() {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := explainRun(t, tc.role, tc.maxDepth, 0, ticks)
			require.True(t, strings.HasPrefix(want, tc.reason), "unsliced reason %q", want)
			_, all := explainRun(t, tc.role, tc.maxDepth, 1<<20, ticks)
			total := 0
			for _, s := range all {
				total += s
			}
			require.Greater(t, total, 1, "the failure costs more than one expansion")
			for _, budget := range []int{1, 3, 7} {
				got, spent := explainRun(t, tc.role, tc.maxDepth, budget, ticks)
				assert.Equal(t, want, got, "budget %d: the same reason as unsliced", budget)
				sum := 0
				for i, s := range spent {
					sum += s
					assert.LessOrEqual(t, float64(s), float64(budget)*1.1, "budget %d: tick %d spent %d", budget, i+1, s)
				}
				assert.Equal(t, total, sum, "budget %d: every expansion is spent once (spent per tick %v)", budget, spent)
			}
		})
	}
}

// TestSuspendedExplanationRestartsWhenTheStateChanges: a variable the
// main search reads changes while the depth-256 search that explains its
// failure is suspended; the whole chain starts again from the new state
// and the reason is the one for that state.
func TestSuspendedExplanationRestartsWhenTheStateChanges(t *testing.T) {
	d, err := Compile(chainRole(""))
	require.NoError(t, err)
	w := NewWorld(7)
	w.PlanBudget = 1
	tr := &trace{}
	w.OnEvent = tr.add
	a := NewAgent("npc", d)
	a.Planner().MaxDepth = 3
	w.Add(a)
	// The main search takes ticks 1-3 (3 expansions), the depth-256
	// search 6 more from tick 4.
	for range 5 {
		w.Tick(0.1)
	}
	require.Empty(t, tr.lines(record.EventPlanFailed), "the explanation is still under way")
	require.True(t, a.Set("s1", expr.BoolValue(true)))
	var resumed []string
	for range 20 {
		w.Tick(0.1)
	}
	for _, e := range tr.events {
		if e.Kind == record.EventPlanResumed {
			resumed = append(resumed, e.Reason)
		}
		assert.LessOrEqual(t, e.Expansions, 9, "no search of the chain outgrows the unsliced one")
	}
	assert.Contains(t, resumed, `restarted: variable "s1" changed since the search began`)
	var fails []string
	for _, e := range tr.events {
		if e.Kind == record.EventPlanFailed {
			fails = append(fails, e.Reason)
		}
	}
	require.Len(t, fails, 1)
	assert.Equal(t, "MAX_DEPTH_EXCEEDED: a plan of 5 steps exists, beyond maxDepth 3", fails[0])
}

// TestSuspendedExplanationRecords: the records of a suspended explanation
// count the expansions of the goal's whole chain (here 3 for the main
// search at depth 3, then the depth-256 search's 6).
func TestSuspendedExplanationRecords(t *testing.T) {
	d, err := Compile(chainRole(""))
	require.NoError(t, err)
	w := NewWorld(7)
	w.PlanBudget = 3
	var got []string
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventPlanSuspended, record.EventPlanResumed, record.EventPlanFailed:
			got = append(got, fmt.Sprintf("%d %s %d", e.Tick, e.Kind, e.Expansions))
		}
	}
	a := NewAgent("npc", d)
	a.Planner().MaxDepth = 3
	w.Add(a)
	for range 5 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{
		"1 plan-suspended 3", // the main search failed; the depth-256 search has no budget left
		"2 plan-resumed 3", "2 plan-suspended 6",
		"3 plan-resumed 6", "3 plan-failed 0",
	}, got)
}

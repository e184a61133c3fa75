package engine_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/internal/plancases"
)

// slicedDomain compiles a planner case with every action's body making
// its effects true in one tick, so agents run the plans they get.
func slicedDomain(t testing.TB, c plancases.PlannerCase) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(c.Role)
	require.NoError(t, err)
	for _, a := range d.Actions {
		a.Body = engine.BodyFunc(engine.ApplyEffects)
	}
	return d
}

// recorded collects a world's records.
type recorded struct{ events []record.Event }

func (r *recorded) on(e record.Event) { r.events = append(r.events, e) }

func (r *recorded) kind(k record.EventKind) []record.Event {
	var out []record.Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// firstPlan ticks w (at most limit ticks) until agent a has a plan
// record, and returns it with the tick it came in.
func firstPlan(t *testing.T, w *engine.World, r *recorded, name string, limit int) record.Event {
	t.Helper()
	for range limit {
		w.Tick(1.0 / 60)
		for _, e := range r.events {
			if e.Kind == record.EventPlan && e.Agent == name {
				return e
			}
		}
	}
	require.FailNow(t, "no plan", "agent %s found no plan within %d ticks", name, limit)
	return record.Event{}
}

func TestSlicedSearchFindsTheUnslicedPlan(t *testing.T) {
	cases := []plancases.PlannerCase{plancases.Deep(), plancases.Soldier(), plancases.Maze(), plancases.Synthetic100(),
		plancases.Synthetic(10, 6), plancases.MazeFacts()}
	for _, c := range cases {
		d := slicedDomain(t, c)
		want, err := plannerAt(d, c.MaxDepth).Plan(d.NewState())
		require.NoError(t, err, c.Name)
		require.Greater(t, want.Expansions, 1, c.Name)
		for _, budget := range []int{1, 3, 7, 64, 1 << 20} {
			t.Run(fmt.Sprintf("%s/budget%d", c.Name, budget), func(t *testing.T) {
				w, r, _ := slicedAgent(d, budget, c.MaxDepth)
				e := firstPlan(t, w, r, "a", want.Expansions+2)
				assert.Equal(t, want.Names(), e.Plan, "the same plan as one search")
				assert.Equal(t, want.Cost, e.Cost)
				assert.Equal(t, want.Expansions, e.Expansions, "the same expansions, over all slices")
				// One tick per budget's worth of expansions: ceil(E / budget).
				ticks := (want.Expansions + budget - 1) / budget
				assert.Equal(t, ticks, e.Tick, "the tick the plan is found")
				sus := r.kind(record.EventPlanSuspended)
				res := r.kind(record.EventPlanResumed)
				assert.Len(t, sus, ticks-1, "suspended once per tick but the last")
				assert.Len(t, res, ticks-1, "resumed once per tick but the first")
				for i, s := range sus {
					assert.Equal(t, (i+1)*budget, s.Expansions, "expansions so far at suspension %d", i+1)
					assert.Contains(t, s.Reason, "queue position 1 of 1")
				}
				for i, s := range res {
					assert.Equal(t, (i+1)*budget, s.Expansions, "expansions before resumption %d", i+1)
					assert.Equal(t, resumedAfter(i+1), s.Reason, "suspended since the first slice")
				}
				// The plan starts the tick after it is found.
				w.Tick(1.0 / 60)
				starts := r.kind(record.EventStart)
				require.NotEmpty(t, starts)
				assert.Equal(t, ticks+1, starts[0].Tick)
				assert.Equal(t, want.Steps[0].Name, starts[0].Action)
			})
		}
	}
}

// deepWithNoise is the deep domain with a variable no condition or effect
// reads.
func deepWithNoise() plancases.PlannerCase {
	c := plancases.Deep()
	c.Role.State = append(c.Role.State, engine.Var{Name: "noise", Value: expr.NumberValue(0)})
	return c
}

func TestSlicedSearchRestartsWhenARelevantVariableChanges(t *testing.T) {
	c := deepWithNoise()
	d := slicedDomain(t, c)
	tests := []struct {
		name, reason string
		set          string
		v            expr.Value
		restart      string
	}{
		{"relevant", "food is read by the goal: the search starts again from the new state",
			"food", expr.NumberValue(40), `restarted: variable "food" changed since the search began`},
		{"irrelevant", "noise is read by nothing: the search goes on", "noise", expr.NumberValue(7), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, r, a := slicedAgent(d, 5, c.MaxDepth)
			w.Tick(1.0 / 60)
			require.Len(t, r.kind(record.EventPlanSuspended), 1, "suspended after the first tick")
			require.True(t, a.Set(tt.set, tt.v))
			want, err := plannerAt(d, c.MaxDepth).Plan(a.State)
			require.NoError(t, err)
			e := firstPlan(t, w, r, "a", 200)
			assert.Equal(t, want.Names(), e.Plan, tt.reason)
			res := r.kind(record.EventPlanResumed)
			require.NotEmpty(t, res)
			if tt.restart != "" {
				assert.Equal(t, tt.restart, res[0].Reason, tt.reason)
				assert.Equal(t, 0, res[0].Expansions)
				assert.Equal(t, want.Expansions, e.Expansions, "expansions count from the restart")
			} else {
				for _, x := range res {
					assert.NotContains(t, x.Reason, "restarted", tt.reason)
				}
			}
		})
	}
}

func TestAgentIdlesWhileItsPlanIsQueued(t *testing.T) {
	d := slicedDomain(t, plancases.Deep())
	w, r, a := slicedAgent(d, 2, 20)
	for range 3 {
		w.Tick(1.0 / 60)
		assert.Nil(t, a.Running(), "no step runs while the search is suspended")
		assert.Empty(t, a.CurrentPlan())
		assert.Equal(t, 1, w.PlanQueue())
	}
	assert.Empty(t, r.kind(record.EventStart))
	assert.Empty(t, r.kind(record.EventPick))
}

// TestRunningStepGoesOnWhileAGoalIsQueued: the queue never touches a
// running step or a plan being carried out: an agent with a plan runs it
// step by step while another agent's search is suspended for lack of
// budget.
func TestRunningStepGoesOnWhileAGoalIsQueued(t *testing.T) {
	d := slicedDomain(t, plancases.Soldier())
	d.Action("fetchMagazine").Body = &slowBody{n: 3} // 3 ticks
	deep := slicedDomain(t, plancases.Deep())
	w := engine.NewWorld(1)
	w.PlanBudget = 100
	r := &recorded{}
	w.OnEvent = r.on
	a := engine.NewAgent("a", d)
	w.Add(a)
	w.Tick(1.0 / 60) // a's plan is found at the end of tick 1
	require.Len(t, r.kind(record.EventPlan), 1)
	w.PlanBudget = 1
	b := engine.NewAgent("b", deep)
	b.Planner().MaxDepth = 20
	w.Add(b)
	for range 5 {
		w.Tick(1.0 / 60)
		assert.Equal(t, 1, w.PlanQueue(), "b waits")
	}
	var got []string
	for _, e := range r.events {
		if e.Agent == "a" && (e.Kind == record.EventStart || e.Kind == record.EventFinish) {
			got = append(got, fmt.Sprintf("%d %s %s", e.Tick, e.Kind, e.Action))
		}
	}
	assert.Equal(t, []string{"2 start fetchMagazine", "4 finish fetchMagazine", "5 start reload", "5 finish reload"}, got)
	assert.NotEmpty(t, r.kind(record.EventPlanSuspended), "b's search is suspended meanwhile")
}

type slowBody struct{ n int }

type slowTask struct {
	left int
	a    *engine.Agent
	act  *engine.Action
}

func (b *slowBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &slowTask{left: b.n, a: a, act: act}, nil
}

func (t *slowTask) Resume(float64) (engine.Status, error) {
	t.left--
	if t.left > 0 {
		return engine.Running, nil
	}
	return engine.ApplyEffects(t.a, t.act)
}

func (t *slowTask) Interrupt() {}

// queueTrace runs n deep agents under the budget with the given workers
// and returns the plan, suspension and resumption records.
func queueTrace(t *testing.T, d *engine.Domain, n, budget, workers, ticks int) []string {
	w := engine.NewWorld(3)
	w.Workers = workers
	w.PlanBudget = budget
	var out []string
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventPlan, record.EventPlanSuspended, record.EventPlanResumed:
			out = append(out, fmt.Sprintf("%d %s %s %d %s", e.Tick, e.Agent, e.Kind, e.Expansions, e.Reason))
		}
	}
	for i := range n {
		a := engine.NewAgent(fmt.Sprintf("a%02d", i), d)
		a.Planner().MaxDepth = 20
		w.Add(a)
	}
	for range ticks {
		w.Tick(1.0 / 60)
		assert.LessOrEqual(t, w.PlanExpansions(), budget)
	}
	return out
}

func TestPlanQueueIsRoundRobinAndTheSameWithAnyWorkers(t *testing.T) {
	d := slicedDomain(t, plancases.Deep())
	one := queueTrace(t, d, 12, 10, 1, 60)
	four := queueTrace(t, d, 12, 10, 4, 60)
	assert.Equal(t, one, four, "the same queue with 1 and 4 workers")
	// Plans come in agent order: a suspended search goes on first, then
	// the next agent by ID.
	var order []string
	for _, line := range one {
		if f := strings.Fields(line); f[2] == "plan" {
			order = append(order, f[1])
		}
	}
	want := []string{"a00", "a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09", "a10", "a11"}
	require.GreaterOrEqual(t, len(order), len(want))
	assert.Equal(t, want, order[:len(want)], "round-robin by ID: no agent starves")
	// 12 searches of E expansions at 10 a tick: the last plan comes in
	// tick ceil(12*E/10).
	want1, err := plannerAt(d, 20).Plan(d.NewState())
	require.NoError(t, err)
	e := want1.Expansions
	assert.Contains(t, one, fmt.Sprintf("%d a11 plan %d ", (12*e+9)/10, e))
}

// TestTenThousandAgentsStayWithinTheBudget: 10,000 agents that all need a
// plan in the same tick never spend more than the budget plus 10% in any
// tick, and every one of them gets its plan.
func TestTenThousandAgentsStayWithinTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 agents")
	}
	d := slicedDomain(t, plancases.Deep())
	want, err := plannerAt(d, 20).Plan(d.NewState())
	require.NoError(t, err)
	const n, budget = 10000, 20000
	w := engine.NewWorld(1)
	w.PlanBudget = budget
	planned := make([]bool, n)
	got := 0
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPlan {
			var i int
			_, err := fmt.Sscanf(e.Agent, "a%d", &i)
			require.NoError(t, err)
			assert.Equal(t, want.Names(), e.Plan)
			if !planned[i] {
				planned[i] = true
				got++
			}
		}
	}
	for i := range n {
		a := engine.NewAgent(fmt.Sprintf("a%d", i), d)
		a.Planner().MaxDepth = 20
		w.Add(a)
	}
	total, most, ticks := 0, 0, 0
	for got < n && ticks < 100 {
		w.Tick(1.0 / 60)
		ticks++
		total += w.PlanExpansions()
		most = max(most, w.PlanExpansions())
		assert.LessOrEqual(t, w.PlanExpansions(), budget+budget/10, "tick %d", ticks)
	}
	assert.Equal(t, n, got, "every agent got its plan")
	assert.Equal(t, n*want.Expansions, total, "every search spent what one unsliced search spends")
	assert.Equal(t, budget, most, "full ticks spend the whole budget")
	assert.Equal(t, (n*want.Expansions+budget-1)/budget, ticks)
}

func TestNoBudgetPlansInTheSameTick(t *testing.T) {
	d := slicedDomain(t, plancases.Deep())
	w := engine.NewWorld(1)
	r := &recorded{}
	w.OnEvent = r.on
	a := engine.NewAgent("a", d)
	a.Planner().MaxDepth = 20
	w.Add(a)
	w.Tick(1.0 / 60)
	require.Len(t, r.kind(record.EventPlan), 1)
	starts := r.kind(record.EventStart)
	require.NotEmpty(t, starts, "the plan starts in the tick it is made")
	assert.Equal(t, 1, starts[0].Tick)
	assert.Equal(t, 0, w.PlanExpansions(), "nothing is counted without a budget")
	assert.Empty(t, r.kind(record.EventPlanSuspended))
}

func resumedAfter(n int) string {
	if n == 1 {
		return "resumed after 1 tick"
	}
	return fmt.Sprintf("resumed after %d ticks", n)
}

// guardedDeep is the deep domain with a higher goal, safe, that holds at
// the start; Hide makes it hold again.
func guardedDeep(t *testing.T) *engine.Domain {
	c := plancases.Deep()
	c.Role.State = append(c.Role.State, engine.Var{Name: "safe", Value: expr.BoolValue(true)})
	c.Role.Goals = append(c.Role.Goals, engine.NewGoal("safe", "safe", engine.High))
	c.Role.Actions = append(c.Role.Actions, engine.NewAction("Hide").Effects("safe = true").Spec())
	return slicedDomain(t, c)
}

func TestQueuedJobFollowsTheGoals(t *testing.T) {
	tests := []struct {
		name, reason string
		set          string
		v            expr.Value
		dropped      string
		plan         string
	}{
		{"higher goal", "a goal of higher priority that became unsatisfied takes over the job",
			"safe", expr.BoolValue(false), "suspended search dropped: goal safe (high) became unsatisfied", "safe"},
		{"goal holds", "a goal the world achieved meanwhile is not planned",
			"food", expr.NumberValue(90), "suspended search dropped: the goal holds now", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := guardedDeep(t)
			w, r, a := slicedAgent(d, 3, 20)
			w.Tick(1.0 / 60)
			sus := r.kind(record.EventPlanSuspended)
			require.Len(t, sus, 1)
			require.Equal(t, "stocked", sus[0].Goal)
			require.True(t, a.Set(tt.set, tt.v))
			w.Tick(1.0 / 60)
			replans := r.kind(record.EventReplan)
			require.Len(t, replans, 1, tt.reason)
			assert.Equal(t, "stocked", replans[0].Goal)
			assert.Equal(t, tt.dropped, replans[0].Reason)
			assert.Equal(t, 3, replans[0].Expansions, "the expansions the dropped search had spent")
			plans := r.kind(record.EventPlan)
			if tt.plan == "" {
				assert.Empty(t, plans, tt.reason)
				assert.Equal(t, 0, w.PlanQueue(), "the job ended: no goal left to plan")
				w.Tick(1.0 / 60)
				assert.Len(t, r.kind(record.EventIdle), 1, "every goal holds: the agent says it is idle")
				return
			}
			require.Len(t, plans, 1, tt.reason)
			assert.Equal(t, tt.plan, plans[0].Goal)
			assert.Equal(t, []string{"Hide"}, plans[0].Plan)
		})
	}
}

// TestSnapshotKeepsThePlanBudget: a restored world keeps the budget and
// the queue's cursor; the searches in flight are not saved, so a waiting
// agent searches again from the start and finds the same plan.
func TestSnapshotKeepsThePlanBudget(t *testing.T) {
	d := slicedDomain(t, plancases.Deep())
	want, err := plannerAt(d, 20).Plan(d.NewState())
	require.NoError(t, err)
	w := engine.NewWorld(1)
	w.PlanBudget = 5
	for _, name := range []string{"a", "b"} {
		a := engine.NewAgent(name, d)
		a.Planner().MaxDepth = 20
		w.Add(a)
	}
	for range 4 { // a plans in ticks 1-3 (12 expansions), b has spent 8 by tick 4
		w.Tick(1.0 / 60)
	}
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	assert.Equal(t, 5, r.PlanBudget)
	rec := &recorded{}
	r.OnEvent = rec.on
	var plan record.Event
	for range 10 {
		r.Tick(1.0 / 60)
		if ps := rec.kind(record.EventPlan); len(ps) > 0 {
			plan = ps[0]
			break
		}
	}
	assert.Equal(t, "b", plan.Agent)
	assert.Equal(t, want.Names(), plan.Plan)
	assert.Equal(t, want.Expansions, plan.Expansions, "searched again from the start")
	sus := rec.kind(record.EventPlanSuspended)
	require.NotEmpty(t, sus)
	assert.Equal(t, 5, sus[0].Tick)
	assert.Equal(t, 5, sus[0].Expansions, "b's 8 expansions before the snapshot are not kept")
}

// plannerAt is a planner over d with the given depth limit.
func plannerAt(d *engine.Domain, maxDepth int) *engine.Planner {
	p := engine.NewPlanner(d)
	p.MaxDepth = maxDepth
	return p
}

// probedDeep is the deep domain with a higher goal, safe, that holds at
// the start; FindSpot then Hide make it hold again (two expansions), or,
// without FindSpot, nothing can.
func probedDeep(t *testing.T, withSpot bool) *engine.Domain {
	c := plancases.Deep()
	c.Role.State = append(c.Role.State, engine.Var{Name: "safe", Value: expr.BoolValue(true)},
		engine.Var{Name: "spot", Value: expr.BoolValue(false)})
	c.Role.Goals = append(c.Role.Goals, engine.NewGoal("safe", "safe", engine.High))
	c.Role.Actions = append(c.Role.Actions, engine.NewAction("Hide").Pre("spot").Effects("safe = true").Spec())
	if withSpot {
		c.Role.Actions = append(c.Role.Actions, engine.NewAction("FindSpot").Effects("spot = true").Spec())
	}
	d := slicedDomain(t, c)
	d.Action("Forage").Body = &slowBody{n: 10}
	return d
}

// TestHigherGoalIsProbedWhileTheStepRuns: under a budget, a higher goal
// that becomes unsatisfied while a step runs is planned by the queue; the
// step goes on meanwhile and is interrupted only once a plan is found, or
// never when there is none.
func TestHigherGoalIsProbedWhileTheStepRuns(t *testing.T) {
	for _, withSpot := range []bool{true, false} {
		t.Run(fmt.Sprintf("plan=%v", withSpot), func(t *testing.T) {
			d := probedDeep(t, withSpot)
			w, r, a := slicedAgent(d, 100, 20)
			w.Tick(1.0 / 60) // the plan for stocked
			w.Tick(1.0 / 60) // Forage starts
			require.Equal(t, "Forage", a.Running().Name)
			w.PlanBudget = 1
			require.True(t, a.Set("safe", expr.BoolValue(false)))
			w.Tick(1.0 / 60) // tick 3: the probe's search is suspended after 1 expansion
			assert.Equal(t, "Forage", a.Running().Name, "the step goes on while the queue plans")
			w.Tick(1.0 / 60) // tick 4: the probe finds its plan, or that there is none
			assert.Equal(t, "Forage", a.Running().Name)
			w.Tick(1.0 / 60) // tick 5
			var got []string
			for _, e := range r.events {
				if e.Tick >= 3 {
					got = append(got, fmt.Sprintf("%d %s %s %s %v %s", e.Tick, e.Kind, e.Goal, e.Action, e.Plan, e.Reason))
				}
			}
			if !withSpot {
				assert.Equal(t, "Forage", a.Running().Name, "no plan for safe: the step is never interrupted")
				assert.Empty(t, got, "a probe that finds nothing records nothing, as without a budget")
				return
			}
			assert.Equal(t, []string{
				`3 plan-suspended safe  [] plan budget spent (1 expansion this tick); queue position 1 of 1; resumes first next tick`,
				`4 plan-resumed safe  [] resumed after 1 tick`,
				`5 interrupt stocked Forage [] goal safe (high) became unsatisfied`,
				`5 plan safe  [FindSpot Hide] `,
				`5 start safe FindSpot [] `,
				`5 finish safe FindSpot [] `,
			}, got)
		})
	}
}

// slicedAgent returns a world of seed 1 with plan budget budget (node
// expansions per tick) whose records r keeps, and its one agent "a" over
// d, planning at most maxDepth steps per goal.
func slicedAgent(d *engine.Domain, budget, maxDepth int) (*engine.World, *recorded, *engine.Agent) {
	w := engine.NewWorld(1)
	w.PlanBudget = budget
	r := &recorded{}
	w.OnEvent = r.on
	a := engine.NewAgent("a", d)
	a.Planner().MaxDepth = maxDepth
	w.Add(a)
	return w, r, a
}

// TestOnlyAHigherGoalIsProbedWhileTheStepRuns: a goal of the same
// priority as the current one that the world makes unsatisfied waits for
// the current plan to end, as without a budget: no probe searches it
// while the step runs.
func TestOnlyAHigherGoalIsProbedWhileTheStepRuns(t *testing.T) {
	c := plancases.Deep()
	c.Role.State = append(c.Role.State, engine.Var{Name: "safe", Value: expr.BoolValue(true)},
		engine.Var{Name: "spot", Value: expr.BoolValue(false)})
	c.Role.Goals = append(c.Role.Goals, engine.NewGoal("safe", "safe", engine.Normal))
	c.Role.Actions = append(c.Role.Actions, engine.NewAction("Hide").Pre("spot").Effects("safe = true").Spec(),
		engine.NewAction("FindSpot").Effects("spot = true").Spec())
	d := slicedDomain(t, c)
	d.Action("Forage").Body = &slowBody{n: 10}
	w, r, a := slicedAgent(d, 100, 20)
	w.Tick(1.0 / 60) // the plan for stocked
	w.Tick(1.0 / 60) // Forage starts
	require.Equal(t, "Forage", a.Running().Name)
	w.PlanBudget = 1
	require.True(t, a.Set("safe", expr.BoolValue(false)))
	for range 3 {
		w.Tick(1.0 / 60)
		assert.Equal(t, 0, w.PlanQueue(), "nothing is queued for safe (normal) while stocked (normal) is pursued")
	}
	var got []string
	for _, e := range r.events {
		if e.Tick >= 3 {
			got = append(got, fmt.Sprintf("%d %s %s %s", e.Tick, e.Kind, e.Goal, e.Action))
		}
	}
	assert.Empty(t, got, "the step goes on and nothing is searched")
	assert.Equal(t, "Forage", a.Running().Name)
}

// TestAGoalFoundWithoutAPlanIsNotSearchedAgainInTheSameJob: a job plans
// each goal at most once; a higher goal that has no plan does not take
// the lower goal's suspended search over at every tick.
func TestAGoalFoundWithoutAPlanIsNotSearchedAgainInTheSameJob(t *testing.T) {
	c := plancases.Deep()
	c.Role.State = append(c.Role.State, engine.Var{Name: "safe", Value: expr.BoolValue(false)},
		engine.Var{Name: "spot", Value: expr.BoolValue(false)})
	c.Role.Goals = append(c.Role.Goals, engine.NewGoal("safe", "safe", engine.High))
	c.Role.Actions = append(c.Role.Actions, engine.NewAction("Hide").Pre("spot").Effects("safe = true").Spec())
	d := slicedDomain(t, c)
	w, r, _ := slicedAgent(d, 3, 20)
	e := firstPlan(t, w, r, "a", 200)
	assert.Equal(t, "stocked", e.Goal)
	assert.Empty(t, r.kind(record.EventReplan), "stocked's search is never dropped for safe, which has no plan")
	res := r.kind(record.EventPlanResumed)
	require.NotEmpty(t, res)
	for _, x := range res {
		assert.Equal(t, "stocked", x.Goal)
	}
	failed := r.kind(record.EventPlanFailed)
	require.Len(t, failed, 1, "safe is found without a plan once")
	assert.Equal(t, "safe", failed[0].Goal)
}

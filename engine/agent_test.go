package engine

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// ticksBody takes n resumes, then makes its action's effects true. It
// counts its interruptions.
type ticksBody struct {
	n           int
	interrupted *int
	fail        bool
}

func (b ticksBody) Start(a *Agent, act *Action) (Task, error) {
	return &ticksTask{b: b, a: a, act: act}, nil
}

type ticksTask struct {
	b    ticksBody
	a    *Agent
	act  *Action
	done int
}

func (t *ticksTask) Resume(float64) (Status, error) {
	t.done++
	if t.done < t.b.n {
		return Running, nil
	}
	if t.b.fail {
		return Failed, errors.New("it broke")
	}
	return ApplyEffects(t.a, t.act)
}

func (t *ticksTask) Interrupt() {
	if t.b.interrupted != nil {
		*t.b.interrupted++
	}
}

// trace runs a world and returns its records as short strings.
type trace struct {
	events []record.Event
}

func (tr *trace) add(e record.Event) { tr.events = append(tr.events, e) }

func (tr *trace) lines(kinds ...record.EventKind) []string {
	var out []string
	for _, e := range tr.events {
		keep := len(kinds) == 0
		for _, k := range kinds {
			keep = keep || e.Kind == k
		}
		if keep {
			name := e.Action
			if name == "" {
				name = e.Goal
			}
			out = append(out, fmt.Sprintf("%d %s %s", e.Tick, e.Kind, name))
		}
	}
	return out
}

func newWorld(t *testing.T, roles ...RoleSpec) (*World, *Agent, *trace) {
	t.Helper()
	d, err := Compile(roles...)
	require.NoError(t, err)
	w := NewWorld(7)
	tr := &trace{}
	w.OnEvent = tr.add
	a := NewAgent("npc", d)
	w.Add(a)
	return w, a, tr
}

func TestInterruptWhenTheWorldInvalidatesTheRunningStep(t *testing.T) {
	interrupted := 0
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"canA", expr.BoolValue(true)}, {"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("finish", "done", Normal)},
		Actions: []ActionSpec{
			NewAction("DoA").Pre("canA").Effects("done = true").Body(ticksBody{n: 10, interrupted: &interrupted}).Spec(),
			NewAction("DoB").Pre("!canA").Effects("done = true").Body(ticksBody{n: 10}).Spec(),
		}})
	for i := 0; i < 3; i++ {
		w.Tick(0.1)
	}
	a.Set("canA", expr.BoolValue(false)) // the world changes between ticks
	for i := 0; i < 12; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, 1, interrupted, "DoA's on_interrupt ran once")
	assert.Equal(t, []string{
		"1 plan finish", "1 start DoA", "4 interrupt DoA", "4 plan finish", "4 start DoB", "13 finish DoB",
	}, tr.lines(record.EventPlan, record.EventStart, record.EventInterrupt, record.EventFinish))
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
}

func TestABodyThatInvalidatesItsOwnPreconditionFinishes(t *testing.T) {
	// The body spends the ammo its precondition needs: that is its own
	// doing, not the world's, so it is not interrupted.
	spend := BodyFunc(func(a *Agent, _ *Action) (Status, error) {
		n, _ := a.Get("ammo").AsNumber()
		a.Set("ammo", expr.NumberValue(n-1))
		if n-1 > 0 {
			return Running, nil
		}
		a.Set("shot", expr.BoolValue(true))
		return Succeeded, nil
	})
	w, _, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"ammo", expr.NumberValue(3)}, {"shot", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("fire", "shot", Normal)},
		Actions: []ActionSpec{NewAction("Shoot").Pre("ammo > 0").Effects("shot = true, ammo = 0").Body(spend).Spec()}})
	for i := 0; i < 5; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 start Shoot", "3 finish Shoot"}, tr.lines(record.EventStart, record.EventFinish, record.EventInterrupt))
}

func TestReplanTriggers(t *testing.T) {
	t.Run("next step stale", func(t *testing.T) {
		w, a, tr := newWorld(t, RoleSpec{Name: "R",
			State: []Var{{"key", expr.BoolValue(false)}, {"open", expr.BoolValue(false)}, {"door", expr.BoolValue(true)}},
			Goals: []GoalSpec{NewGoal("in", "open", Normal)},
			Actions: []ActionSpec{
				NewAction("GetKey").Effects("key = true").Body(ticksBody{n: 2}).Spec(),
				NewAction("Unlock").Pre("key && door").Effects("open = true").Body(ticksBody{n: 2}).Spec(),
			}})
		w.Tick(0.1)
		w.Tick(0.1) // GetKey finishes
		a.Set("door", expr.BoolValue(false))
		w.Tick(0.1)
		assert.Contains(t, tr.lines(record.EventReplan), "3 replan Unlock")
		assert.Contains(t, tr.lines(record.EventPlanFailed), "3 plan-failed in")
	})
	t.Run("higher-priority goal", func(t *testing.T) {
		w, a, tr := newWorld(t, RoleSpec{Name: "R",
			State: []Var{{"health", expr.NumberValue(100)}, {"dug", expr.BoolValue(false)}},
			Goals: []GoalSpec{NewGoal("alive", "health > 50", Critical), NewGoal("work", "dug", Low)},
			Actions: []ActionSpec{
				NewAction("Dig").Effects("dug = true").Body(ticksBody{n: 20}).Spec(),
				NewAction("Heal").Effects("health = 100").Body(ticksBody{n: 2}).Spec(),
			}})
		w.Tick(0.1)
		a.Set("health", expr.NumberValue(10))
		w.Tick(0.1)
		assert.Equal(t, []string{"1 plan work", "1 start Dig", "2 interrupt Dig", "2 plan alive", "2 start Heal"},
			tr.lines(record.EventPlan, record.EventStart, record.EventInterrupt))
	})
	t.Run("plan finished", func(t *testing.T) {
		w, a, tr := newWorld(t, RoleSpec{Name: "R",
			State:   []Var{{"n", expr.NumberValue(0)}},
			Goals:   []GoalSpec{NewGoal("count", "n >= 2", Normal)},
			Actions: []ActionSpec{NewAction("Inc").Effects("n = n + 1").Body(ticksBody{n: 1}).Spec()}})
		for i := 0; i < 4; i++ {
			w.Tick(0.1)
		}
		a.Set("n", expr.NumberValue(0))
		for i := 0; i < 3; i++ {
			w.Tick(0.1)
		}
		assert.Equal(t, []string{"1 plan count", "3 idle ", "5 plan count", "7 idle "}, tr.lines(record.EventPlan, record.EventIdle))
	})
}

func TestFailedActionIsBackedOff(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Try").Effects("done = true").Body(ticksBody{n: 1, fail: true}).Spec()}})
	a.RetryDelay = 0.5
	for i := 0; i < 12; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 start Try", "1 fail Try", "6 start Try", "6 fail Try", "11 start Try", "11 fail Try"},
		tr.lines(record.EventStart, record.EventFail), "tried again once 0.5 s passed, not every tick")
}

func TestStuckAndRecovery(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"bridge", expr.BoolValue(false)}, {"across", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("cross", "across", Normal)},
		Actions: []ActionSpec{
			NewAction("Cross").Pre("bridge").Effects("across = true").Body(ticksBody{n: 1}).Spec(),
		}})
	a.StuckAfter = 1
	for i := 0; i < 15; i++ {
		w.Tick(0.1)
	}
	assert.True(t, a.Stuck())
	a.Set("bridge", expr.BoolValue(true))
	w.Tick(0.1)
	assert.False(t, a.Stuck())
	assert.Equal(t, []string{"1 plan-failed cross", "11 stuck cross", "11 summary ", "16 plan cross", "16 finish Cross", "16 recovered "},
		tr.lines(record.EventPlanFailed, record.EventStuck, record.EventSummary, record.EventPlan, record.EventFinish, record.EventRecovered),
		"asked once, then again only when the state changed")
}

func TestSensorMakesAGoalReachableNextTick(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R",
		State: []Var{{"seen", expr.BoolValue(false)}, {"caught", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("catch", "caught", Normal)},
		Sensors: []SensorSpec{{Name: "eyes", Run: func(a *Agent, _ float64) error {
			a.Set("seen", expr.BoolValue(a.Ticks() >= 2))
			return nil
		}}},
		Actions: []ActionSpec{NewAction("Chase").Pre("seen").Effects("caught = true").Body(ticksBody{n: 1}).Spec()}})
	require.NoError(t, err)
	w := NewWorld(1)
	tr := &trace{}
	w.OnEvent = tr.add
	w.Add(NewAgent("npc", d))
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, []string{"1 plan-failed catch", "2 plan catch"}, tr.lines(record.EventPlan, record.EventPlanFailed))
}

func TestSensorRateAndErrors(t *testing.T) {
	runs := 0
	d, err := Compile(RoleSpec{Name: "R",
		Sensors: []SensorSpec{{Name: "slow", Every: 0.25, Run: func(*Agent, float64) error {
			runs++
			if runs == 2 {
				return errors.New("camera broke")
			}
			return nil
		}}}})
	require.NoError(t, err)
	w := NewWorld(1)
	tr := &trace{}
	w.OnEvent = tr.add
	w.Add(NewAgent("npc", d))
	for i := 0; i < 10; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, 4, runs, "at t = 0, 0.3, 0.6, 0.9")
	assert.Equal(t, []string{"4 sensor-failed slow"}, tr.lines(record.EventSensorFailed))
}

func TestRestrictedPlanIsRefused(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"rich", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("money", "rich", Normal)},
		Actions: []ActionSpec{NewAction("Rob").Effects("rich = true").Restricted().Body(ticksBody{n: 1}).Spec()}})
	w.Tick(0.1)
	assert.Equal(t, []string{"1 plan-failed money"}, tr.lines(record.EventRefused, record.EventPlanFailed, record.EventStart))
	assert.Equal(t, `NOT_AUTHORIZED: a plan exists only through action "Rob", which is restricted`, tr.events[0].Reason)
	_, err := a.ExecutePlan([]string{"Rob"})
	assert.ErrorIs(t, err, ErrRestricted)
	assert.Equal(t, expr.BoolValue(false), a.Get("rich"))
}

func TestExecutePlan(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R",
		State: []Var{{"wood", expr.NumberValue(0)}, {"fire", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("warm", "fire", Normal)},
		Actions: []ActionSpec{
			NewAction("Chop").Effects("wood = wood + 1").Body(ticksBody{n: 3}).Spec(),
			NewAction("Light").Pre("wood >= 2").Effects("fire = true").Body(ticksBody{n: 1}).Spec(),
			NewAction("Pray").Effects("fire = true").Spec(),
		}})
	require.NoError(t, err)
	a := NewAgent("npc", d)
	res, err := a.ExecutePlan([]string{"Chop", "Light", "Dance", "Chop", "Pray", "Light"})
	require.NoError(t, err)
	assert.False(t, res.Success)
	var got []string
	for _, r := range res.Results {
		msg := ""
		if r.Err != nil {
			msg = r.Err.Error()
		}
		got = append(got, fmt.Sprintf("%s %v %s", r.Action, r.Executed, msg))
	}
	assert.Equal(t, []string{
		"Chop true ",
		`Light false engine: precondition "wood >= 2" of Light does not hold`,
		`Dance false engine: no action "Dance"`,
		"Chop true ",
		`Pray false engine: action "Pray": the action has no body, so it cannot run`,
		"Light true ",
	}, got)
	assert.Equal(t, expr.NumberValue(2), res.FinalState.Get(d.Schema, "wood"))
	assert.Equal(t, expr.BoolValue(true), res.FinalState.Get(d.Schema, "fire"))

	cands, err := a.PlanForGoal("warm")
	require.NoError(t, err)
	assert.Equal(t, []string{"Light", "Pray"}, names(cands))
	_, err = a.PlanForGoal("wram")
	assert.EqualError(t, err, `engine: no goal "wram" (did you mean "warm"?)`)
}

func TestPlanningOffWithoutAHandle(t *testing.T) {
	t.Setenv("MOONMIND_GOAP", "off")
	d, err := Compile(soldierRole())
	require.NoError(t, err)
	a := NewAgent("npc", d)
	assert.True(t, a.PlanningEnabled(), "the engine reads no environment variable")
	a.SetPlannerHandle(nil)
	assert.False(t, a.PlanningEnabled())
	a.SetDomain(d)
	assert.False(t, a.PlanningEnabled(), "a reload keeps planning off")
	_, err = a.Plan()
	assert.ErrorIs(t, err, ErrNoPlanner)
	_, err = a.PlanForGoal("armed")
	assert.ErrorIs(t, err, ErrNoPlanner)
	_, err = a.ExecutePlan([]string{"reload"})
	assert.ErrorIs(t, err, ErrNoPlanner)
	require.NoError(t, os.Unsetenv("MOONMIND_GOAP"))
}

func TestMergedStateLaterRoleWins(t *testing.T) {
	d, err := Compile(
		RoleSpec{Name: "Soldier", State: []Var{{"ammo", expr.NumberValue(5)}, {"rank", expr.StringValue("private")}}},
		RoleSpec{Name: "Medic", State: []Var{{"rank", expr.StringValue("corporal")}, {"kits", expr.NumberValue(2)}}})
	require.NoError(t, err)
	a := NewAgent("npc", d)
	assert.Equal(t, "Soldier+Medic", d.Name)
	assert.Equal(t, `{"ammo":5,"kits":2,"rank":"corporal"}`, string(a.CurrentState().JSON(d.Schema)))
	p, err := a.Plan()
	require.NoError(t, err)
	assert.Empty(t, p.Steps)
}

func TestHybridCommitment(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "hybrid",
		State: []Var{{"danger", expr.NumberValue(0)}},
		Actions: []ActionSpec{
			{Name: "Graze", Utility: UtilitySpec{Value: 50}, Body: ticksBody{n: 100}},
			{Name: "Flee", Pre: "danger > 0", Utility: UtilitySpec{Value: 90}, Body: ticksBody{n: 100}},
		}})
	w.Tick(0.1)
	a.Set("danger", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Equal(t, []string{"1 pick Graze", "1 start Graze", "2 interrupt Graze", "2 pick Flee", "2 start Flee"},
		tr.lines(record.EventPick, record.EventStart, record.EventInterrupt))
	assert.True(t, strings.HasPrefix(tr.events[len(tr.events)-3].Reason, "utility pick changed: Flee"))
}

// TestAgentCommitment checks the one commitment setting of an agent: the
// default (zero) keeps a running pick against a lead of less than 0.1, a
// larger one keeps it against more, and a negative one turns it off.
func TestAgentCommitment(t *testing.T) {
	tests := []struct {
		name       string
		reason     string
		commitment float64
		want       []string
	}{
		{"default", "Flee leads Graze by 0.05, less than the default 0.1", 0,
			[]string{"1 pick Graze", "1 start Graze"}},
		{"wide", "a margin of 0.5 keeps Graze too", 0.5,
			[]string{"1 pick Graze", "1 start Graze"}},
		{"narrow", "a margin of 0.01 lets the 0.05 lead through", 0.01,
			[]string{"1 pick Graze", "1 start Graze", "2 interrupt Graze", "2 pick Flee", "2 start Flee"}},
		{"off", "a negative commitment turns it off: the best pick takes over", -1,
			[]string{"1 pick Graze", "1 start Graze", "2 interrupt Graze", "2 pick Flee", "2 start Flee"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
				State: []Var{{"x", expr.NumberValue(0)}},
				Actions: []ActionSpec{
					{Name: "Graze", Body: ticksBody{n: 100}},
					{Name: "Flee", Pre: "x > 0", Body: ticksBody{n: 100}},
				}})
			slot, ok := a.Domain.Schema.Lookup("x")
			require.True(t, ok)
			a.Utility().Considerations = []Consideration{FuncConsideration("s", 1, func(act *Action, st expr.State) float64 {
				if act.Name == "Graze" {
					return 0.5
				}
				v, _ := st[slot].AsNumber()
				return v
			})}
			a.Commitment, a.RethinkEvery = tc.commitment, -1
			w.Tick(0.1)
			a.Set("x", expr.NumberValue(0.55))
			w.Tick(0.1)
			w.Tick(0.1)
			assert.Equal(t, tc.want, tr.lines(record.EventPick, record.EventStart, record.EventInterrupt), tc.reason)
		})
	}
}

func TestPromisedEffectsAreChecked(t *testing.T) {
	lazy := BodyFunc(func(a *Agent, _ *Action) (Status, error) {
		a.Set("ammo", expr.NumberValue(29))
		return Succeeded, nil
	})
	w, _, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"ammo", expr.NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("armed", "ammo > 10", Normal)},
		Actions: []ActionSpec{NewAction("Reload").Effects("ammo = 30").Body(lazy).Spec()}})
	w.Tick(0.1)
	require.NotEmpty(t, tr.events)
	var fin record.Event
	for _, e := range tr.events {
		if e.Kind == record.EventFinish {
			fin = e
		}
	}
	assert.Equal(t, "promised effects not met: ammo = 30 (is 29)", fin.Reason)
}

func TestWorkersGiveTheSameTrace(t *testing.T) {
	run := func(workers int) []record.Event {
		d, err := Compile(RoleSpec{Name: "R",
			State: []Var{{"wood", expr.NumberValue(0)}},
			Goals: []GoalSpec{NewGoal("pile", "wood >= 3", Normal)},
			Sensors: []SensorSpec{{Name: "wind", Every: 0.3, Run: func(a *Agent, _ float64) error {
				if a.Rand.IntN(4) == 0 {
					n, _ := a.Get("wood").AsNumber()
					a.Set("wood", expr.NumberValue(max(0, n-1)))
				}
				return nil
			}}},
			Actions: []ActionSpec{NewAction("Chop").Effects("wood = wood + 1").Body(ticksBody{n: 2}).Spec()}})
		require.NoError(t, err)
		w := NewWorld(42)
		w.Workers = workers
		var evs []record.Event
		w.OnEvent = func(e record.Event) { evs = append(evs, e) }
		for i := 0; i < 50; i++ {
			w.Add(NewAgent(fmt.Sprintf("npc%02d", i), d))
		}
		for i := 0; i < 60; i++ {
			w.Tick(0.1)
		}
		return evs
	}
	one := run(1)
	require.Greater(t, len(one), 200)
	assert.Equal(t, one, run(4))
	assert.Equal(t, one, run(1), "the same seed gives the same trace")
}

func TestRecorderKeepsTheLatestRecords(t *testing.T) {
	r := record.New(3)
	for i := 1; i <= 5; i++ {
		r.Add(record.Event{Tick: i, Kind: record.EventStart})
	}
	r.Add(record.Event{Tick: 6, Kind: record.EventFail})
	var ticks []int
	for _, e := range r.Records() {
		ticks = append(ticks, e.Tick)
	}
	assert.Equal(t, []int{4, 5, 6}, ticks)
	assert.Equal(t, 5, r.Count(record.EventStart))
	assert.Equal(t, 1, r.Count(record.EventFail))
	assert.Contains(t, r.Summary("IDLE"), `status=IDLE plans=0 plan-failures=0 replans=0 picks=0 started=5 finished=0 failed=1 interrupted=0 last="none"`)
}

func TestWorldRemove(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{"n", expr.NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("g", "n >= 5", Normal)},
		Actions: []ActionSpec{NewAction("Inc").Effects("n = n + 1").Body(ticksBody{n: 1}).Spec()}})
	require.NoError(t, err)
	w := NewWorld(1)
	w.Workers = 2
	a, b, c := NewAgent("a", d), NewAgent("b", d), NewAgent("c", d)
	w.Add(a)
	w.Add(b)
	w.Add(c)
	w.Tick(0.1)
	assert.True(t, w.Remove(b))
	assert.False(t, w.Remove(b))
	w.Tick(0.1)
	assert.Equal(t, []*Agent{a, c}, w.Agents)
	assert.Equal(t, expr.NumberValue(2), a.Get("n"))
	assert.Equal(t, expr.NumberValue(1), b.Get("n"), "a removed agent ticks no more")
	assert.Equal(t, expr.NumberValue(2), c.Get("n"))
	assert.Equal(t, 2, c.ID, "IDs stay")
}

func TestNamedConditionErrorsAreRecordedOnce(t *testing.T) {
	calls := 0
	d, err := Compile(RoleSpec{Name: "R",
		State: []Var{{"x", expr.NumberValue(0)}},
		Conditions: []ConditionSpec{{Name: "ready", Test: func(*Agent) (bool, error) {
			calls++
			if calls >= 3 && calls < 6 {
				return false, errors.New("no eyes")
			}
			return calls%2 == 0, nil
		}}},
		Goals: []GoalSpec{NewGoal("g", "ready && x > 0", Normal)}})
	require.NoError(t, err)
	w := NewWorld(1)
	tr := &trace{}
	w.OnEvent = tr.add
	a := NewAgent("npc", d)
	w.Add(a)
	for i := 0; i < 8; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, 8, calls, "evaluated every tick")
	assert.Equal(t, []string{"3 condition-failed ready"}, tr.lines(record.EventConditionFailed), "reported once while the error lasts")
	assert.Equal(t, expr.BoolValue(true), a.Get("ready"))
	probs := d.Undeclared()
	assert.Empty(t, probs, "a named condition is declared")
}

func TestPickThatSpendsItsOwnPreconditionFinishes(t *testing.T) {
	spend := BodyFunc(func(a *Agent, _ *Action) (Status, error) {
		n, _ := a.Get("ammo").AsNumber()
		a.Set("ammo", expr.NumberValue(n-1))
		if n-1 > 0 {
			return Running, nil
		}
		return Succeeded, nil
	})
	w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"ammo", expr.NumberValue(3)}},
		Actions: []ActionSpec{
			{Name: "Shoot", Pre: "ammo > 0", Utility: UtilitySpec{Value: 90}, Body: spend},
			{Name: "Idle", Utility: UtilitySpec{Value: 50}, Body: ticksBody{n: 100}},
		}})
	a.RethinkEvery = -1 // every tick
	for i := 0; i < 4; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 pick Shoot", "1 start Shoot", "3 finish Shoot", "4 pick Idle", "4 start Idle"},
		tr.lines(record.EventPick, record.EventStart, record.EventFinish, record.EventInterrupt))
}

func TestBackedOffActionIsPlannedAround(t *testing.T) {
	w, _, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{
			NewAction("Cheap").Effects("done = true").Body(ticksBody{n: 1, fail: true}).Spec(),
			NewAction("Dear").Effects("done = true").Cost(5).Body(ticksBody{n: 1}).Spec(),
		}})
	for i := 0; i < 3; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 plan g", "1 start Cheap", "1 fail Cheap", "2 plan g", "2 start Dear", "2 finish Dear"},
		tr.lines(record.EventPlan, record.EventStart, record.EventFail, record.EventFinish), "the dearer action runs while the failing one cools down")
}

func TestCompileMergesRolesAndReportsDuplicates(t *testing.T) {
	d, err := Compile(
		RoleSpec{Name: "A", Actions: []ActionSpec{NewAction("x").Cost(1).Spec(), NewAction("y").Spec()}},
		RoleSpec{Name: "B", Actions: []ActionSpec{NewAction("x").Cost(7).Spec(), NewAction("z").Spec()}})
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "y", "z"}, names(d.Actions), "a later role's action replaces in place")
	assert.Equal(t, 7.0, d.Action("x").Cost)

	_, err = Compile(RoleSpec{Name: "A",
		Goals:   []GoalSpec{{Name: "g", Pos: Pos{File: "a.lua", Line: 3}}, {Name: "g", Pos: Pos{File: "a.lua", Line: 4}}},
		Actions: []ActionSpec{{Name: "x", Pos: Pos{File: "a.lua", Line: 9}}, {Name: "x", Pos: Pos{File: "a.lua", Line: 10}}}})
	assert.EqualError(t, err, "a.lua:4: goal \"g\" is declared twice\na.lua:10: action \"x\" is declared twice")
}

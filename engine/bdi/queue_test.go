package bdi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// watcherRole is a domain with a perception memory and the variables
// vars, whose plans note every belief_added event ("belief NAME") and
// every perceived one ("perceived SOURCE slot N") in the agent's Data.
func watcherRole(t *testing.T, cfg *bdi.Config, vars ...string) *engine.Domain {
	t.Helper()
	spec := engine.RoleSpec{Name: "Watcher", Memory: perception.Spec{HalfLife: 1, Forget: 0.25, LoseAfter: 0.5}}
	for _, v := range vars {
		spec.State = append(spec.State, engine.Var{Name: v, Value: expr.NumberValue(0)})
	}
	d, err := engine.Compile(spec)
	require.NoError(t, err)
	note := func(a *engine.Agent, ev *bdi.Event, _ any) (any, error) {
		log := a.Data.(*[]string)
		if ev.Kind == bdi.Perceived {
			*log = append(*log, fmt.Sprintf("perceived %s slot %d", ev.Name, ev.Slot))
		} else {
			*log = append(*log, "belief "+ev.Name)
		}
		return nil, nil
	}
	install(t, d, cfg,
		&bdi.Plan{On: bdi.Perceived, Body: bdi.Func(note)},
		&bdi.Plan{On: bdi.BeliefAdded, Body: bdi.Func(note)})
	return d
}

// TestAThingPerceivedBeforeTheFirstTickIsDispatched: the agents of a
// domain whose plans react to perceptions keep their memory's changes
// from their creation on, so news that arrives before an agent's first
// tick still reaches the plans at that tick. A perception event names no
// variable: its Slot is -1.
func TestAThingPerceivedBeforeTheFirstTickIsDispatched(t *testing.T) {
	d := watcherRole(t, &bdi.Config{})
	w, a, _ := world(d)
	var log []string
	a.Data = &log
	a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 4, Y: 2})
	w.Tick(0.1)
	assert.Equal(t, []string{"perceived enemy slot -1"}, log)
}

// TestPerceptionsPastMaxEventsAreDropped: perception events count against
// MaxEvents as belief events do: with 2, the third thing perceived in a
// tick is dropped, with one record.
func TestPerceptionsPastMaxEventsAreDropped(t *testing.T) {
	d := watcherRole(t, &bdi.Config{MaxEvents: 2})
	w, a, tr := world(d)
	var log []string
	a.Data = &log
	w.Tick(0.1)
	for _, s := range []string{"enemy", "shot", "smoke"} {
		a.Perceive(perception.Stimulus{Source: s, Sense: perception.SenseSight, X: 4, Y: 2})
	}
	w.Tick(0.1)
	assert.Equal(t, []string{"perceived enemy slot -1", "perceived shot slot -1"}, log)
	assert.Equal(t, []string{`reason="more than 2 events waiting; perceived smoke and the later events of this tick are dropped"`},
		reasons(tr, record.EventNoPlan))
}

// TestMaxEventsCountsOnlyTheEventsStillWaiting: the events already
// dispatched in a tick do not count against MaxEvents. A belief a plan
// adds while the second of two events waits is the second waiting
// event, not the third; and events left waiting when MaxResumes ended a
// tick leave room for as many perceptions at the next.
func TestMaxEventsCountsOnlyTheEventsStillWaiting(t *testing.T) {
	t.Run("a belief added by a plan", func(t *testing.T) {
		d := domain(t, "a", "b", "x")
		var seen []string
		lib, err := bdi.NewLibrary(d, []*bdi.Plan{
			{On: bdi.BeliefAdded, Belief: "a", Body: bdi.Func(func(a *engine.Agent, _ *bdi.Event, _ any) (any, error) {
				seen = append(seen, "a")
				return nil, a.Believe("x", expr.NumberValue(1))
			})},
			{On: bdi.BeliefAdded, Body: bdi.Func(func(_ *engine.Agent, ev *bdi.Event, _ any) (any, error) {
				seen = append(seen, ev.Name)
				return nil, nil
			})},
		})
		require.NoError(t, err)
		bdi.Install(d, &bdi.Config{Library: lib, MaxEvents: 2})
		w, a, tr := world(d)
		w.Tick(0.1)
		a.Set("a", expr.NumberValue(1))
		a.Set("b", expr.NumberValue(1))
		w.Tick(0.1)
		assert.Equal(t, []string{"a", "b", "x"}, seen)
		assert.Empty(t, tr.kinds(record.EventNoPlan))
	})
	t.Run("perceptions after a capped tick", func(t *testing.T) {
		d := watcherRole(t, &bdi.Config{MaxResumes: 1, MaxEvents: 3}, "a", "b", "c")
		w, a, tr := world(d)
		var log []string
		a.Data = &log
		w.Tick(0.1)
		a.Set("a", expr.NumberValue(1))
		a.Set("b", expr.NumberValue(1))
		a.Set("c", expr.NumberValue(1))
		w.Tick(0.1) // a runs, b is dispatched past the cap, c waits
		require.Equal(t, []string{"belief a"}, log)
		a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 4, Y: 2})
		a.Perceive(perception.Stimulus{Source: "shot", Sense: perception.SenseSight, X: 4, Y: 2})
		for range 5 {
			w.Tick(0.1)
		}
		assert.ElementsMatch(t, []string{"belief a", "belief b", "belief c", "perceived enemy slot -1", "perceived shot slot -1"}, log)
		for _, l := range tr.kinds(record.EventNoPlan) {
			assert.NotContains(t, l, "dropped")
		}
	})
}

// TestPerceptionEventsAreRecordedByKind: the record of each perception
// event has its own kind (perceived, lost, forgotten), with the thing's
// place, sense, age and confidence.
func TestPerceptionEventsAreRecordedByKind(t *testing.T) {
	d := perceptionRole(t)
	w, a, tr := world(d)
	var log []string
	a.Data = &log
	w.Tick(0.1)
	a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 4, Y: 2})
	for range 30 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{`tick    2  t=  0.100s  a            perceived   belief=enemy value=(4, 2) reason="sight, age 0 s, confidence 1"`},
		tr.kinds(record.EventPerceived))
	assert.Equal(t, []string{`tick    7  t=  0.600s  a            lost        belief=enemy value=(4, 2) reason="sight, age 0.5 s, confidence 0.707106781187"`},
		tr.kinds(record.EventLost))
	assert.Equal(t, []string{`tick   23  t=  2.200s  a            forgotten   belief=enemy value=(4, 2) reason="sight, age 2.1 s, confidence 0.233258247884"`},
		tr.kinds(record.EventForgotten))
}

// TestASubGoalsRecordNamesTheIntentionThatAwaitsIt: a goal-added record
// names the intention that added the goal, when one did.
func TestASubGoalsRecordNamesTheIntentionThatAwaitsIt(t *testing.T) {
	d := domain(t)
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("top")}},
		&bdi.Plan{Name: "top", On: bdi.GoalAdded, Goal: "top", Body: bodyFunc(func(a *engine.Agent) bdi.Task { return &stepTask{a: a} })},
		&bdi.Plan{Name: "sub", On: bdi.GoalAdded, Goal: "sub", Body: bodyFunc(func(*engine.Agent) bdi.Task { return &slowTask{} })},
	)
	w, _, tr := world(d)
	w.Tick(0.1)
	assert.Equal(t, []string{"tick    1  t=  0.000s  a            goal-added  goal=top",
		"tick    1  t=  0.000s  a            goal-added  goal=sub intention=#1"}, tr.kinds(record.EventGoalAdded))
}

// TestAWaitsTimeoutIsInGameTime: a wait's timeout counts game time from
// the end of the tick it began in; it ends at the first tick whose end is
// past the deadline, or short of it by no more than 1e-9 s (the rounding
// of a clock that adds up tick lengths).
func TestAWaitsTimeoutIsInGameTime(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout float64
		dts     []float64 // the ticks after the one the wait begins in (0.1 s)
		ends    int       // the tick (of dts, from 1) the wait ends in
	}{
		// Ends at t = 0.35: not at 0.3, at 0.5.
		{name: "ticks of different lengths", timeout: 0.25, dts: []float64{0.2, 0.2}, ends: 2},
		// 0.1 added up ten times is 0.9999999999999999: the deadline 1.0.
		{name: "a clock short by rounding", timeout: 0.9, dts: []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, ends: 9},
		// Ends at 0.6 + 1e-9: the end of the tick at 0.6 is within 1e-9 s.
		{name: "exactly the tolerance short", timeout: 0.5 + 1e-9, dts: []float64{0.5, 0.5}, ends: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := domain(t, "bell")
			var timed *awaitTask
			install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("timed")}},
				&bdi.Plan{Name: "timed", On: bdi.GoalAdded, Goal: "timed", Body: waitFor(isBelief("bell"), tc.timeout, &timed)})
			w, a, _ := world(d)
			w.Tick(0.1)
			for i, dt := range tc.dts {
				w.Tick(dt)
				require.Equal(t, i+1 >= tc.ends, timed.p.Done(), "tick %d of the wait, t = %v", i+1, a.Time())
			}
			assert.True(t, timed.p.TimedOut())
		})
	}
}

// TestGoalsDoneOneAfterAnotherLeaveRoomForMore: MaxIntentions counts the
// goals waiting and the intentions alive, not the goals that ever were:
// one goal a tick, each done in its tick, never reaches it.
func TestGoalsDoneOneAfterAnotherLeaveRoomForMore(t *testing.T) {
	d := domain(t)
	ran := 0
	install(t, d, &bdi.Config{MaxIntentions: 2}, &bdi.Plan{On: bdi.GoalAdded, Goal: "chore",
		Body: bdi.Func(func(*engine.Agent, *bdi.Event, any) (any, error) { ran++; return nil, nil })})
	w, a, tr := world(d)
	for range 5 {
		bdi.Of(a).AlsoAchieve(reactive.GoalNamed("chore"))
		w.Tick(0.1)
	}
	assert.Equal(t, 5, ran)
	assert.Empty(t, tr.kinds(record.EventGoalFailed))
}

// wakeTask waits for the bell, then runs forever, noting the tick and the
// dt of each resume once the bell rang.
type wakeTask struct {
	a     *engine.Agent
	p     *bdi.Pending
	after []string
}

func (t *wakeTask) Resume(dt float64) (engine.Status, error) {
	if t.p == nil {
		t.p = bdi.Of(t.a).WaitEvent(isBelief("bell"), 0)
	} else if t.p.Done() {
		t.after = append(t.after, fmt.Sprintf("tick %d dt %g", t.a.Ticks(), dt))
	}
	return engine.Running, nil
}
func (t *wakeTask) Result() any { return nil }
func (t *wakeTask) Stop()       {}

// TestAnIntentionWokenPastMaxResumesIsResumedFirstNextTick: an intention
// whose wait ends when MaxResumes is already reached is resumed at the
// start of the next tick as a woken intention (with no time passed: dt
// 0), before the older intentions' resumes of that tick.
func TestAnIntentionWokenPastMaxResumesIsResumedFirstNextTick(t *testing.T) {
	d := domain(t, "a", "bell")
	var waiter *wakeTask
	install(t, d, &bdi.Config{MaxResumes: 1, InitialGoals: []reactive.Goal{reactive.GoalNamed("wait")}},
		&bdi.Plan{On: bdi.GoalAdded, Goal: "wait", Body: bodyFunc(func(a *engine.Agent) bdi.Task {
			waiter = &wakeTask{a: a}
			return waiter
		})},
		&bdi.Plan{On: bdi.BeliefAdded, Body: done(nil)})
	w, a, _ := world(d)
	w.Tick(0.1)
	a.Set("a", expr.NumberValue(1))
	a.Set("bell", expr.NumberValue(1))
	// a's plan reaches MaxResumes; bell's plan is capped, and its event
	// still wakes the waiter.
	w.Tick(0.1)
	require.True(t, waiter.p.Done())
	assert.Empty(t, waiter.after)
	w.Tick(0.1)
	assert.Equal(t, []string{"tick 3 dt 0"}, waiter.after, "the woken resume is the tick's one")
	w.Tick(0.1)
	assert.Equal(t, []string{"tick 3 dt 0", "tick 4 dt 0.1"}, waiter.after)
}

// TestAPerceptionEventSaysWhereAndHowSure: a perception event's text has
// the thing's last place, its age and the confidence in it.
func TestAPerceptionEventSaysWhereAndHowSure(t *testing.T) {
	ev := bdi.Event{Kind: bdi.Lost, Slot: -1, Name: "enemy",
		Thing: perception.Remembered{Source: "enemy", X: 4, Y: -2.5, Age: 0.5, Confidence: 0.75}}
	assert.Equal(t, "lost enemy at (4, -2.5), age 0.5 s, confidence 0.75", ev.String())
}

// TestABeliefOfAVariableTheLibraryDoesNotKnowGoesToUnfilteredPlans: a
// belief event of a variable past the library's domain (a library
// attached to an agent of a larger domain) reaches the plans without a
// belief filter, as a belief no filter names does.
func TestABeliefOfAVariableTheLibraryDoesNotKnowGoesToUnfilteredPlans(t *testing.T) {
	small, large := domain(t, "a"), domain(t, "a", "b")
	var seen []string
	lib, err := bdi.NewLibrary(small, []*bdi.Plan{
		{On: bdi.BeliefAdded, Belief: "a", Body: done(nil)},
		{On: bdi.BeliefAdded, Body: bdi.Func(func(_ *engine.Agent, ev *bdi.Event, _ any) (any, error) {
			seen = append(seen, ev.Name)
			return nil, nil
		})},
	})
	require.NoError(t, err)
	w, a, _ := world(large)
	bdi.Attach(a, &bdi.Config{Library: lib})
	w.Tick(0.1)
	a.Set("b", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Equal(t, []string{"b"}, seen)
}

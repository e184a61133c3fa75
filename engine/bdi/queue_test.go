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
// the end of the tick it began in; with ticks of different lengths it
// ends at the first tick whose end is past it.
func TestAWaitsTimeoutIsInGameTime(t *testing.T) {
	d := domain(t, "bell")
	var timed *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("timed")}},
		&bdi.Plan{Name: "timed", On: bdi.GoalAdded, Goal: "timed", Body: waitFor(isBelief("bell"), 0.25, &timed)})
	w, _, _ := world(d)
	w.Tick(0.1) // the wait begins: it ends at t = 0.35
	w.Tick(0.2) // to t = 0.3
	assert.False(t, timed.p.Done(), "t = 0.3")
	w.Tick(0.2) // to t = 0.5
	require.True(t, timed.p.Done(), "t = 0.5")
	assert.True(t, timed.p.TimedOut())
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

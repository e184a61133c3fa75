package bdi_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func isBelief(name string) func(*bdi.Event) (bool, error) {
	return func(ev *bdi.Event) (bool, error) { return ev.Kind == bdi.BeliefAdded && ev.Name == name, nil }
}

// waitFor is an awaitTask body that waits for an event with match and
// timeout; the task is kept in *task.
func waitFor(match func(*bdi.Event) (bool, error), timeout float64, task **awaitTask) bdi.Body {
	return bodyFunc(func(a *engine.Agent) bdi.Task {
		t := &awaitTask{a: a, what: "wait_event",
			begin: func(m *bdi.Mind) *bdi.Pending { return m.WaitEvent(match, timeout) },
			end: func(p *bdi.Pending) (any, error) {
				if _, err := p.Result(); err != nil {
					return nil, err
				}
				if p.TimedOut() {
					return "timed out", nil
				}
				ev, ok := p.Event()
				if !ok {
					return nil, errors.New("no event")
				}
				return ev.String(), nil
			}}
		*task = t
		return t
	})
}

// TestAnIntentionWaitsForAnEvent: a wait ends at the first matching event
// after it began, in the tick the event is dispatched; the intention goes
// on in that tick, and says what it waited for meanwhile.
func TestAnIntentionWaitsForAnEvent(t *testing.T) {
	d := domain(t, "bell", "noise")
	var task *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("listen")}},
		&bdi.Plan{Name: "listen", On: bdi.GoalAdded, Goal: "listen", Body: waitFor(isBelief("bell"), 0, &task)})
	w, a, tr := world(d)
	w.Tick(0.1)
	m := bdi.Of(a)
	require.Len(t, m.Intentions(), 1)
	in := m.Intentions()[0]
	assert.Equal(t, "wait_event", in.Waiting())
	assert.Equal(t, "goal_added listen", (&[]bdi.Event{in.Event()}[0]).String())
	assert.Equal(t, 0, in.Depth())
	assert.True(t, m.Busy())
	a.Set("noise", expr.NumberValue(1))
	w.Tick(0.1)
	assert.False(t, task.p.Done(), "another belief does not match")
	a.Set("bell", expr.NumberValue(1))
	w.Tick(0.1)
	require.True(t, task.p.Done())
	assert.False(t, task.p.TimedOut())
	assert.Equal(t, "belief_added bell = 1 (was 0)", task.res)
	assert.Equal(t, 3, task.resumes, "started, resumed at tick 2, then woken at tick 3 by the event")
	assert.Empty(t, m.Intentions())
	assert.False(t, m.Busy())
	suspended := tr.kinds(record.EventIntentionSuspend)
	require.Len(t, suspended, 1)
	assert.Contains(t, suspended[0], `action=listen intention=#1 reason="wait_event"`)
}

// TestAWaitTimesOut: with a timeout, the wait ends after that many
// seconds of game time without an event, and one whose filter fails ends
// with the filter's error.
func TestAWaitTimesOut(t *testing.T) {
	d := domain(t, "bell")
	var timed, broken *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("timed"), reactive.GoalNamed("broken")}},
		&bdi.Plan{Name: "timed", On: bdi.GoalAdded, Goal: "timed", Body: waitFor(isBelief("bell"), 0.25, &timed)},
		&bdi.Plan{Name: "broken", On: bdi.GoalAdded, Goal: "broken",
			Body: waitFor(func(*bdi.Event) (bool, error) { return false, errors.New("r.lua:7: bad filter") }, 0, &broken)})
	w, a, tr := world(d)
	w.Tick(0.1) // waits from t = 0.1 (the end of this tick)
	w.Tick(0.1)
	assert.False(t, timed.p.Done(), "t = 0.2")
	a.Set("bell", expr.NumberValue(1))
	w.Tick(0.1)
	require.True(t, timed.p.Done(), "t = 0.3: the bell rang, but the filter saw it too")
	assert.Equal(t, "belief_added bell = 1 (was 0)", timed.res)
	require.True(t, broken.p.Done())
	_, err := broken.p.Result()
	assert.EqualError(t, err, "r.lua:7: bad filter")
	_, ok := broken.p.Event()
	assert.False(t, ok)
	assert.Len(t, tr.kinds(record.EventIntentionFailed), 1)

	// Without the bell the same wait times out at t = 0.35 (tick 4).
	d2 := domain(t, "bell")
	install(t, d2, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("timed")}},
		&bdi.Plan{Name: "timed", On: bdi.GoalAdded, Goal: "timed", Body: waitFor(isBelief("bell"), 0.25, &timed)})
	w, _, _ = world(d2)
	for range 3 {
		w.Tick(0.1)
	}
	assert.False(t, timed.p.Done(), "t = 0.3")
	w.Tick(0.1)
	require.True(t, timed.p.Done(), "t = 0.4")
	assert.True(t, timed.p.TimedOut())
	assert.Equal(t, "timed out", timed.res)
}

// racer awaits a slow sub-goal and an event wait of 0.15 s; when the wait
// times out it gives up the sub-goal (Pending.Cancel) and runs on.
type racer struct {
	a         *engine.Agent
	sub, wait *bdi.Pending
	resumedAt []int
}

func (r *racer) Resume(float64) (engine.Status, error) {
	r.resumedAt = append(r.resumedAt, r.a.Ticks())
	m := bdi.Of(r.a)
	if r.sub == nil {
		r.sub = m.Await(reactive.GoalNamed("slow"))
		r.wait = m.WaitEvent(func(*bdi.Event) (bool, error) { return false, nil }, 0.15)
	}
	if r.wait.Done() && !r.sub.Done() {
		r.sub.Cancel()
	}
	return engine.Running, nil
}
func (r *racer) Result() any { return nil }
func (r *racer) Stop()       {}

// TestACancelledWaitWakesNobody: a cancelled Pending is done at once, and
// when the sub-goal completes later its intention is not woken for it.
func TestACancelledWaitWakesNobody(t *testing.T) {
	d := domain(t)
	r := &racer{}
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("race")}},
		&bdi.Plan{Name: "race", On: bdi.GoalAdded, Goal: "race", Body: bodyFunc(func(a *engine.Agent) bdi.Task { r.a = a; return r })},
		&bdi.Plan{Name: "slow", On: bdi.GoalAdded, Goal: "slow", Body: bodyFunc(func(*engine.Agent) bdi.Task { return &slowTask{} })})
	w, _, tr := world(d)
	for range 3 {
		w.Tick(0.1)
	}
	require.True(t, r.sub.Done(), "cancelled at tick 3, when the wait timed out")
	res, err := r.sub.Result()
	assert.Nil(t, res)
	assert.NoError(t, err)
	w.Tick(0.1) // the slow sub-goal completes
	w.Tick(0.1)
	assert.Len(t, tr.kinds(record.EventGoalRemoved), 1, "slow completed")
	assert.Equal(t, []int{1, 2, 3, 3, 4, 5}, r.resumedAt,
		"once a tick, plus once at tick 3 when the wait timed out; not again when slow completed at tick 4")
	res, _ = r.sub.Result()
	assert.Nil(t, res, "the result of a cancelled wait stays empty")
}

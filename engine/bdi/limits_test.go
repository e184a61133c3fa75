package bdi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// forever is a body whose intention never ends.
var forever = bodyFunc(func(*engine.Agent) bdi.Task { return stopTask{new(bool)} })

func reasons(tr *tracer, k record.EventKind) []string {
	var out []string
	for _, l := range tr.kinds(k) {
		out = append(out, l[strings.Index(l, "reason="):])
	}
	return out
}

// TestBeliefEventsPastMaxEventsAreDropped: past MaxEvents waiting belief
// events, the later ones of the tick are dropped, with one record.
func TestBeliefEventsPastMaxEventsAreDropped(t *testing.T) {
	d := domain(t, "a", "b", "c", "e")
	var seen []string
	install(t, d, &bdi.Config{MaxEvents: 2}, &bdi.Plan{Name: "see", On: bdi.BeliefAdded,
		Body: bdi.Func(func(_ *engine.Agent, ev *bdi.Event, _ any) (any, error) {
			seen = append(seen, ev.Name)
			return nil, nil
		})})
	w, a, tr := world(d)
	w.Tick(0.1)
	for _, v := range []string{"a", "b", "c", "e"} {
		a.Set(v, expr.NumberValue(1))
	}
	w.Tick(0.1)
	assert.Equal(t, []string{"a", "b"}, seen)
	assert.Equal(t, []string{`reason="more than 2 events waiting; belief_added c and the later belief events of this tick are dropped (a plan that believes what triggers it?)"`},
		reasons(tr, record.EventNoPlan))
	assert.Equal(t, expr.NumberValue(1), a.Get("e"), "the state keeps the value")
}

// TestIntentionsPastMaxIntentionsAreRefused: a goal past MaxIntentions
// fails; a belief event past it starts no plan, with one record a tick.
func TestIntentionsPastMaxIntentionsAreRefused(t *testing.T) {
	d := domain(t, "a", "b", "c")
	install(t, d, &bdi.Config{MaxIntentions: 2},
		&bdi.Plan{Name: "hold", On: bdi.GoalAdded, Goal: "hold", Body: forever},
		&bdi.Plan{Name: "watch", On: bdi.BeliefAdded, Body: forever})
	w, a, tr := world(d)
	w.Tick(0.1)
	for range 3 {
		require.NoError(t, a.Achieve(reactive.GoalNamed("hold")))
	}
	w.Tick(0.1)
	assert.Len(t, bdi.Of(a).Intentions(), 2)
	assert.Equal(t, []string{`reason="bdi: goal hold: more than 2 intentions and queued goals at once (a plan that adds goals faster than they finish?)"`},
		reasons(tr, record.EventGoalFailed))
	a.Set("a", expr.NumberValue(1))
	a.Set("b", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Len(t, bdi.Of(a).Intentions(), 2)
	assert.Equal(t, []string{`reason="more than 2 intentions at once; plan \"watch\" and the other plans of this tick's belief_added events do not start (a plan that believes what triggers it?)"`},
		reasons(tr, record.EventNoPlan))
}

// TestQuietBeliefsLeavesOutUnheardBeliefs: with QuietBeliefs, a belief no
// plan's kind and shorthand fit and no wait listens to is not recorded,
// nor are belief events whose plans all refused.
func TestQuietBeliefsLeavesOutUnheardBeliefs(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		d := domain(t, "a", "b")
		install(t, d, &bdi.Config{QuietBeliefs: quiet},
			&bdi.Plan{Name: "on a", On: bdi.BeliefAdded, Belief: "a",
				Guard: func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, nil }, Body: done(nil)})
		w, a, tr := world(d)
		w.Tick(0.1)
		a.Set("a", expr.NumberValue(1))
		a.Set("b", expr.NumberValue(1))
		require.NoError(t, a.Forget("b"))
		w.Tick(0.1)
		var got []string
		for _, l := range tr.lines {
			if f := strings.Fields(l)[5:]; f[0] != "idle" {
				got = append(got, strings.Join(f, " "))
			}
		}
		if quiet {
			assert.Equal(t, []string{"belief-added belief=a value=1 old=0"}, got)
		} else {
			assert.ElementsMatch(t, []string{"belief-added belief=a value=1 old=0",
				`no-plan belief=a reason="no applicable plan (1 relevant, every guard refused): ignored"`,
				"belief-removed belief=b old=0"}, got)
		}
	}
}

// TestATriggerErrorFailsAGoalAndSkipsAPlanForABelief: a trigger that
// raises fails a goal event's goal with its error, and for a belief
// event makes its plan not relevant, recorded once.
func TestATriggerErrorFailsAGoalAndSkipsAPlanForABelief(t *testing.T) {
	d := domain(t, "a")
	boom := func(*engine.Agent, *bdi.Event) (any, error) { return nil, errors.New("r.lua:2: boom") }
	var ran []string
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "broken", On: bdi.GoalAdded, Goal: "g", Trigger: boom, Body: done(nil)},
		&bdi.Plan{Name: "spare", On: bdi.GoalAdded, Goal: "g", Body: done("spare")},
		&bdi.Plan{Name: "broken belief", On: bdi.BeliefAdded, Trigger: boom, Body: done(nil)},
		&bdi.Plan{Name: "belief", On: bdi.BeliefAdded, Body: bdi.Func(func(_ *engine.Agent, ev *bdi.Event, _ any) (any, error) {
			ran = append(ran, ev.Name)
			return nil, nil
		})},
	)
	w, a, tr := world(d)
	w.Tick(0.1)
	require.NoError(t, a.Achieve(reactive.GoalNamed("g")))
	a.Set("a", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Equal(t, []string{"a"}, ran, "the next plan for the belief runs")
	assert.Equal(t, []string{`reason="plan \"broken\" trigger: r.lua:2: boom"`, `reason="plan \"broken belief\" trigger: r.lua:2: boom"`,
		`reason="no relevant plan: the goal fails"`}, reasons(tr, record.EventNoPlan),
		"the goal fails, the spare plan does not run, and no goal_failed plan recovers it")
	assert.Equal(t, []string{`reason="plan \"broken\" trigger: r.lua:2: boom"`}, reasons(tr, record.EventGoalFailed))
}

// TestABodyThatCannotStartFailsItsGoal: an error from Body.Start fails the
// intention and its goal at once; a task that reports neither success nor
// failure fails with a sentence that says so.
func TestABodyThatCannotStartFailsItsGoal(t *testing.T) {
	d := domain(t)
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "broken", On: bdi.GoalAdded, Goal: "g", Body: brokenBody{}},
		&bdi.Plan{Name: "odd", On: bdi.GoalAdded, Goal: "h", Body: bodyFunc(func(*engine.Agent) bdi.Task { return oddTask{} })})
	w, a, tr := world(d)
	require.NoError(t, a.Achieve(reactive.GoalNamed("g")))
	require.NoError(t, a.Achieve(reactive.GoalNamed("h")))
	w.Tick(0.1)
	assert.Equal(t, []string{`reason="r.lua:1: no such function"`, `reason="bdi: the body reported invalid"`},
		reasons(tr, record.EventIntentionFailed))
	assert.Equal(t, []string{`reason="r.lua:1: no such function"`, `reason="bdi: the body reported invalid"`},
		reasons(tr, record.EventGoalFailed))
}

type brokenBody struct{}

func (brokenBody) Start(*engine.Agent, *bdi.Event, any) (bdi.Task, error) {
	return nil, errors.New("r.lua:1: no such function")
}

type oddTask struct{}

func (oddTask) Resume(float64) (engine.Status, error) { return 0, nil }
func (oddTask) Result() any                           { return nil }
func (oddTask) Stop()                                 {}

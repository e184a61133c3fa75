package bdi_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// lapTask is an intention that suspends for ticks resumes, then counts
// one more lap in the belief var.
type lapTask struct {
	a    *engine.Agent
	left int
	name string
}

func (s *lapTask) Resume(float64) (engine.Status, error) {
	if s.left--; s.left > 0 {
		return engine.Running, nil
	}
	n, _ := s.a.Get(s.name).AsNumber()
	return engine.Succeeded, s.a.Believe(s.name, expr.NumberValue(n+1))
}
func (s *lapTask) Result() any { return nil }
func (s *lapTask) Stop()       {}

type lapBody struct {
	ticks int
	name  string
}

func (b lapBody) Start(a *engine.Agent, _ *bdi.Event, _ any) (bdi.Task, error) {
	return &lapTask{a: a, left: b.ticks, name: b.name}, nil
}

func reactiveWorld(t *testing.T) (*engine.World, *engine.Domain) {
	d := domain(t, "laps", "rounds")
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("patrol")}},
		&bdi.Plan{Name: "walk", On: bdi.GoalAdded, Goal: "patrol", Body: lapBody{ticks: 6, name: "laps"}},
		&bdi.Plan{Name: "watch", On: bdi.GoalAdded, Goal: "guard", Body: lapBody{ticks: 4, name: "rounds"}},
	)
	w := engine.NewWorld(3)
	w.Add(engine.NewAgent("scout", d))
	return w, d
}

func TestSnapshotRestartsIntentionsFromTheirGoals(t *testing.T) {
	w, d := reactiveWorld(t)
	a := w.Agents[0]
	w.Tick(0.1)
	require.NoError(t, a.Achieve(reactive.GoalTuple(expr.StringValue("guard"), expr.NumberValue(2))))
	w.Tick(0.1)
	w.Tick(0.1)
	m := bdi.Of(a)
	require.NotNil(t, m)
	require.Len(t, m.Intentions(), 2, "both intentions are mid-run")
	assert.Equal(t, []reactive.Goal{reactive.GoalNamed("patrol"), reactive.GoalTuple(expr.StringValue("guard"), expr.NumberValue(2))},
		m.SavedGoals())

	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	tr := &tracer{}
	r.OnEvent = tr.add
	for i := 0; i < 10; i++ {
		r.Tick(0.1)
	}
	b := r.Agents[0]
	// Each goal got a fresh intention and completed once; the initial
	// goal was not added a second time.
	assert.Equal(t, expr.NumberValue(1), b.Get("laps"))
	assert.Equal(t, expr.NumberValue(1), b.Get("rounds"))
	assert.Equal(t, []string{
		`tick    4  t=  0.300s  scout        goal-added  goal=patrol`,
		`tick    4  t=  0.300s  scout        goal-added  goal={"guard", 2}`,
	}, tr.kinds(record.EventGoalAdded))
	assert.Len(t, tr.kinds(record.EventGoalRemoved), 2)
	assert.Empty(t, bdi.Of(b).Intentions())
}

// A world saved before its first tick starts its initial goals as usual.
func TestSnapshotBeforeFirstTickKeepsInitialGoals(t *testing.T) {
	w, d := reactiveWorld(t)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	for i := 0; i < 6; i++ {
		r.Tick(0.1)
	}
	assert.Equal(t, expr.NumberValue(1), r.Agents[0].Get("laps"))
}

// TestSavedGoalsKeepQueuedGoals: goals added since the last tick are
// saved, once each, in order; queued belief events are not goals.
func TestSavedGoalsKeepQueuedGoals(t *testing.T) {
	w, _ := reactiveWorld(t)
	a := w.Agents[0]
	w.Tick(0.1)
	guard := reactive.GoalTuple(expr.StringValue("guard"), expr.NumberValue(1))
	require.NoError(t, a.Achieve(guard))
	require.NoError(t, a.Achieve(reactive.GoalNamed("patrol")))
	require.NoError(t, a.Achieve(guard))
	bdi.Of(a).Believed(a, reactive.BeliefChange{Name: "laps", New: expr.NumberValue(3)})
	assert.Equal(t, []reactive.Goal{reactive.GoalNamed("patrol"), guard}, bdi.Of(a).SavedGoals(),
		"patrol's intention runs; guard is queued twice and patrol once more, saved once each")
}

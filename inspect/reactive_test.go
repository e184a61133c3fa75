package inspect

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
)

// listening is a plan body that waits for ever, saying on what.
type listening struct{}

func (listening) Start(*engine.Agent, *bdi.Event, any) (bdi.Task, error) { return &listenTask{}, nil }

type listenTask struct{ n int }

func (t *listenTask) Resume(float64) (engine.Status, error) { t.n++; return engine.Running, nil }
func (t *listenTask) Result() any                           { return nil }
func (t *listenTask) Stop()                                 {}
func (t *listenTask) Suspension() (int, string)             { return t.n, "wait for the bell" }

func TestAgentViewShowsIntentionsAndWhatTheyWaitFor(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "Sentry", State: []engine.Var{{Name: "alert", Value: expr.BoolValue(false)}}})
	require.NoError(t, err)
	lib, err := bdi.NewLibrary(d, []*bdi.Plan{{Name: "listen", On: bdi.GoalAdded, Goal: "guard", Body: listening{}}})
	require.NoError(t, err)
	bdi.Install(d, &bdi.Config{Library: lib})
	w := engine.NewWorld(1)
	a := engine.NewAgent("sentry", d)
	w.Add(a)
	require.NoError(t, a.Achieve(reactive.GoalNamed("guard")))
	ins := New(Options{})
	require.NoError(t, ins.Attach("post", w))
	f := &fixture{t: t, ins: ins, w: w}
	f.srv = newServer(t, ins)
	f.ticks(2)
	var v AgentView
	f.get("/api/worlds/post/agents/sentry", &v)
	assert.Equal(t, "reactive", v.Decision)
	assert.Equal(t, []Intention{{ID: 1, Plan: "listen", Event: "goal_added guard", Waiting: "wait for the bell"}}, v.Intentions,
		"a top-level intention has depth 0")
	var rows []AgentRow
	f.get("/api/agents?decision=reactive", &rows)
	require.Len(t, rows, 1)
	assert.Equal(t, "sentry", rows[0].Name)
}

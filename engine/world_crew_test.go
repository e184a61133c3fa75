package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestLaneCrewTicksEveryLaneOnce: whether the helpers of runLanes spin
// from tick to tick (ticks back to back), end with their lanes (ticks
// apart), or outlive a change of Workers, every agent ticks exactly once
// a tick, and the records are those of one worker. The pauses only
// change which goroutines tick the lanes; nothing here reads a clock.
func TestLaneCrewTicksEveryLaneOnce(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("finish", "done", Normal)},
		Actions: []ActionSpec{NewAction("work").Effects("done = true").Body(recordingBody{}).Spec()}})
	require.NoError(t, err)
	run := func(workers []int) ([]string, []int) {
		w := NewWorld(3)
		var out []string
		w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%d %s %s %s", e.Tick, e.Agent, e.Kind, e.Reason)) }
		for i := range 40 {
			w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
		}
		w.Pin(3, 1)
		for tick, k := range workers {
			w.Workers = k
			if tick%5 == 4 {
				time.Sleep(2 * crewSpin) // the helpers end before the next tick
			}
			w.Tick(0.1)
		}
		ticks := make([]int, len(w.Agents))
		for i, a := range w.Agents {
			ticks[i] = a.tick
		}
		return out, ticks
	}
	var one, mixed []int
	for i := range 60 {
		one = append(one, 1)
		mixed = append(mixed, []int{2, 2, 2, 3, 3, 2, 1, 2, 4, 2}[i%10])
	}
	want, wantTicks := run(one)
	require.Greater(t, len(want), 40*10, "the agents make records")
	for i := range wantTicks {
		require.Equal(t, 60, wantTicks[i], "agent %d ticked once a tick on one worker", i)
	}
	for name, workers := range map[string][]int{"two": func() []int {
		var two []int
		for range 60 {
			two = append(two, 2)
		}
		return two
	}(), "mixed": mixed} {
		got, ticks := run(workers)
		assert.Equal(t, wantTicks, ticks, "%s: every agent ticked once a tick", name)
		assert.Equal(t, want, got, "%s: the records of one worker", name)
	}
}

// recordingBody runs forever and records, at each resume, the agent's
// tick and the dt it was given.
type recordingBody struct{}

func (recordingBody) Start(a *Agent, _ *Action) (Task, error) { return recordingTask{a}, nil }

type recordingTask struct{ a *Agent }

func (t recordingTask) Resume(dt float64) (Status, error) {
	t.a.Record(record.Event{Kind: record.EventSummary, Reason: fmt.Sprintf("tick %d dt %g", t.a.tick, dt)})
	return Running, nil
}

func (recordingTask) Interrupt() {}

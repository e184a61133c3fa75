package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// handOnRun ticks a world of n agents on the given number of workers
// (pinned in reverse, so that a worker's agents are not every k-th one):
// some agents' bodies tell a neighbour a belief, some records are made by
// the game between ticks, and the world's records are returned with the
// beliefs each agent ends with.
func handOnRun(t *testing.T, n, workers int) ([]string, []string) {
	t.Helper()
	tell := BodyFunc(func(a *Agent, act *Action) (Status, error) {
		to := fmt.Sprintf("a%d", (a.ID+3)%n)
		x, _ := a.Get("count").AsNumber()
		if err := a.Tell(to, "heard", expr.NumberValue(float64(a.ID)*100+x)); err != nil {
			return Failed, err
		}
		a.Set("count", expr.NumberValue(x+1))
		return Succeeded, nil
	})
	d, err := Compile(RoleSpec{Name: "R",
		State: []Var{{"count", expr.NumberValue(0)}, {"heard", expr.NumberValue(-1)}},
		Goals: []GoalSpec{NewGoal("done", "count >= 4", Normal)},
		Actions: []ActionSpec{
			NewAction("talk").Effects("count = count + 1").Body(tell).Spec(),
		}})
	require.NoError(t, err)
	w := NewWorld(5)
	w.Workers = workers
	var out []string
	w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%d %s %s %s", e.Tick, e.Agent, e.Kind, e.Reason)) }
	for i := range n {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
		w.Pin(i, n-1-i)
	}
	for tick := range 8 {
		if tick%3 == 1 {
			w.Agents[tick%n].Record(record.Event{Kind: record.EventSummary, Reason: "from the game"})
		}
		w.Tick(0.1)
	}
	var heard []string
	for _, a := range w.Agents {
		heard = append(heard, a.Get("heard").String())
	}
	return out, heard
}

// TestRecordsAndTellsAreHandedOnInAgentOrder: World.Tick hands on only the
// agents that have records or tells (tickLane's busy lists), merged into
// agent order: the records and the delivered beliefs are the same with
// 1, 2 and 3 workers.
func TestRecordsAndTellsAreHandedOnInAgentOrder(t *testing.T) {
	want, wantHeard := handOnRun(t, 7, 1)
	require.Greater(t, len(want), 30)
	assert.Equal(t, "7 a0 summary from the game", want[len(want)-1], "a record made between ticks by an idle agent is handed on at the next tick")
	assert.Equal(t, []string{"403", "503", "603", "3", "103", "203", "303"}, wantHeard, "each agent heard its last teller")
	for _, workers := range []int{2, 3} {
		got, heard := handOnRun(t, 7, workers)
		assert.Equal(t, want, got, "%d workers", workers)
		assert.Equal(t, wantHeard, heard, "%d workers", workers)
	}
}

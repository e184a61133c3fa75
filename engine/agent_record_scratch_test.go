package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestPickRecordsAllocateNothingWhenNoOneKeepsThem: an agent that picks
// and plans every tick, in a world with no OnEvent, makes its pick and
// plan records with the same lists every time (the flight recorder
// encodes them into its own bytes), so its ticks allocate only the task
// of the body it starts (BodyFunc's); with
// OnEvent set, every record gets lists of its own, which the handler may
// keep.
func TestPickRecordsAllocateNothingWhenNoOneKeepsThem(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops the planner's buffers at random")
	}
	d, err := Compile(RoleSpec{Name: "Busy", Decide: "hybrid",
		State: []Var{{"n", expr.NumberValue(0)}},
		Goals: []GoalSpec{NewGoal("counted", "n < 0", Normal)},
		Actions: []ActionSpec{
			NewAction("count").Effects("n = n + 1").Body(BodyFunc(ApplyEffects)).Spec(),
			NewAction("nudge").Effects("n = n - 1").Body(BodyFunc(ApplyEffects)).Spec(),
		},
	})
	require.NoError(t, err)
	for _, keep := range []bool{false, true} {
		w := NewWorld(1)
		var kept []record.Event
		if keep {
			w.OnEvent = func(e record.Event) {
				if e.Kind == record.EventPick || e.Kind == record.EventPlan {
					kept = append(kept[:0], e)
				}
			}
		}
		a := NewAgent("a", d)
		w.Add(a)
		for range 200 {
			w.Tick(0.1)
		}
		picks, plans := a.Recorder.Count(record.EventPick), a.Recorder.Count(record.EventPlan)
		allocs := testing.AllocsPerRun(100, func() { w.Tick(0.1) })
		require.Greater(t, a.Recorder.Count(record.EventPick), picks, "it picks in the ticks measured")
		require.Greater(t, a.Recorder.Count(record.EventPlan), plans, "and plans")
		if !keep {
			assert.Equal(t, 1.0, allocs, "no one keeps the records: only the body's task is new")
			continue
		}
		assert.Greater(t, allocs, 1.0, "the records are handed on, with lists of their own")
	}
}

package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/record"
)

// thinkTicks ticks w ticks times by dt and returns, per agent, the ticks
// (counted from 1) in which it thought.
func thinkTicks(w *World, ticks int, dt float64) [][]int {
	out := make([][]int, len(w.Agents))
	before := make([]int, len(w.Agents))
	for tick := 1; tick <= ticks; tick++ {
		for i, a := range w.Agents {
			before[i] = a.Ticks()
		}
		w.Tick(dt)
		for i, a := range w.Agents {
			if a.Ticks() != before[i] {
				out[i] = append(out[i], tick)
			}
		}
	}
	return out
}

// TestAThinkDueAtATicksEndIsServedInThatTick: an agent whose first think
// falls due exactly at the end of its second tick (each tick half its
// first wait) thinks in that tick, with a budget and without.
func TestAThinkDueAtATicksEndIsServedInThatTick(t *testing.T) {
	d := walkerRole(t)
	for _, budget := range []int{0, 1} {
		w := NewWorld(1)
		w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{5}, Budget: budget}
		w.Add(NewAgent("a", d))
		half := lodPhase(w.Agents[0].ID) / 5 / 2
		assert.Equal(t, [][]int{{2}}, thinkTicks(w, 3, half), "budget %d", budget)
	}
}

// TestAnAgentServedAPeriodLateThinksAPeriodAfterIt: four agents due every
// other tick under a budget of one think a tick are each served a period
// late; when the budget is lifted, one served late thinks next a period
// after the tick that served it, and one served less late a period after
// the think it was due (so it catches up).
func TestAnAgentServedAPeriodLateThinksAPeriodAfterIt(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{5}, Budget: 1}
	for i := range 4 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	require.Equal(t, [][]int{{4, 8}, {1, 5}, {2, 6}, {3, 7}}, thinkTicks(w, 8, 0.1), "one think a tick, in turn")
	w.LOD.Budget = 0
	assert.Equal(t, [][]int{{2, 4, 6}, {1, 3, 5}, {1, 2, 4, 6}, {1, 3, 5}}, thinkTicks(w, 6, 0.1),
		"a0 was served at tick 8 a period late: next at tick 10; a2, due at tick 8, thinks at 9 and 10")
}

// TestDueAgentsThatFitTheBudgetLeaveItsCursor: when the agents due in a
// tick fit the budget, all of them think and the budget's cursor stays
// where the last full tick left it. Three agents due every other tick at
// a budget of one: a tick with one agent due serves it and the next full
// tick goes on from where the cursor was.
func TestDueAgentsThatFitTheBudgetLeaveItsCursor(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{30}, Budget: 1}
	for i := range 3 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	assert.Equal(t, [][]int{{2, 5, 8, 11}, {1, 3, 6, 9, 12}, {4, 7, 10}}, thinkTicks(w, 12, 1.0/60))
}

// TestALevelWithoutRatesIsRecordedAsEveryTick: a level of detail with no
// lowered rate is recorded with "every tick", and a lowered one with its
// rate.
func TestALevelWithoutRatesIsRecordedAsEveryTick(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	level := 2
	w.LOD = LOD{Level: func(*Agent) int { return level }}
	var got []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventLOD {
			got = append(got, e.Reason)
		}
	}
	w.Add(NewAgent("a", d))
	w.Tick(0.1)
	w.LOD.Rates = []float64{2.5}
	level = 1
	thinkTicks(w, 4, 0.1)
	assert.Equal(t, []string{"level 2, every tick", "level 1, 2.5 Hz"}, got)
}

// TestLODOffAfterFewThinksTicksEveryAgent: 25 agents at a lowered rate,
// none of which thinks in the first tick, all tick in the tick after the
// level of detail is turned off.
func TestLODOffAfterFewThinksTicksEveryAgent(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.Workers = 1
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{0.5}}
	for i := range 25 {
		w.Add(NewAgent(fmt.Sprintf("a%02d", i), d))
	}
	w.Tick(0.01)
	w.LOD.Level = nil
	require.NotPanics(t, func() { w.Tick(0.01) })
	for _, a := range w.Agents {
		assert.Equal(t, 1, a.Ticks(), a.Name)
	}
}

// TestAThinkDueWithinTheToleranceOfATicksEndIsServedInThatTick: a think
// due lodEps after a tick's end is served in that tick, with a budget and
// without.
func TestAThinkDueWithinTheToleranceOfATicksEndIsServedInThatTick(t *testing.T) {
	d := walkerRole(t)
	for _, budget := range []int{0, 1} {
		w := NewWorld(1)
		w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{5}, Budget: budget}
		w.Add(NewAgent("a", d))
		due := lodPhase(w.Agents[0].ID) / 5
		half := (due - lodEps) / 2
		require.Equal(t, due, half+half+lodEps, "the think falls due exactly lodEps after the second tick's end")
		assert.Equal(t, [][]int{{2}}, thinkTicks(w, 3, half), "budget %d", budget)
	}
}

package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestARateWhosePeriodIsATickWithinTheToleranceIsEveryTick: a lowered
// rate whose period is exactly the tick's dt plus lodEps is no lower than
// the tick rate: the agent thinks every tick, and its level says so (rate
// 0), rather than waiting a share of a period for its first think.
func TestARateWhosePeriodIsATickWithinTheToleranceIsEveryTick(t *testing.T) {
	d := walkerRole(t)
	const dt = 0.1
	rate := 1 / (dt + lodEps)
	require.Equal(t, dt+lodEps, 1/rate, "the rate's period is exactly dt+lodEps")
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{rate}}
	w.Add(NewAgent("a", d))
	assert.Equal(t, [][]int{{1, 2, 3}}, thinkTicks(w, 3, dt))
	level, got := w.Agents[0].LODLevel()
	assert.Equal(t, 0, level)
	assert.Zero(t, got, "every tick")
}

// TestAThinkServedWithinTheToleranceOfAPeriodLateIsNextAPeriodLater: two
// agents at 5 Hz (a period of 0.2 s) under a budget of one think a tick,
// both due in the first tick: b (the first) thinks in it, a in the
// second tick, which ends lodEps less than a period after a's think was
// due. a's next think, a period after the one due, then falls due within
// the tolerance of that tick's end: it is put a whole period after the
// tick, not left due in the next tick.
func TestAThinkServedWithinTheToleranceOfAPeriodLateIsNextAPeriodLater(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{5}, Budget: 1}
	w.Add(NewAgent("b", d))
	w.Add(NewAgent("a", d))
	dueA, dueB := lodPhase(w.Agents[1].ID)/5, lodPhase(w.Agents[0].ID)/5
	const first = 0.13
	require.Less(t, dueA, dueB)
	require.Less(t, dueB, first, "both are due in the first tick")
	second := dueA + 0.2 - lodEps - first
	require.Less(t, second, 0.2-lodEps, "a tick shorter than the period keeps the rate")
	require.Equal(t, dueA+0.2, first+second+lodEps, "a's next think falls due exactly lodEps after the second tick's end")
	require.Equal(t, [][]int{{1}, nil}, thinkTicks(w, 1, first))
	require.Equal(t, [][]int{nil, {1}}, thinkTicks(w, 1, second))
	assert.Equal(t, [][]int{nil, nil}, thinkTicks(w, 1, 0.01), "a is next due a period after the second tick")
}

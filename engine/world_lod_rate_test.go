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

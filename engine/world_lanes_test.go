package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// workingDomain is a role whose one action's body runs for ever.
func workingDomain(t *testing.T) *Domain {
	t.Helper()
	d, err := Compile(RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("finish", "done", Normal)},
		Actions: []ActionSpec{NewAction("work").Effects("done = true").Body(ticksBody{n: 1 << 30}).Spec()}})
	require.NoError(t, err)
	return d
}

// TestLanesFollowPinsAddsAndRemoves: on more than one worker the lanes
// are kept from tick to tick, and made again after a Pin, an Add, a
// Remove or a change of Workers, so every agent ticks once a tick, on its
// worker. The agents no Pin placed are split in agent order into
// contiguous runs, one per worker.
func TestLanesFollowPinsAddsAndRemoves(t *testing.T) {
	d := workingDomain(t)
	w := NewWorld(1)
	w.Workers = 2
	for i := range 6 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	ticks := func() []int {
		out := make([]int, len(w.Agents))
		for i, a := range w.Agents {
			out[i] = a.tick
		}
		return out
	}
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2}, {3, 4, 5}}, w.lanes, "two runs")
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2}, {3, 4, 5}}, w.lanes, "kept")
	assert.Equal(t, []int{2, 2, 2, 2, 2, 2}, ticks())

	w.Pin(0, 1)
	w.Pin(5, 0)
	w.Tick(1.0 / 60)
	// The free 1, 2, 3, 4 split in two runs; 0 and 5 go where pinned.
	assert.Equal(t, [][]int32{{1, 2, 5}, {0, 3, 4}}, w.lanes, "after Pin")

	require.True(t, w.Remove(w.Agents[1])) // a1 goes; a5 (pinned to 0) is now index 4
	w.Tick(1.0 / 60)
	// The free 1, 2, 3 (a2, a3, a4): places 0 and 1 of 3 on worker 0.
	assert.Equal(t, [][]int32{{1, 2, 4}, {0, 3}}, w.lanes, "after Remove")

	w.Add(NewAgent("a6", d)) // index 5, unpinned: the free are now 1, 2, 3, 5
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{1, 2, 4}, {0, 3, 5}}, w.lanes, "after Add")
	assert.Equal(t, []int{5, 5, 5, 5, 5, 1}, ticks(), "every agent ticked once a tick")

	w.Workers = 3
	w.Tick(1.0 / 60)
	// Pins 1 and 0 stay; the free 1, 2, 3, 5 go to workers 0, 0, 1, 2
	// (place j of 4 to j*3/4).
	assert.Equal(t, [][]int32{{1, 2, 4}, {0, 3}, {5}}, w.lanes, "after Workers changed")
	w.Workers = 1
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2, 3, 4, 5}}, w.lanes)
	assert.Equal(t, []int{7, 7, 7, 7, 7, 3}, ticks())
}

// TestDefaultLanesAreContiguousRuns: the agents no Pin placed are split
// in agent order into Workers contiguous runs as even as can be (place j
// of f on worker j*Workers/f), and a negative Pin gives an agent back to
// them.
func TestDefaultLanesAreContiguousRuns(t *testing.T) {
	d := workingDomain(t)
	w := NewWorld(1)
	for i := range 10 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	w.Workers = 2
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}}, w.lanes)
	w.Workers = 3
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, w.lanes)
	w.Pin(9, 0)
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2, 9}, {3, 4, 5}, {6, 7, 8}}, w.lanes, "9 pinned: the other 9 in runs of 3")
	w.Pin(9, -1)
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, w.lanes, "unpinned again")
}

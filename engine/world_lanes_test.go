package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLanesFollowPinsAddsAndRemoves: on more than one worker the lanes
// are kept from tick to tick, and made again after a Pin, an Add, a
// Remove or a change of Workers, so every agent ticks once a tick, on its
// worker.
func TestLanesFollowPinsAddsAndRemoves(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R",
		State:   []Var{{"done", BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("finish", "done", Normal)},
		Actions: []ActionSpec{NewAction("work").Effects("done = true").Body(ticksBody{n: 1 << 30}).Spec()}})
	require.NoError(t, err)
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
	assert.Equal(t, [][]int32{{0, 2, 4}, {1, 3, 5}}, w.lanes)
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 2, 4}, {1, 3, 5}}, w.lanes, "kept")
	assert.Equal(t, []int{2, 2, 2, 2, 2, 2}, ticks())

	w.Pin(0, 1)
	w.Pin(5, 0)
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{2, 4, 5}, {0, 1, 3}}, w.lanes, "after Pin")

	require.True(t, w.Remove(w.Agents[1])) // a1 goes; a5 (pinned to 0) is now index 4
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{1, 3, 4}, {0, 2}}, w.lanes, "after Remove")

	w.Add(NewAgent("a6", d)) // ID 6, unpinned: worker 0
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{1, 3, 4, 5}, {0, 2}}, w.lanes, "after Add")
	assert.Equal(t, []int{5, 5, 5, 5, 5, 1}, ticks(), "every agent ticked once a tick")

	w.Workers = 3
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{2, 4, 5}, {0, 3}, {1}}, w.lanes, "after Workers changed")
	w.Workers = 1
	w.Tick(1.0 / 60)
	assert.Equal(t, [][]int32{{0, 1, 2, 3, 4, 5}}, w.lanes)
	assert.Equal(t, []int{7, 7, 7, 7, 7, 3}, ticks())
}

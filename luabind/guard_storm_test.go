package luabind

import (
	"testing"

	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
)

// TestFailingGuardsAreRecordedOnceATick: a plan's guard or trigger that
// raises an error on every event makes one no-plan record per tick and
// function, with the error and its file:line, not one per event (and no
// "every guard refused" besides: it did not refuse); each goal it fails
// still gets its own goal-failed record.
func TestFailingGuardsAreRecordedOnceATick(t *testing.T) {
	wd := scriptWorld(t, 1, "guard_storm.lua")
	wd.run(3, 0.1)
	perTick := map[int][]string{}
	goalsFailed := 0
	beliefs := 0
	for _, e := range wd.events {
		switch e.Kind {
		case record.EventNoPlan:
			perTick[e.Tick] = append(perTick[e.Tick], e.Reason)
		case record.EventGoalFailed:
			goalsFailed++
		case record.EventBeliefAdded:
			beliefs++
		}
	}
	guard := `plan "bad guard" guard: testdata/bdi/guard_storm.lua:17: attempt to concatenate a table value`
	trigger := `plan "bad trigger" trigger: testdata/bdi/guard_storm.lua:20: attempt to index a non-table object(nil) with key 'value'`
	goal := `plan "goal guard" guard: testdata/bdi/guard_storm.lua:23: no g1`
	gone := "no relevant plan: the goal fails" // each goal's goal_failed, which no plan serves
	assert.Equal(t, map[int][]string{
		1: {guard, trigger, goal, gone, gone, gone},
		2: {guard, trigger},
		3: {guard, trigger},
	}, perTick, wd.trace("Storm"))
	assert.Equal(t, 9, beliefs, "three beliefs change in each tick")
	assert.Equal(t, 3, goalsFailed, "each goal fails, with its own record")
}

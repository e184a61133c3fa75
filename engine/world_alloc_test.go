package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestQuietTicksDoNotAllocate: a tick in which nothing happens (bodies
// run on, a running pick is re-scored, nobody plans or records) makes no
// allocation, in a world that keeps its records (OnEvent) and one that
// does not, with the re-scores skipped or made.
func TestQuietTicksDoNotAllocate(t *testing.T) {
	for _, tc := range []struct{ keep, checkAll bool }{{false, false}, {true, false}, {false, true}} {
		t.Run(fmt.Sprintf("OnEvent=%v/checkEverything=%v", tc.keep, tc.checkAll), func(t *testing.T) {
			keep := tc.keep
			saved := testHooks.checkEverything
			testHooks.checkEverything = tc.checkAll
			defer func() { testHooks.checkEverything = saved }()
			goap, err := Compile(RoleSpec{Name: "Worker",
				State: []Var{{"done", expr.BoolValue(false)}},
				Goals: []GoalSpec{NewGoal("finish", "done", Normal)},
				Actions: []ActionSpec{
					NewAction("work").Effects("done = true").Body(ticksBody{n: 1 << 30}).Spec(),
				}})
			require.NoError(t, err)
			r := skipRole()
			r.Actions[2].Body = stepsBody{n: 1 << 30} // attack runs on and writes nothing
			soldier, err := Compile(r)
			require.NoError(t, err)
			w := NewWorld(1)
			records := 0
			if keep {
				w.OnEvent = func(record.Event) { records++ }
			}
			for i := range 20 {
				d := goap
				if i%2 == 1 {
					d = soldier
				}
				a := NewAgent(fmt.Sprintf("a%d", i), d)
				if d == soldier {
					a.Set("ammo", expr.NumberValue(30)) // armed: it picks attack
					a.RethinkEvery = -1                 // and re-scores it every tick
				}
				w.Add(a)
			}
			for range 10 {
				w.Tick(1.0 / 60)
			}
			running := 0
			for _, a := range w.Agents {
				if a.Running() != nil {
					running++
				}
				if a.Domain == soldier {
					assert.Equal(t, "attack", a.Running().Name)
				}
			}
			require.Equal(t, 20, running, "every agent runs its action")
			before := records
			allocs := testing.AllocsPerRun(100, func() { w.Tick(1.0 / 60) })
			assert.Equal(t, 0.0, allocs)
			assert.Equal(t, before, records, "nothing happened")
		})
	}
}

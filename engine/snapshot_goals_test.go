package engine

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestSnapshotKeepsTheGoalsSatisfiedWhenThePlanWasMade: a higher goal that
// held when the plan was made and no longer holds interrupts the running
// step. A restored agent knows which goals held, so it is interrupted as
// the original is.
func TestSnapshotKeepsTheGoalsSatisfiedWhenThePlanWasMade(t *testing.T) {
	w, a, _ := newWorld(t, RoleSpec{Name: "Guard",
		State: []Var{{"safe", expr.BoolValue(true)}, {"work", expr.NumberValue(0)}},
		Goals: []GoalSpec{NewGoal("safety", "safe", High), NewGoal("busy", "work >= 1", Normal)},
		Actions: []ActionSpec{
			NewAction("Work").Effects("work = work + 1").Body(timer{secs: 1}).Spec(),
			NewAction("Hide").Effects("safe = true").Body(timer{secs: 1}).Spec(),
		}})
	w.Tick(0.1)
	require.Equal(t, "Work", a.Running().Name)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	require.Contains(t, buf.String(), "\"satisfied\": [\n    \"safety\"\n   ]")
	r, err := Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{a.Domain}})
	require.NoError(t, err)
	for _, world := range []*World{w, r} {
		tr := &trace{}
		world.OnEvent = tr.add
		require.True(t, world.Agents[0].Set("safe", expr.BoolValue(false)))
		world.Tick(0.1)
		assert.Equal(t, []string{"2 interrupt Work", "2 plan safety", "2 start Hide"},
			tr.lines(record.EventInterrupt, record.EventPlan, record.EventStart))
	}
}

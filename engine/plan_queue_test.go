package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/internal/plancases"
)

// TestThePlanQueueWrapsAroundToAnAgentBehindItsCursor: with a budget of
// one search a tick, the queue serves the agents after the last one
// served before the agent that started waiting behind it.
func TestThePlanQueueWrapsAroundToAnAgentBehindItsCursor(t *testing.T) {
	d := slicedDomain(t, plancases.Deep())
	want, err := plannerAt(d, 20).Plan(d.NewState())
	require.NoError(t, err)
	e := want.Expansions
	w := engine.NewWorld(1)
	w.PlanBudget = e
	rec := &recorded{}
	w.OnEvent = rec.on
	var agents []*engine.Agent
	for _, name := range []string{"a", "b", "c"} {
		a := engine.NewAgent(name, d)
		a.Planner().MaxDepth = 20
		w.Add(a)
		agents = append(agents, a)
	}
	require.True(t, agents[0].Set("food", expr.NumberValue(100)), "a has nothing to do at first")
	w.Tick(1.0 / 60) // b plans; the cursor moves to c
	assert.Equal(t, e, w.PlanExpansions())
	assert.Equal(t, 1, w.PlanQueue(), "c waits")
	assert.Empty(t, rec.kind(record.EventPlanSuspended), "c is not served with nothing left")
	require.True(t, agents[0].Set("food", expr.NumberValue(0)), "a now needs a plan")
	for range 2 {
		w.Tick(1.0 / 60)
		assert.Equal(t, e, w.PlanExpansions(), "tick %d", w.Ticks)
	}
	var got []string
	for _, p := range rec.kind(record.EventPlan) {
		got = append(got, fmt.Sprintf("%s@%d", p.Agent, p.Tick))
	}
	assert.Equal(t, []string{"b@1", "c@2", "a@3"}, got)
	assert.Equal(t, 0, w.PlanQueue())
}

// restoredWithDebt is a world of no agents with the plan budget and the
// debt (expansions spent over the budget, taken from the next ticks)
// given, made by restoring a snapshot.
func restoredWithDebt(t *testing.T, budget, debt int) *engine.World {
	t.Helper()
	w := engine.NewWorld(1)
	w.PlanBudget = budget
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	var s map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &s))
	s["planDebt"] = debt
	b, err := json.Marshal(s)
	require.NoError(t, err)
	r, err := engine.Restore(bytes.NewReader(b), engine.RestoreOptions{})
	require.NoError(t, err)
	return r
}

// TestAPlanDebtIsTakenFromTheNextBudgets: a debt is taken from the next
// ticks' budgets, and dropped when the budget is made unlimited.
func TestAPlanDebtIsTakenFromTheNextBudgets(t *testing.T) {
	d := slicedDomain(t, plancases.Deep())
	want, err := plannerAt(d, 20).Plan(d.NewState())
	require.NoError(t, err)
	e := want.Expansions
	require.Greater(t, e, 4)
	add := func(w *engine.World) {
		a := engine.NewAgent("a", d)
		a.Planner().MaxDepth = 20
		w.Add(a)
	}

	w := restoredWithDebt(t, e, 3)
	add(w)
	w.Tick(1.0 / 60)
	assert.Equal(t, e-3, w.PlanExpansions(), "the budget less the debt")
	w.Tick(1.0 / 60)
	assert.Equal(t, 3, w.PlanExpansions(), "the debt is paid: the search ends")

	w = restoredWithDebt(t, e, 2*e+1)
	add(w)
	w.Tick(1.0 / 60)
	assert.Equal(t, 0, w.PlanExpansions(), "a debt above the budget leaves nothing")
	w.Tick(1.0 / 60)
	assert.Equal(t, 0, w.PlanExpansions(), "the debt less one budget is still above it")
	w.Tick(1.0 / 60)
	assert.Equal(t, e-1, w.PlanExpansions(), "what is left of the debt")

	w = restoredWithDebt(t, e, 3)
	w.PlanBudget = 0
	w.Tick(1.0 / 60)
	w.PlanBudget = e
	add(w)
	w.Tick(1.0 / 60)
	assert.Equal(t, e, w.PlanExpansions(), "the debt went with the unlimited budget")
}

package sim_test

import (
	"fmt"
	"testing"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// budgetBattle runs the battle for ticks under a plan budget and returns
// its plan records and the most expansions a tick spent.
func budgetBattle(t *testing.T, budget, ticks int) (records []string, suspended, most int) {
	s, err := sim.New(sim.Config{Seed: 5, ScriptsDir: "../../scripts", RoundPause: -1, PlanBudget: budget,
		OnEvent: func(e record.Event) {
			switch e.Kind {
			case record.EventPlan, record.EventPlanSuspended, record.EventPlanResumed:
				records = append(records, fmt.Sprintf("%d %s %s %v %d", e.Tick, e.Agent, e.Kind, e.Plan, e.Expansions))
			}
			if e.Kind == record.EventPlanSuspended {
				suspended++
			}
		}})
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, budget, s.World.PlanBudget)
	for range ticks {
		s.Step(dt)
		most = max(most, s.World.PlanExpansions())
	}
	return records, suspended, most
}

// TestBattleUnderAPlanBudget: the demo's soldiers fight under a budget of
// 3 expansions per tick for the whole squad: no tick goes over, searches
// are suspended and resumed, and the battle is the same when run again.
func TestBattleUnderAPlanBudget(t *testing.T) {
	const budget = 3
	one, suspended, most := budgetBattle(t, budget, 900)
	assert.LessOrEqual(t, most, budget, "no tick spends more than the budget")
	assert.Positive(t, suspended, "some searches need more than one tick")
	plans := 0
	for _, r := range one {
		var tick int
		var agent, kind string
		_, err := fmt.Sscanf(r, "%d %s %s", &tick, &agent, &kind)
		require.NoError(t, err)
		if kind == "plan" {
			plans++
		}
	}
	assert.Greater(t, plans, 12, "every soldier gets plans")
	two, _, _ := budgetBattle(t, budget, 900)
	assert.Equal(t, one, two, "the same battle again")
}

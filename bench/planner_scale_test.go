package bench

import (
	"github.com/moonmind-ai/moonmind/internal/plancases"
	"strconv"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSyntheticIsSynthetic100AtItsSize(t *testing.T) {
	a, b := plancases.Synthetic(100, 6), plancases.Synthetic100()
	assert.Equal(t, b.Role.Actions, a.Role.Actions)
	assert.Equal(t, b.Role.State, a.Role.State)
	assert.Equal(t, b.MaxDepth, a.MaxDepth)
}

func TestScaleCasesPlanTheUnitSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("plans 1,000-action domains")
	}
	for _, c := range plancases.ScaleCases() {
		t.Run(c.Name, func(t *testing.T) {
			pl, st := compileCase(t, c)
			p, err := pl.Plan(st)
			require.NoError(t, err)
			var want []string
			for k := 1; k <= c.MaxDepth; k++ {
				want = append(want, "step"+strconv.Itoa(k))
			}
			assert.Equal(t, want, p.Names())
			assert.Equal(t, float64(c.MaxDepth), p.Cost)
			// The relaxed estimate of the goal p{depth} is the chain's
			// cost from p0: only the plan's states are expanded.
			assert.Equal(t, c.MaxDepth, p.Expansions)
		})
	}
}

func TestMazeFactsPlansTheMainChain(t *testing.T) {
	pl, st := compileCase(t, plancases.MazeFacts())
	p, err := pl.Plan(st)
	require.NoError(t, err)
	var want []string
	for c := 'A'; c < 'Z'; c++ {
		want = append(want, string(c)+"-"+string(c+1))
	}
	assert.Equal(t, want, p.Names())
	assert.Equal(t, 25.0, p.Cost)
}

// benchPlan plans c with a warm Planner at the default budget. A search
// that spends the budget is measured too (metric planned = 0), so a
// domain too hard today still reads as the time of 10,000 expansions.
func benchPlan(b *testing.B, c plancases.PlannerCase) {
	pl, st := compileCase(b, c)
	p, err := pl.Plan(st)
	planned, exp := 1.0, 0
	if err != nil {
		var pe *engine.PlanError
		require.ErrorAs(b, err, &pe)
		require.Equal(b, engine.SearchBudgetExceeded, pe.Reason)
		planned, exp = 0, pe.Expansions
	} else {
		exp = p.Expansions
	}
	b.ReportAllocs()
	for b.Loop() {
		_, err := pl.Plan(st)
		if (err == nil) != (planned == 1) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(exp), "expansions")
	b.ReportMetric(planned, "planned")
}

// BenchmarkPlannerMazeFacts plans the maze with one boolean fact per
// location (see MazeFacts); BenchmarkPlanner/maze is the one-variable
// encoding.
func BenchmarkPlannerMazeFacts(b *testing.B) { benchPlan(b, plancases.MazeFacts()) }

// BenchmarkPlannerScale plans the synthetic domains of ScaleCases with a
// warm Planner at the default budget (see benchPlan): sub-benchmarks are named
// actions=N/depth=D.
func BenchmarkPlannerScale(b *testing.B) {
	for _, c := range plancases.ScaleCases() {
		b.Run("actions="+strconv.Itoa(len(c.Role.Actions))+"/depth="+strconv.Itoa(c.MaxDepth), func(b *testing.B) { benchPlan(b, c) })
	}
}

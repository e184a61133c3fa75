package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/internal/plancases"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

// replanningWorld builds n agents of the deep domain (a 12-step plan;
// every action's body makes its effects true in one tick) under the given
// plan budget. Its step ticks the world once and then sends every agent
// whose goal holds back to the start (food = 0, tired = 0) once nobody
// waits for a plan: waves of n agents that all need a plan in the same
// tick.
func replanningWorld(tb testing.TB, n, workers, budget int) (w *engine.World, step func()) {
	tb.Helper()
	d, err := engine.Compile(plancases.Deep().Role)
	require.NoError(tb, err)
	for _, a := range d.Actions {
		a.Body = engine.BodyFunc(engine.ApplyEffects)
	}
	w = engine.NewWorld(1)
	w.Workers = workers
	w.PlanBudget = budget
	for i := range n {
		a := engine.NewAgent(fmt.Sprintf("a%d", i), d)
		a.Planner().MaxDepth = plancases.Deep().MaxDepth
		w.Add(a)
	}
	food, ok1 := d.Schema.Lookup("food")
	tired, ok2 := d.Schema.Lookup("tired")
	require.True(tb, ok1 && ok2, "the deep domain has food and tired")
	goal := d.Goals[0]
	return w, func() {
		w.Tick(1.0 / 60)
		if w.PlanQueue() > 0 {
			return
		}
		for _, a := range w.Agents {
			if goal.Satisfied(a.State) {
				a.State[food], a.State[tired] = expr.NumberValue(0), expr.NumberValue(0)
			}
		}
	}
}

// BenchmarkWorldTickSliced is one World.Tick of 10,000 deep-domain agents
// that replan in waves (all of them in the same tick, see
// replanningWorld), without a plan budget and with budgets of 2,000 and
// 20,000 expansions per tick. Besides the mean ns/op it reports the worst
// tick: max-ns/tick (wall time), max-cpu-ns/tick (the process's CPU time,
// getrusage, which other jobs on a shared machine do not stretch; it
// includes the garbage collector's) and max-expansions/tick (what the
// budget bounds), and the mean expansions/tick.
func BenchmarkWorldTickSliced(b *testing.B) {
	const n = 10000
	for _, budget := range []int{0, 2000, 20000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("agents=%d/budget=%d/workers=%d", n, budget, workers), func(b *testing.B) {
				w, step := replanningWorld(b, n, workers, budget)
				for range 40 { // past the first wave
					step()
				}
				var worst time.Duration
				var worstCPU int64
				most, total := 0, 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0, c0 := time.Now(), cpuNow()
					step()
					worst = max(worst, time.Since(t0))
					worstCPU = max(worstCPU, cpuNow()-c0)
					exp := w.PlanExpansions()
					if budget == 0 {
						exp = 0 // not counted without a budget
					}
					most = max(most, exp)
					total += exp
				}
				b.StopTimer()
				b.ReportMetric(float64(worst.Nanoseconds()), "max-ns/tick")
				b.ReportMetric(float64(worstCPU), "max-cpu-ns/tick")
				if budget > 0 {
					b.ReportMetric(float64(most), "max-expansions/tick")
					b.ReportMetric(float64(total)/float64(b.N), "expansions/tick")
				}
			})
		}
	}
}

// TestReplanningWorldStaysWithinBudget checks the benchmark's world: its
// waves do replan, every tick stays within the budget plus 10%, and full
// ticks spend the budget.
func TestReplanningWorldStaysWithinBudget(t *testing.T) {
	const budget = 500
	w, step := replanningWorld(t, 1000, 1, budget)
	plans := 0
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPlan {
			plans++
		}
	}
	most := 0
	for range 120 {
		step()
		require.LessOrEqual(t, w.PlanExpansions(), budget+budget/10, "tick %d", w.Ticks)
		most = max(most, w.PlanExpansions())
	}
	assert.Equal(t, budget, most, "the busiest tick spends the whole budget")
	assert.GreaterOrEqual(t, plans, 2000, "the waves replan: 1,000 agents, a wave every 12 to 40 ticks")
}

package bench

import (
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/internal/plancases"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

func compileCase(tb testing.TB, c plancases.PlannerCase) (*engine.Planner, expr.State) {
	tb.Helper()
	d, err := engine.Compile(c.Role)
	require.NoError(tb, err)
	p := engine.NewPlanner(d)
	p.MaxDepth = c.MaxDepth
	return p, d.NewState()
}

func TestPlannerCasesGiveTheExpectedPlans(t *testing.T) {
	var mazeChain []string
	for c := 'A'; c < 'Z'; c++ {
		mazeChain = append(mazeChain, string(c)+"-"+string(c+1))
	}
	require.Len(t, mazeChain, 25)
	tests := []struct {
		name   string
		reason string
		c      plancases.PlannerCase
		want   []string
		cost   float64
	}{
		{"soldier", "the seed's example", plancases.Soldier(), []string{"fetchMagazine", "reload"}, 2},
		{"deep", "9 forages need 3 sleeps between them; Forage before Sleep when both fit", plancases.Deep(),
			strings.Fields("Forage Forage Forage Sleep Forage Forage Sleep Forage Forage Forage Sleep Forage"), 12},
		{"maze", "the main chain; every detour is longer", plancases.Maze(), mazeChain, 25},
		{"synthetic100", "the six unit steps; skips and side steps cost more", plancases.Synthetic100(),
			strings.Fields("step1 step2 step3 step4 step5 step6"), 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, st := compileCase(t, tc.c)
			p, err := pl.Plan(st)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, p.Names(), tc.reason)
			assert.Equal(t, tc.cost, p.Cost, tc.reason)
		})
	}
}

// BenchmarkPlanner plans each domain from its initial state with a warm
// Planner (steady state: scratch buffers already grown).
func BenchmarkPlanner(b *testing.B) {
	for _, c := range plancases.PlannerCases() {
		b.Run(c.Name, func(b *testing.B) {
			pl, st := compileCase(b, c)
			p, err := pl.Plan(st)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pl.Plan(st); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Expansions), "expansions")
		})
	}
}

// BenchmarkBaselinePlanner plans each domain with the textbook map-based
// A* of baseline.go: the reference the bench guard divides by.
func BenchmarkBaselinePlanner(b *testing.B) {
	for _, c := range plancases.PlannerCases() {
		b.Run(c.Name, func(b *testing.B) {
			bd, err := NewBaselineDomain(c)
			require.NoError(b, err)
			start := bd.Start()
			b.ReportAllocs()
			for b.Loop() {
				if _, _, ok := bd.BaselinePlan(start); !ok {
					b.Fatal("no plan")
				}
			}
		})
	}
}

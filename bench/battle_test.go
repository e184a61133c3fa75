package bench

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/demo/sim"
)

// BenchmarkBattle steps the demo's battle headless (demo/sim: the tile
// map, line of sight, A* paths, combat, the Lua soldiers of
// scripts/squad.lua) one tick of 1/60 s per op, rounds restarting as they
// end, for squads of 4 and 8. ticks/s is the figure to read: the demo
// needs 60.
func BenchmarkBattle(b *testing.B) {
	for _, squad := range []int{4, 8} {
		b.Run(fmt.Sprintf("squad=%d", squad), func(b *testing.B) {
			s, err := sim.New(sim.Config{Seed: 1, ScriptsDir: filepath.Join("..", "scripts"), Squad: squad, RoundPause: 0.5})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for range 60 { // past the first decisions
				s.Step(1.0 / 60)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s.Step(1.0 / 60)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ticks/s")
			b.ReportMetric(float64(s.Round), "rounds")
		})
	}
}

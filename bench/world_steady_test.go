package bench

import (
	"fmt"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
)

// BenchmarkWorldTickCPU is one World.Tick of 100, 1,000 and 10,000
// soldiers on 1 and 2 workers, as BenchmarkWorldTick, reporting beside the
// wall time the process's CPU time per tick (cpu-ns/op, from cpuNow: getrusage where there is one)
// and per agent-tick (cpu-ns/agent-tick). On a shared machine the CPU
// time is the steadier figure; the wall time of 2 workers only shows their
// speed-up when both cores are free.
func BenchmarkWorldTickCPU(b *testing.B) { worldTickCPU(b, []int{100, 1000, 10000}, soldierWorld) }

// worldTickCPU times world ticks of n soldiers, for each n, on 1 and 2
// workers, the worlds made by world (soldierWorld, goSoldierWorld), and
// reports the process's CPU time per tick and per agent-tick.
func worldTickCPU(b *testing.B, ns []int, world func(tb testing.TB, n, workers int) (*engine.World, func())) {
	for _, n := range ns {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("soldiers=%d/workers=%d", n, workers), func(b *testing.B) {
				w, done := world(b, n, workers)
				defer done()
				b.ReportAllocs()
				b.ResetTimer()
				c0 := cpuNow()
				for i := 0; i < b.N; i++ {
					w.Tick(1.0 / 60)
				}
				cpu := cpuNow() - c0
				b.StopTimer()
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(cpu)/float64(b.N)/float64(n), "cpu-ns/agent-tick")
			})
		}
	}
}

// BenchmarkAgentMemorySteady reports the heap each soldier holds
// (B/agent) at steady state: after 60 s of battle at 60 ticks per second,
// when every flight recorder is full. The timed op is one tick of those
// 1,000 soldiers.
func BenchmarkAgentMemorySteady(b *testing.B) { agentMemory(b, 1000, 60*60-120) } // soldierWorld ran 120 ticks

package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine"
)

// A world of 100,000 soldiers under a level of detail (docs/lod.md): the
// first 1,000 near the player think every tick at 60 Hz, the other 99,000
// at 10, 5 or 2 thinks a second (a third each), side by side with the
// same world thinking every tick. The soldiers have the Go bodies of
// goSoldierWorld: 100,000 Lua soldiers would need 100,000 coroutines and
// about 1.2 GB of Lua heap, more than the machine this runs on has to
// spare, while the engine's share of a tick, which the level of detail
// cuts, is the same with either.

// lodNear is how many of the soldiers are near (level 0).
const lodNear = 1000

// lodWarm is the ticks of play before the ticks measured: 10 s, in which
// every soldier goes through its cycle and its buffers (the flight
// recorder's, the planners', its records') reach their size.
const lodWarm = 600

// lodRates are the think rates of the levels: near, then the three far
// levels.
var lodRates = []float64{60, 10, 5, 2}

// soldierLOD is the level of detail of the benchmark for n soldiers:
// near of them at level 0 (every n/near-th ID, so both workers' lanes have
// their share), the others at levels 1, 2 and 3 by ID.
func soldierLOD(n, near int) engine.LOD {
	return engine.LOD{
		Level: func(a *engine.Agent) int {
			if a.ID%(n/near) == 0 {
				return 0
			}
			return 1 + a.ID%3
		},
		Rates: lodRates,
	}
}

// lodSoldierWorld builds n Go-bodied soldiers on the given workers, with
// the level of detail of soldierLOD when lod is true, and ticks it warm
// times. The soldiers join over the first second of play, a sixtieth of
// them a tick, as a game's spawns do: 100,000 identical soldiers added at
// one instant would act in lockstep for good, every one of them picking
// and planning at the same ticks, a load no game puts on its world. It
// returns the world and the heap each soldier holds then
// (B/soldier: the heap after a collection, less the heap before the world
// was built, over n).
func lodSoldierWorld(tb testing.TB, n, workers, near, warm int, lod bool) (*engine.World, float64, func()) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w, done := buildSoldierWorldWith(tb, n, workers, 60, 1, 0, useGoBodies)
	if lod {
		w.LOD = soldierLOD(n, near)
	}
	for range warm {
		w.Tick(1.0 / 60)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	return w, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n), done
}

// BenchmarkWorldTickLOD is one World.Tick(1/60 s) of 100,000 Go-bodied
// soldiers on 2 workers, with the level of detail (lod=on: 1,000 near at
// 60 Hz, the rest at 10, 5 and 2 Hz) and without it (lod=off), in one
// run, after 10 s of play (600 ticks: by then every soldier, thinking at
// 2 Hz or more, has been through its cycle and grown its buffers, so the
// ticks measured are the steady state's). Beside ns/op it reports the
// median and 99th percentile of the ticks' wall times (p50-ms, p99-ms),
// the process's CPU time per tick (cpu-ns/op), and the heap per soldier
// after the 10 s (B/soldier). Use -benchtime 600x for a whole attack,
// fetch and reload cycle.
func BenchmarkWorldTickLOD(b *testing.B) {
	const n, workers = 100000, 2
	for _, lod := range []bool{true, false} {
		name := "lod=off"
		if lod {
			name = "lod=on"
		}
		b.Run(fmt.Sprintf("soldiers=%d/workers=%d/%s", n, workers, name), func(b *testing.B) {
			w, perSoldier, done := lodSoldierWorld(b, n, workers, lodNear, lodWarm, lod)
			defer done()
			ticks := make([]time.Duration, 0, b.N)
			thinks0 := thinks(w)
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				w.Tick(1.0 / 60)
				ticks = append(ticks, time.Since(t0))
			}
			cpu := cpuNow() - c0
			b.StopTimer()
			b.ReportMetric(float64(thinks(w)-thinks0)/float64(b.N), "thinks/tick")
			slices.Sort(ticks)
			ms := func(q float64) float64 {
				return float64(ticks[min(len(ticks)-1, int(q*float64(len(ticks))))].Nanoseconds()) / 1e6
			}
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(perSoldier, "B/soldier")
		})
	}
}

// thinks is the number of agent ticks the world's agents have made.
func thinks(w *engine.World) int {
	n := 0
	for _, a := range w.Agents {
		n += a.Ticks()
	}
	return n
}

// TestLODWorldIsSmallAndCheap: the world of BenchmarkWorldTickLOD at a
// tenth of its size (10,000 soldiers, 100 near), after its 10 s of play,
// holds at most 10 KB per soldier with or without the level of detail,
// and a tick under it thinks for about a tenth of the soldiers and
// allocates next to nothing: at most one allocation for every hundred
// thinks (the tick's own bookkeeping; the thinks, their records and the
// choice of who thinks allocate nothing). Counts, not times: they hold on
// any machine.
func TestLODWorldIsSmallAndCheap(t *testing.T) {
	const n, near = 10000, 100
	for _, lod := range []bool{false, true} {
		w, perSoldier, done := lodSoldierWorld(t, n, 2, near, lodWarm, lod)
		assert.LessOrEqual(t, perSoldier, 10240.0, "B/soldier with lod=%v", lod)
		if lod {
			t0 := thinks(w)
			allocs := testing.AllocsPerRun(60, func() { w.Tick(1.0 / 60) })
			per := float64(thinks(w)-t0) / 61
			// 100 at 60 Hz, a third of the rest at 10, 5 and 2 Hz:
			// 100 + 9,900 × (10 + 5 + 2) / 3 / 60 = 1,035 a tick.
			assert.InDelta(t, 1035, per, 60, "thinks a tick")
			assert.LessOrEqual(t, allocs, per/100, "allocations a tick")
		}
		done()
	}
}

package bench

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
)

// bodyKinds are the two soldier worlds of the split and paired
// benchmarks: Lua bodies (soldierWorld) and Go bodies (goSoldierWorld).
var bodyKinds = []struct {
	name  string
	world func(tb testing.TB, n, workers int) (*engine.World, func())
}{{"lua", soldierWorld}, {"gobodies", goSoldierWorld}}

// BenchmarkWorldTickSplit is the host's ceiling for a 2-worker tick of
// BenchmarkWorldTickCPU's and BenchmarkWorldTickGoBodies's 10,000
// soldiers: the same soldiers as two independent worlds of 5,000, each on
// 1 worker with its own Lua runtime, each ticked b.N times on its own
// goroutine with nothing between the two (no per-tick start, join or
// hand-on of records across them). The op is one tick of both: ns/op is
// the wall time from the start until both worlds have ticked b.N times,
// divided by b.N; cpu-ns/op and cpu-ns/agent-tick are the process's CPU
// time (cpuNow) per tick of both and per soldier-tick. Read a 2-worker
// World.Tick against it, from the same run: T(1 worker) / T(split) is the
// speed-up splitting the work in two can give on this host at all (see
// bench/README.md, "World tick").
func BenchmarkWorldTickSplit(b *testing.B) {
	for _, c := range bodyKinds {
		const n = 10000
		b.Run(fmt.Sprintf("%s/soldiers=%d", c.name, n), func(b *testing.B) {
			w0, done0 := c.world(b, n/2, 1)
			defer done0()
			w1, done1 := c.world(b, n-n/2, 1)
			defer done1()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			var wg sync.WaitGroup
			for _, w := range []*engine.World{w0, w1} {
				wg.Go(func() {
					for range b.N {
						w.Tick(1.0 / 60)
					}
				})
			}
			wg.Wait()
			cpu := cpuNow() - c0
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(cpu)/float64(b.N)/n, "cpu-ns/agent-tick")
		})
	}
}

// BenchmarkHostWake is the latency from a go statement to the started
// goroutine running, while the caller's goroutine spins (as World.Tick's
// caller ticks its own lane meanwhile) and the machine's other core is
// idle: what a 2-worker World.Tick pays before its second lane can start,
// once a tick. Each op starts one goroutine, spins until it has run, then
// spins hostWakeIdle more so that the thread that ran it parks again
// before the next op. It reports the median and the 10th and 90th
// percentiles of the ops' latencies, in microseconds (wake-p50-µs,
// wake-p10-µs, wake-p90-µs); ns/op is mostly the idle spin. On the
// 2-core KVM guest the benchmarks are measured on, most of the latency is
// the hypervisor waking a halted virtual CPU; it asserts nothing about
// the figure.
func BenchmarkHostWake(b *testing.B) {
	lat := make([]time.Duration, 0, b.N)
	for range b.N {
		var ran atomic.Int64
		t0 := time.Now()
		go func() { ran.Store(int64(time.Since(t0)) + 1) }()
		for ran.Load() == 0 {
		}
		lat = append(lat, time.Duration(ran.Load()-1))
		for t := time.Now(); time.Since(t) < hostWakeIdle; {
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	at := func(p int) float64 { return float64(lat[(len(lat)-1)*p/100]) / 1e3 }
	b.ReportMetric(at(50), "wake-p50-µs")
	b.ReportMetric(at(10), "wake-p10-µs")
	b.ReportMetric(at(90), "wake-p90-µs")
}

// hostWakeIdle is how long BenchmarkHostWake's caller spins after each
// op: long enough for the runtime's idle thread to stop looking for work
// and park (it spins for some microseconds first), as it has between the
// lanes of two back-to-back ticks.
const hostWakeIdle = 200 * time.Microsecond

// BenchmarkWorldTickPaired ticks, in one process and in turn, worlds of
// the same 10,000 soldiers (Lua bodies, and Go bodies) that differ only in
// how they are run: one worker (one1w); two workers with the soldiers
// pinned in blocks, the first 5,000 on worker 0 (block2w, as
// BenchmarkWorldTickCPU); two workers with soldier i on worker i mod 2
// (interleaved2w, the older layout); and the split of
// BenchmarkWorldTickSplit (two worlds of 5,000, split). Each 2-worker
// world is built twice, in the order interleaved, block, block,
// interleaved, and each figure is the mean of its two worlds, so that
// where a world lies in the heap weighs on neither layout. The op is a
// round: each world ticks pairedChunk times, the first world of the round
// moving on by one each round, so the machine's load, which drifts over
// seconds, falls on all alike. It reports per world (by name) the wall
// time per tick (name-µs/tick) and the CPU time per agent-tick
// (name-cpu-ns/agent-tick), and the ratios of the same rounds: ceiling
// (T(one1w) / T(split), what splitting the work in two can give),
// speedup (T(one1w) / T(block2w)), of-ceiling (T(split) / T(block2w)),
// interleaved/block (the CPU of interleaved2w over block2w's), and
// block/split-cpu (block2w's CPU per agent-tick over the split's: what
// two workers cost above two wholly independent halves on the two cores;
// at or below 1, the extra CPU of a 2-worker agent-tick over a 1-worker
// one is the host's, two cores sharing one cache and memory, not the
// world's).
func BenchmarkWorldTickPaired(b *testing.B) {
	for _, c := range bodyKinds {
		const n = 10000
		b.Run(fmt.Sprintf("%s/soldiers=%d", c.name, n), func(b *testing.B) {
			build := func(workers int, interleave bool) *engine.World {
				interleavePins = interleave
				defer func() { interleavePins = false }()
				w, done := c.world(b, n, workers)
				b.Cleanup(done)
				return w
			}
			m0 := build(2, true)
			b0, b1 := build(2, false), build(2, false)
			m1 := build(2, true)
			one := build(1, false)
			s0, d0 := c.world(b, n/2, 1)
			b.Cleanup(d0)
			s1, d1 := c.world(b, n-n/2, 1)
			b.Cleanup(d1)
			ticks := func(ws ...*engine.World) func() {
				return func() {
					for range pairedChunk {
						for _, w := range ws {
							w.Tick(1.0 / 60)
						}
					}
				}
			}
			runs := []func(){ticks(one), ticks(b0), ticks(m0), ticks(b1), ticks(m1), func() {
				var wg sync.WaitGroup
				for _, w := range []*engine.World{s0, s1} {
					wg.Go(func() { ticks(w)() })
				}
				wg.Wait()
			}}
			const (
				one1w = iota
				block0
				inter0
				block1
				inter1
				split
			)
			cpu := make([]int64, len(runs))
			wall := make([]int64, len(runs))
			runtime.GC()
			b.ResetTimer()
			for i := range b.N {
				for j := range runs {
					k := (i + j) % len(runs)
					t0, c0 := time.Now(), cpuNow()
					runs[k]()
					cpu[k] += cpuNow() - c0
					wall[k] += int64(time.Since(t0))
				}
			}
			b.StopTimer()
			perTick := float64(b.N * pairedChunk)
			us := func(k ...int) float64 { // mean wall µs per tick of worlds k
				s := 0.0
				for _, k := range k {
					s += float64(wall[k])
				}
				return s / float64(len(k)) / perTick / 1e3
			}
			ns := func(k ...int) float64 { // mean CPU ns per agent-tick of worlds k
				s := 0.0
				for _, k := range k {
					s += float64(cpu[k])
				}
				return s / float64(len(k)) / perTick / n
			}
			for _, f := range []struct {
				name string
				k    []int
			}{{"one1w", []int{one1w}}, {"block2w", []int{block0, block1}}, {"interleaved2w", []int{inter0, inter1}},
				{"split", []int{split}}} {
				b.ReportMetric(us(f.k...), f.name+"-µs/tick")
				b.ReportMetric(ns(f.k...), f.name+"-cpu-ns/agent-tick")
			}
			b.ReportMetric(us(one1w)/us(split), "ceiling")
			b.ReportMetric(us(one1w)/us(block0, block1), "speedup")
			b.ReportMetric(us(split)/us(block0, block1), "of-ceiling")
			b.ReportMetric(ns(inter0, inter1)/ns(block0, block1), "interleaved/block")
			b.ReportMetric(ns(block0, block1)/ns(split), "block/split-cpu")
		})
	}
}

// pairedChunk is how many ticks a world of BenchmarkWorldTickPaired ticks
// in a row: enough that the caches the other worlds filled are refilled
// in a small part of them (with 6, the Go-bodies world on one worker read
// 2.1 ms a tick, against 0.85 ms with 60).
const pairedChunk = 60

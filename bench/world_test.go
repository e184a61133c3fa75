package bench

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// soldierHost is a minimal game for the soldier script: positions on a
// line, a crate 100 px away, a target that never dies.
func soldierHost() map[string]luabind.HostFunc {
	pos := func(a *engine.Agent) *[2]float64 {
		switch d := a.Data.(type) {
		case *[2]float64:
			return d
		case *goSoldier:
			return &d.pos
		}
		p := &[2]float64{}
		a.Data = p
		return p
	}
	return map[string]luabind.HostFunc{
		"position": func(c *luabind.HostCall) (bool, error) {
			p := pos(c.Agent)
			c.Results = append(c.Results[:0], expr.NumberValue(p[0]), expr.NumberValue(p[1]))
			return true, nil
		},
		"nearest": func(c *luabind.HostCall) (bool, error) {
			c.Results = append(c.Results[:0], expr.NumberValue(100), expr.NumberValue(0))
			return true, nil
		},
		"move_to": func(c *luabind.HostCall) (bool, error) {
			p := pos(c.Agent)
			tx, _ := c.Args[0].AsNumber()
			ty, _ := c.Args[1].AsNumber()
			dx, dy := tx-p[0], ty-p[1]
			d, step := math.Hypot(dx, dy), 100*c.DT
			if d <= step {
				p[0], p[1] = tx, ty
				return true, nil
			}
			p[0], p[1] = p[0]+dx/d*step, p[1]+dy/d*step
			return false, nil
		},
		"shoot": func(*luabind.HostCall) (bool, error) { return true, nil },
	}
}

// soldierWorld builds n soldiers on the given number of workers, each
// worker with its own Lua runtime, and warms it up (120 ticks).
func soldierWorld(b testing.TB, n, workers int) (*engine.World, func()) {
	return buildSoldierWorld(b, n, workers, 1, 0, 120)
}

// buildSoldierWorld adds the n soldiers in the given number of groups,
// gap ticks apart, then warms the world up for warm ticks. With one group
// every soldier starts in step with the others.
func buildSoldierWorld(b testing.TB, n, workers, groups, gap, warm int) (*engine.World, func()) {
	b.Helper()
	return buildSoldierWorldWith(b, n, workers, groups, gap, warm, nil)
}

// buildSoldierWorldWith is buildSoldierWorld calling adapt, when not nil,
// on each worker's domain once it is loaded (before any agent is made).
// Soldier i is pinned to worker soldierLane(i, n, workers), with a domain
// of that worker's Lua runtime.
func buildSoldierWorldWith(b testing.TB, n, workers, groups, gap, warm int, adapt func(*engine.Domain)) (*engine.World, func()) {
	b.Helper()
	w := engine.NewWorld(1)
	w.Workers = workers
	var closers []func()
	domains := make([]*engine.Domain, workers)
	for k := range domains {
		rt := luabind.NewRuntime(luabind.Options{Host: soldierHost()})
		closers = append(closers, rt.Close)
		d, err := rt.LoadDomain(filepath.Join("..", "scripts", "soldier.lua"))
		if err != nil {
			b.Fatal(err)
		}
		if adapt != nil {
			adapt(d)
		}
		domains[k] = d
	}
	for g := range groups {
		for i := g * n / groups; i < (g+1)*n/groups; i++ {
			k := soldierLane(i, n, workers)
			a := engine.NewAgent(fmt.Sprintf("s%d", i), domains[k])
			a.Set("enemy_visible", expr.BoolValue(true))
			a.Set("enemy_health", expr.NumberValue(1e12))
			w.Add(a)
			w.Pin(i, k)
		}
		if g < groups-1 {
			for range gap {
				w.Tick(1.0 / 60)
			}
		}
	}
	for range warm {
		w.Tick(1.0 / 60)
	}
	return w, func() {
		for _, c := range closers {
			c()
		}
	}
}

// interleavePins makes buildSoldierWorldWith pin soldier i to worker i
// mod workers (the older layout) rather
// than in blocks; only BenchmarkWorldTickPaired sets it, for the old
// layout's figures beside the new one's.
var interleavePins bool

// soldierLane is the worker buildSoldierWorldWith pins soldier i of n to:
// the soldiers in contiguous blocks, one per worker (the first n/2 on
// worker 0 of 2), as World's default lanes are; with interleavePins,
// soldier i mod workers.
func soldierLane(i, n, workers int) int {
	if interleavePins {
		return i % workers
	}
	return i * workers / n
}

// BenchmarkWorldTick is one World.Tick of n soldiers running the shipped
// script: attack until dry, fetch a magazine, reload, forever.
func BenchmarkWorldTick(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("soldiers=%d/workers=%d", n, workers), func(b *testing.B) {
				w, done := soldierWorld(b, n, workers)
				defer done()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					w.Tick(1.0 / 60)
				}
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent-tick")
			})
		}
	}
}

// BenchmarkAgentMemory reports the heap each soldier adds (B/agent), with
// its state, planners, recorder and the coroutine of its running action,
// after 2 s of play; the timed op is one tick of those 2,000 soldiers.
func BenchmarkAgentMemory(b *testing.B) { agentMemory(b, 2000, 0) }

// agentMemory builds a world of n soldiers (soldierWorld, which ticks it
// 120 times), ticks it warm more times, and reports the heap each soldier
// holds then (B/agent); the timed op is one tick of the world.
func agentMemory(b *testing.B, n, warm int) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w, done := soldierWorld(b, n, 1)
	defer done()
	for range warm {
		w.Tick(1.0 / 60)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perAgent := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Tick(1.0 / 60)
	}
	b.ReportMetric(perAgent, "B/agent")
	runtime.KeepAlive(w)
}

package bench

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// attackBodies starts the attack body of the shipped scripts/soldier.lua
// for n soldiers in one runtime and resumes each twice, so every body
// waits in its npc:wait(0.2). The soldiers see a target that never dies
// and start with a full magazine.
func attackBodies(tb testing.TB, n int) (agents []*engine.Agent, tasks []engine.Task, done func()) {
	tb.Helper()
	rt := luabind.NewRuntime(luabind.Options{Host: soldierHost()})
	d, err := rt.LoadDomain(filepath.Join("..", "scripts", "soldier.lua"))
	if err != nil {
		tb.Fatal(err)
	}
	act := d.Action("attack")
	if act == nil || act.Body == nil {
		tb.Fatal("soldier.lua has no attack body")
	}
	agents = make([]*engine.Agent, n)
	tasks = make([]engine.Task, n)
	for i := range agents {
		a := engine.NewAgent("s", d)
		a.Set("enemy_visible", expr.BoolValue(true))
		a.Set("enemy_health", expr.NumberValue(100))
		a.Set("ammo", expr.NumberValue(30))
		t, err := act.Body.Start(a, act)
		if err != nil {
			tb.Fatal(err)
		}
		if st, err := t.Resume(0); st != engine.Running || err != nil {
			tb.Fatal(st, err)
		}
		agents[i], tasks[i] = a, t
	}
	// Once more each: the memory watchdog measures a body after its
	// first few hundred work units (a few allocations), then seldom.
	for i := range tasks {
		resumeAttack(tb, agents, tasks, i)
	}
	// And again after a collection until a whole pass makes no more
	// than its one allocation per resume: the watchdog also measures a
	// body when the live heap grew by half its headroom since the body's
	// last measurement, which the set-up's own bodies make it do for the
	// first bodies (seen once in the guard: 4 allocations per resume
	// where there is 1), and the live heap it reads is updated by a
	// cleanup that runs some time after the collection.
	runtime.GC()
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range tasks {
			resumeAttack(tb, agents, tasks, i)
		}
		runtime.ReadMemStats(&after)
		if after.Mallocs-before.Mallocs <= uint64(n) {
			break
		}
	}
	return agents, tasks, rt.Close
}

// resumeAttack resumes body i of attackBodies after its npc:wait(0.2):
// one pass of the attack loop (two npc.state reads, npc:shoot(),
// npc.state.ammo = npc.state.ammo - 1, a compare, npc:wait(0.2)). A
// magazine that runs low is refilled from Go first, so the body never
// ends.
func resumeAttack(tb testing.TB, agents []*engine.Agent, tasks []engine.Task, i int) {
	if n, _ := agents[i].Get("ammo").AsNumber(); n < 2 {
		agents[i].Set("ammo", expr.NumberValue(30))
	}
	if st, err := tasks[i].Resume(0.2); st != engine.Running || err != nil {
		tb.Fatal(st, err)
	}
}

// BenchmarkLuaAttackResume is one resume of the soldier's attack loop
// (see resumeAttack), taking the bodies in turn: with 10,000 of them the
// cache misses of a large world count (the Lua part of a world tick, per
// resume); with 100 they all stay in the cache. It reports the process's
// CPU time per resume beside the wall time.
func BenchmarkLuaAttackResume(b *testing.B) { benchAttackResume(b, false) }

// BenchmarkLuaAttackResumeWarm is BenchmarkLuaAttackResume with each
// body warmed before its resume as a World's tick warms them
// (engine.Warmer): Warm(0) four bodies ahead, Warm(1) two bodies ahead.
// (The world also prefetches each agent's struct and states, which this
// benchmark does not: its resumes read 2-3 lines of the agent cold.)
func BenchmarkLuaAttackResumeWarm(b *testing.B) { benchAttackResume(b, true) }

func benchAttackResume(b *testing.B, warm bool) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("bodies=%d", n), func(b *testing.B) {
			agents, tasks, done := attackBodies(b, n)
			defer done()
			warmers := make([]engine.Warmer, n)
			for i, t := range tasks {
				warmers[i], _ = t.(engine.Warmer)
				if warm && warmers[i] == nil {
					b.Fatal("a Lua body's task is not an engine.Warmer")
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			for i := 0; i < b.N; i++ {
				if warm {
					warmers[(i+4)%n].Warm(0)
					warmers[(i+2)%n].Warm(1)
				}
				resumeAttack(b, agents, tasks, i%n)
			}
			cpu := cpuNow() - c0
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

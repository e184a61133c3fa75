package bench

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
	lua "github.com/yuin/gopher-lua"
)

// luaTask starts the one action of a bench role in a fresh runtime.
func luaTask(b testing.TB, file string, opts luabind.Options) (engine.Task, *engine.Agent, func()) {
	b.Helper()
	rt := luabind.NewRuntime(opts)
	d, err := rt.LoadDomain(filepath.Join("testdata", file))
	if err != nil {
		b.Fatal(err)
	}
	a := engine.NewAgent("a", d)
	act := d.Actions[0]
	task, err := act.Body.Start(a, act)
	if err != nil {
		b.Fatal(err)
	}
	return task, a, rt.Close
}

// BenchmarkLuaResume is one resume of a body waiting in npc:wait: the
// per-tick cost of an agent whose action runs in Lua.
func BenchmarkLuaResume(b *testing.B) {
	task, _, done := luaTask(b, "lua_waiter.lua", luabind.Options{})
	defer done()
	b.ReportAllocs()
	for b.Loop() {
		if st, err := task.Resume(1.0 / 60); st != engine.Running {
			b.Fatal(st, err)
		}
	}
}

// BenchmarkLuaBudget is one resume of a body running 1,000 loop
// iterations, with the default instruction budget and with none: the
// cost of counting instructions.
func BenchmarkLuaBudget(b *testing.B) {
	for _, bc := range []struct {
		name   string
		budget int64
	}{{"default", 0}, {"none", -1}} {
		b.Run("budget="+bc.name, func(b *testing.B) {
			task, _, done := luaTask(b, "lua_loop.lua", luabind.Options{InstructionBudget: bc.budget})
			defer done()
			c0 := cpuNow()
			for b.Loop() {
				if st, err := task.Resume(1.0 / 60); st != engine.Running {
					b.Fatal(st, err)
				}
			}
			// The process's CPU time, which a busy machine stretches less
			// than the wall time.
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
	// The same loop in a stock gopher-lua state, which runs without a
	// context and so without a check before each instruction.
	b.Run("stock", func(b *testing.B) {
		L := lua.NewState()
		defer L.Close()
		fn, err := L.LoadString(`local s = 0 for i = 1, 1000 do s = s + i % 7 end return s`)
		if err != nil {
			b.Fatal(err)
		}
		c0 := cpuNow()
		for b.Loop() {
			L.Push(fn)
			if err := L.PCall(0, 1, nil); err != nil {
				b.Fatal(err)
			}
			L.Pop(1)
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkLuaAgentMemory reports the heap each agent adds when its action
// runs in Lua (the coroutine, its npc object, the task) next to the same
// agents with nothing running: the difference is the Lua share.
func BenchmarkLuaAgentMemory(b *testing.B) {
	const n = 2000
	for _, running := range []bool{false, true} {
		b.Run(fmt.Sprintf("running=%v", running), func(b *testing.B) {
			for b.Loop() {
				rt := luabind.NewRuntime(luabind.Options{})
				d, err := rt.LoadDomain(filepath.Join("testdata", "lua_waiter.lua"))
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				agents := make([]*engine.Agent, n)
				tasks := make([]engine.Task, n)
				for i := range agents {
					agents[i] = engine.NewAgent("a", d)
					if running {
						act := d.Actions[0]
						tasks[i], _ = act.Body.Start(agents[i], act)
						if _, err := tasks[i].Resume(1.0 / 60); err != nil {
							b.Fatal(err)
						}
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/agent")
				runtime.KeepAlive(agents)
				runtime.KeepAlive(tasks)
				rt.Close()
			}
		})
	}
}

// BenchmarkLuaStateStrings is one resume of a body that writes four
// strings to npc.state (two literals, two concatenations) and waits: the
// cost of turning Lua strings into state Values.
func BenchmarkLuaStateStrings(b *testing.B) {
	task, a, done := luaTask(b, "lua_strings.lua", luabind.Options{})
	defer done()
	b.ReportAllocs()
	for b.Loop() {
		if st, err := task.Resume(1.0 / 60); st != engine.Running {
			b.Fatal(st, err)
		}
	}
	if s, _ := a.Get("call").AsString(); len(s) != len("squad0-go") {
		b.Fatalf("call is %q, not a squad's", s)
	}
}

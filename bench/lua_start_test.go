package bench

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// reloadRun is one whole run of the reload body of scripts/soldier.lua
// for agent a: the start (a coroutine for the body), the first resume,
// which runs to its npc:wait(1.5), and the resume after the wait, which
// writes ammo and magazines and ends the body. The magazines are
// refilled from Go first, so the state stays the same from run to run.
func reloadRun(tb testing.TB, act *engine.Action, a *engine.Agent) {
	a.Set("magazines", expr.NumberValue(3))
	t, err := act.Body.Start(a, act)
	if err != nil {
		tb.Fatal(err)
	}
	if st, err := t.Resume(0); st != engine.Running || err != nil {
		tb.Fatal("first resume: ", st, err)
	}
	if st, err := t.Resume(1.5); st != engine.Succeeded || err != nil {
		tb.Fatal("last resume: ", st, err)
	}
}

// BenchmarkLuaBodyRun is one run of a short body from its start to its
// end (see reloadRun), taking n agents in turn: what an action that
// starts and ends costs on the Lua side besides its resumes' own work.
// It reports the process's CPU time per run beside the wall time.
func BenchmarkLuaBodyRun(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			rt := luabind.NewRuntime(luabind.Options{Host: soldierHost()})
			defer rt.Close()
			d, err := rt.LoadDomain(filepath.Join("..", "scripts", "soldier.lua"))
			if err != nil {
				b.Fatal(err)
			}
			act := d.Action("reload")
			if act == nil || act.Body == nil {
				b.Fatal("soldier.lua has no reload body")
			}
			agents := make([]*engine.Agent, n)
			for i := range agents {
				agents[i] = engine.NewAgent("s", d)
				reloadRun(b, act, agents[i])
			}
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			for i := 0; i < b.N; i++ {
				reloadRun(b, act, agents[i%n])
			}
			cpu := cpuNow() - c0
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

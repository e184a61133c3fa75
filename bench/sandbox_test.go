package bench

import (
	"fmt"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// BenchmarkLuaPcall is one resume of a body making 1,000 calls of a
// function that does not yield, through the sandbox's pcall and directly:
// the difference over 1,000 is what one pcall costs, in wall time
// ("ns/pcall") and in the process's CPU time ("cpu-ns/pcall", which a
// busy machine stretches less). "stock" is the same pair of loops in a
// stock gopher-lua state (its pcall cannot yield), the reference.
func BenchmarkLuaPcall(b *testing.B) {
	type cost struct{ wall, cpu float64 }
	perOp := map[string]cost{}
	measure := func(b *testing.B, name string, op func()) {
		b.ReportAllocs()
		c0 := cpuNow()
		for b.Loop() {
			op()
		}
		perOp[name] = cost{float64(b.Elapsed().Nanoseconds()) / float64(b.N), float64(cpuNow()-c0) / float64(b.N)}
		base, ok := perOp[strings.Replace(name, "pcall", "direct", 1)]
		if strings.HasSuffix(name, "pcall") && ok {
			b.ReportMetric((perOp[name].wall-base.wall)/1000, "ns/pcall")
			b.ReportMetric((perOp[name].cpu-base.cpu)/1000, "cpu-ns/pcall")
		}
	}
	for _, protected := range []bool{false, true} {
		name := "sandbox-direct"
		if protected {
			name = "sandbox-pcall"
		}
		b.Run(name, func(b *testing.B) {
			task, a, done := luaTask(b, "lua_pcall.lua", luabind.Options{})
			defer done()
			a.Set("protected", expr.BoolValue(protected))
			measure(b, name, func() {
				if st, err := task.Resume(1.0 / 60); st != engine.Running {
					b.Fatal(st, err)
				}
			})
		})
	}
	for _, protected := range []bool{false, true} {
		name := "stock-direct"
		call := "true, add(s, i)"
		if protected {
			name, call = "stock-pcall", "pcall(add, s, i)"
		}
		b.Run(name, func(b *testing.B) {
			L := lua.NewState()
			defer L.Close()
			fn, err := L.LoadString(`local function add(a, b) return a + b end
				local s = 0
				for i = 1, 1000 do local _, v = ` + call + ` s = v end
				return s`)
			if err != nil {
				b.Fatal(err)
			}
			measure(b, name, func() {
				L.Push(fn)
				if err := L.PCall(0, 1, nil); err != nil {
					b.Fatal(err)
				}
				L.Pop(1)
			})
		})
	}
}

// tableLoop fills one table with 2.4 million numbers and sums them.
const tableLoop = `local t = {} for i = 1, 2400000 do t[#t + 1] = i end local s = 0 for i = 1, #t do s = s + t[i] end return s`

// BenchmarkLuaTableLoop is one resume of a body filling one table with 2.4
// million numbers and summing them, in the sandbox (default limits, a
// budget large enough) and, as the textbook baseline, the same loop in a
// stock gopher-lua state.
func BenchmarkLuaTableLoop(b *testing.B) {
	b.Run("sandbox", func(b *testing.B) {
		task, a, done := luaTask(b, "lua_tableloop.lua", luabind.Options{InstructionBudget: 1e9})
		defer done()
		for b.Loop() {
			if st, err := task.Resume(1.0 / 60); st != engine.Running {
				b.Fatal(st, err)
			}
		}
		if !a.Get("sum").Equal(expr.NumberValue(2880001200000)) {
			b.Fatal("wrong sum", a.Get("sum"))
		}
	})
	b.Run("stock", func(b *testing.B) {
		L := lua.NewState()
		defer L.Close()
		fn, err := L.LoadString(tableLoop)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			L.Push(fn)
			if err := L.PCall(0, 1, nil); err != nil {
				b.Fatal(err)
			}
			L.Pop(1)
		}
	})
}

// BenchmarkLuaTablePad is one assignment far past the end of an empty
// list, t[n] = 1, which pads it with n-1 nils, under a budget too large
// to refuse it and no memory limit: "cpu-ns/slot" is what the sandbox's
// charge for padding (a work unit per 4 slots) stands for.
func BenchmarkLuaTablePad(b *testing.B) {
	for _, n := range []int{200_000, 1_900_000} {
		b.Run(fmt.Sprint("slots=", n), func(b *testing.B) {
			rt := luabind.NewRuntime(luabind.Options{InstructionBudget: 1e9, MemoryLimit: -1, RuntimeMemoryLimit: -1})
			defer rt.Close()
			fn, err := rt.L.LoadString(fmt.Sprintf(`local t = {} t[%d] = 1 return t`, n))
			if err != nil {
				b.Fatal(err)
			}
			c0 := cpuNow()
			for b.Loop() {
				if _, err := rt.Call(nil, fn, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N)/float64(n), "cpu-ns/slot")
		})
	}
}

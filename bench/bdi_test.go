package bench

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// bdiDomain is a role of 21 numeric variables (x, v1..v20) and a library
// of 20 Go plans, each on a belief v1..v20: none is relevant to x. With
// sensor, x counts the ticks; with quiet, belief events no plan could
// want are not recorded (Config.QuietBeliefs).
func bdiDomain(b testing.TB, sensor, quiet bool) *engine.Domain {
	b.Helper()
	spec := engine.RoleSpec{Name: "Listener", State: []engine.Var{{Name: "x", Value: expr.NumberValue(0)}}}
	for i := 1; i <= 20; i++ {
		spec.State = append(spec.State, engine.Var{Name: "v" + strconv.Itoa(i), Value: expr.NumberValue(0)})
	}
	if sensor {
		// One belief event per tick: x counts the ticks.
		spec.Sensors = []engine.SensorSpec{{Name: "clock", Run: func(a *engine.Agent, _ float64) error {
			a.State[0] = expr.NumberValue(float64(a.Ticks()))
			return nil
		}}}
	}
	d, err := engine.Compile(spec)
	if err != nil {
		b.Fatal(err)
	}
	var plans []*bdi.Plan
	for i := 1; i <= 20; i++ {
		plans = append(plans, &bdi.Plan{On: bdi.BeliefAdded, Belief: "v" + strconv.Itoa(i),
			Body: bdi.Func(func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, nil })})
	}
	lib, err := bdi.NewLibrary(d, plans)
	if err != nil {
		b.Fatal(err)
	}
	bdi.Install(d, &bdi.Config{Library: lib, QuietBeliefs: quiet})
	return d
}

// bdiDispatch returns an agent's Mind on d and a function that hands it
// one belief event on x and runs its reactive phase once.
func bdiDispatch(d *engine.Domain) (*bdi.Mind, func()) {
	a := engine.NewAgent("a", d)
	a.Recorder = nil // no trace: the dispatch alone
	a.Tick(0.1)
	m := bdi.Of(a)
	slot, _ := d.Schema.Lookup("x")
	n := 0.0
	return m, func() {
		n++
		m.Believed(a, reactive.BeliefChange{Slot: slot, Name: "x", Old: expr.NumberValue(n - 1), New: expr.NumberValue(n)})
		m.Step(a, 0.1)
	}
}

// BenchmarkBDIDispatch is one belief event through an agent's reactive
// phase: handed to its Mind (as the tick does after the sensors), then
// Step dispatches it to a library of 20 plans. "none-relevant": the index
// by event kind and variable finds no plan (and nothing is recorded).
// "lua-trigger": the one plan on x is Lua, and its trigger runs and
// answers nil.
func BenchmarkBDIDispatch(b *testing.B) {
	run := func(b *testing.B, d *engine.Domain) *bdi.Mind {
		m, dispatch := bdiDispatch(d)
		b.ReportAllocs()
		for b.Loop() {
			dispatch()
		}
		return m
	}
	b.Run("none-relevant", func(b *testing.B) { run(b, bdiDomain(b, false, true)) })
	b.Run("lua-trigger", func(b *testing.B) {
		rt := luabind.NewRuntime(luabind.Options{})
		defer rt.Close()
		d, err := rt.LoadDomain(filepath.Join("testdata", "bdi_plans.lua"))
		if err != nil {
			b.Fatal(err)
		}
		if m := run(b, d); len(m.Intentions()) != 0 {
			b.Fatal("the trigger should have refused every event")
		}
	})
}

// BenchmarkBDIWorld is one world tick of 10,000 agents on two workers,
// each receiving one belief event per tick from a sensor. "plans=none" is
// the baseline: the same role without a reactive layer. "plans=20"
// dispatches each event to 20 plans (none relevant); "recorded" also
// records every event in the flight recorder and the world's trace, as
// `moonmind run` does.
func BenchmarkBDIWorld(b *testing.B) {
	for _, c := range []struct {
		name            string
		plans, recorded bool
	}{{"plans=none", false, false}, {"plans=20", true, false}, {"plans=20/recorded", true, true}} {
		b.Run("agents=10000/"+c.name, func(b *testing.B) {
			d := bdiDomain(b, true, !c.recorded)
			if !c.plans {
				d.NewReactive = nil
			}
			w := engine.NewWorld(1)
			w.Workers = 2
			for i := range 10_000 {
				a := engine.NewAgent("a"+strconv.Itoa(i), d)
				if !c.recorded {
					a.Recorder = nil
				}
				w.Add(a)
			}
			if c.recorded {
				n := 0
				w.OnEvent = func(record.Event) { n++ }
			}
			for range 3 {
				w.Tick(0.1)
			}
			b.ReportAllocs()
			for b.Loop() {
				w.Tick(0.1)
			}
		})
	}
}

// BenchmarkBDIAgentTick is one tick of one agent of the BDIWorld role,
// without a reactive layer and with its 20 plans: the layer's own cost,
// without the memory traffic of 10,000 agents. On a loaded machine read
// its CPU profile (-cpuprofile), not its wall time.
func BenchmarkBDIAgentTick(b *testing.B) {
	for _, plans := range []bool{false, true} {
		name := "plans=none"
		if plans {
			name = "plans=20"
		}
		b.Run(name, func(b *testing.B) {
			d := bdiDomain(b, true, true)
			if !plans {
				d.NewReactive = nil
			}
			a := engine.NewAgent("a", d)
			a.Recorder = nil
			for range 3 {
				a.Tick(0.1)
			}
			b.ReportAllocs()
			for b.Loop() {
				a.Tick(0.1)
			}
		})
	}
}

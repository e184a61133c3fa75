package bench

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// cpuSpread reports the median and the largest of samples (CPU
// nanoseconds) in milliseconds under the given unit names, and returns
// them in nanoseconds (0, 0 without samples).
func cpuSpread(b *testing.B, samples []int64, median, worst string) (med, most int64) {
	if len(samples) == 0 {
		return 0, 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	med, most = s[len(s)/2], s[len(s)-1]
	b.ReportMetric(float64(med)/1e6, median)
	b.ReportMetric(float64(most)/1e6, worst)
	return med, most
}

// hostileWorld builds a world of 47 well-behaved agents and, when hostile,
// three hostile ones among them (erroring every time it runs, looping
// until its budget, keeping 4 MB more each tick until its memory limit),
// whose failed actions start again at the next tick (Agent.RetryDelay),
// as luabind's TestHostileAgentsDoNotChangeOthers does, in one runtime
// with the default limits. It returns the world and the runtime's Close.
func hostileWorld(b *testing.B, hostile bool) (*engine.World, func()) {
	b.Helper()
	rt := luabind.NewRuntime(luabind.Options{})
	load := func(path string) *engine.Domain {
		d, err := rt.LoadDomain(path)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	victim := load(filepath.Join("testdata", "hostile_victim.lua"))
	w := engine.NewWorld(1)
	const victims = 47
	// The hostile agents are luabind's own (its TestHostileAgentsDoNotChangeOthers).
	hostiles := map[int]string{0: "erroring.lua", victims / 2: "looping.lua", victims - 1: "allocating.lua"}
	for i := range victims {
		if f, ok := hostiles[i]; ok && hostile {
			h := engine.NewAgent("hostile_"+f, load(filepath.Join("..", "luabind", "testdata", "isolation", f)))
			h.RetryDelay = 0.01 // less than a tick: a failed action starts again at the next tick
			w.Add(h)
		}
		w.Add(engine.NewAgent(fmt.Sprintf("victim%02d", i), victim))
	}
	return w, rt.Close
}

// BenchmarkHostileWorldTick is one tick (0.1 s of game time, one worker)
// of 47 well-behaved Lua agents, alone and with three hostile agents
// among them (see hostileWorld). Besides ns/op it reports the median and
// the largest CPU time of one tick (process CPU time, getrusage, so
// waiting for a core on a busy machine does not count; the collector's
// work during the tick does), and for the hostile world how many of its
// agents' actions failed per tick. The claim is that no tick
// takes longer than the budgets allow: the hostile world's worst tick is
// the alone world's plus at most three spent budgets (about 50 ms each).
func BenchmarkHostileWorldTick(b *testing.B) {
	for _, hostile := range []bool{false, true} {
		b.Run(fmt.Sprint("hostile=", hostile), func(b *testing.B) {
			w, done := hostileWorld(b, hostile)
			defer done()
			fails := 0
			w.OnEvent = func(e record.Event) {
				if e.Kind == record.EventFail {
					fails++
				}
			}
			for range 20 { // past the first plans and the first memory limit
				w.Tick(0.1)
			}
			fails = 0
			samples := make([]int64, 0, 1024)
			b.ReportAllocs()
			for b.Loop() {
				c0 := cpuNow()
				w.Tick(0.1)
				samples = append(samples, cpuNow()-c0)
			}
			cpuSpread(b, samples, "median-cpu-ms/tick", "max-cpu-ms/tick")
			b.ReportMetric(float64(fails)/float64(b.N), "fails/tick")
			if hostile && fails == 0 {
				b.Fatal("the hostile agents never failed")
			}
			if !hostile && fails != 0 {
				b.Fatal(fails, "failures without hostile agents")
			}
		})
	}
}

// BenchmarkHostileResume is the first resume of a runaway body (see
// testdata/hostile_bodies.lua), each through a different built-in, with
// the default limits: one op starts the action and resumes it once, and
// the resume must fail (budget, memory or pattern limit). It reports the
// median and the largest CPU time of one resume (getrusage; the
// collector's work during the resume counts) and "x-loop", the largest
// against the median of the plain VM loop of the same run ("loop", which
// spends the default budget on instructions alone). The documented bound
// is about 50 ms per resume.
func BenchmarkHostileResume(b *testing.B) {
	rt := luabind.NewRuntime(luabind.Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "hostile_bodies.lua"))
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"loop"}
	for _, act := range d.Actions {
		if act.Name != "loop" {
			names = append(names, act.Name)
		}
	}
	var loopMedian float64
	for _, name := range names {
		act := d.Action(name)
		if act == nil {
			b.Fatal("no action ", name)
		}
		b.Run("body="+name, func(b *testing.B) {
			a := engine.NewAgent("hostile", d)
			samples := make([]int64, 0, 64)
			var last error
			for b.Loop() {
				task, err := act.Body.Start(a, act)
				if err != nil {
					b.Fatal(err)
				}
				c0 := cpuNow()
				st, err := task.Resume(0.1)
				samples = append(samples, cpuNow()-c0)
				if st != engine.Failed {
					b.Fatal(name, ": the resume did not fail: ", st)
				}
				last = err
			}
			med, most := cpuSpread(b, samples, "median-cpu-ms/resume", "max-cpu-ms/resume")
			if name == "loop" {
				loopMedian = float64(med)
			} else if loopMedian > 0 {
				b.ReportMetric(float64(most)/loopMedian, "x-loop")
			}
			b.Log(name, ": ", last)
		})
	}
}

package engine

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// crewDomain is a one-action role whose body runs forever and hands each
// resume to resume (recordingTask when resume is nil).
func crewDomain(t *testing.T, resume func(a *Agent, dt float64)) *Domain {
	t.Helper()
	var body Body = recordingBody{}
	if resume != nil {
		body = crewFuncBody{resume}
	}
	d, err := Compile(RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("finish", "done", Normal)},
		Actions: []ActionSpec{NewAction("work").Effects("done = true").Body(body).Spec()}})
	require.NoError(t, err)
	return d
}

// crewFuncBody runs forever, calling f at each resume after recording the
// agent's tick.
type crewFuncBody struct{ f func(a *Agent, dt float64) }

func (b crewFuncBody) Start(a *Agent, _ *Action) (Task, error) { return crewFuncTask{a, b.f}, nil }

type crewFuncTask struct {
	a *Agent
	f func(a *Agent, dt float64)
}

func (t crewFuncTask) Resume(dt float64) (Status, error) {
	t.a.Record(record.Event{Kind: record.EventSummary, Reason: fmt.Sprintf("tick %d", t.a.tick)})
	t.f(t.a, dt)
	return Running, nil
}

func (crewFuncTask) Interrupt() {}

// waitCrewGone waits (up to 2 s, polling) for a world's helpers to end and
// the goroutine count to come back to start.
func waitCrewGone(t *testing.T, start int, worlds ...*World) {
	t.Helper()
	gone := func() bool {
		for _, w := range worlds {
			if w.crew != nil && w.crew.alive.Load() != 0 {
				return false
			}
		}
		return runtime.NumGoroutine() <= start
	}
	// Polled on this goroutine (assert.Eventually would add its own).
	for end := time.Now().Add(2 * time.Second); !gone() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), start, "goroutines left running")
	for _, w := range worlds {
		if w.crew != nil {
			assert.Zero(t, w.crew.alive.Load(), "helpers counted alive")
		}
	}
}

// churnRun ticks a world through a fixed schedule of Workers, Adds,
// Removes and Pins between back-to-back ticks and returns every record
// OnEvent saw and each agent's tick count (by name).
func churnRun(d *Domain, workers func(tick int) int, ticks int) ([]string, map[string]int) {
	w := NewWorld(7)
	var out []string
	w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%d %s %s %s", e.Tick, e.Agent, e.Kind, e.Reason)) }
	next := 0
	add := func() {
		w.Add(NewAgent(fmt.Sprintf("a%d", next), d))
		next++
	}
	for range 5 {
		add()
	}
	ticked := map[string]int{}
	for tick := range ticks {
		w.Workers = workers(tick)
		switch tick % 6 {
		case 1:
			add()
			add()
		case 2:
			w.Pin(tick%len(w.Agents), tick%5-1)
		case 4:
			if len(w.Agents) > 3 {
				a := w.Agents[tick%len(w.Agents)]
				ticked[a.Name] = a.tick
				w.Remove(a)
			}
		}
		w.Tick(0.05)
	}
	for _, a := range w.Agents {
		ticked[a.Name] = a.tick
	}
	return out, ticked
}

// TestLaneCrewChurnBetweenTicks: Workers changed between back-to-back
// ticks (2, 3, 1, 4, 2, and 8: more workers than agents, more than
// cores), agents added, removed and pinned between ticks while the
// helpers may still spin for the next one: the records and every agent's
// tick count are those of one worker, and no helper is left afterwards.
func TestLaneCrewChurnBetweenTicks(t *testing.T) {
	start := runtime.NumGoroutine()
	d := crewDomain(t, nil)
	const ticks = 120
	want, wantTicks := churnRun(d, func(int) int { return 1 }, ticks)
	require.Greater(t, len(want), ticks*5, "the agents make records")
	seq := []int{2, 3, 1, 4, 2, 8, 2, 2, 5, 1}
	for name, workers := range map[string]func(int) int{
		"sequence": func(tick int) int { return seq[tick%len(seq)] },
		"eight":    func(int) int { return 8 },
		"flip":     func(tick int) int { return 1 + tick%2*3 },
	} {
		got, gotTicks := churnRun(d, workers, ticks)
		assert.Equal(t, wantTicks, gotTicks, "%s: every agent ticked once a tick", name)
		assert.Equal(t, want, got, "%s: the records of one worker", name)
	}
	waitCrewGone(t, start)
}

// TestLaneCrewFastAndSlowTicks: ticks alternating back to back and apart,
// with a lane whose task blocks briefly (its agent sleeps), so the caller
// spins, blocks or takes the helpers' lanes in turn: the records are
// those of one worker.
func TestLaneCrewFastAndSlowTicks(t *testing.T) {
	start := runtime.NumGoroutine()
	d := crewDomain(t, func(a *Agent, _ float64) {
		if a.ID%7 == 3 && a.tick%3 == 0 {
			time.Sleep(300 * time.Microsecond) // longer than the caller spins
		}
	})
	run := func(workers int) []string {
		w := NewWorld(11)
		w.Workers = workers
		var out []string
		w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%d %s %s %s", e.Tick, e.Agent, e.Kind, e.Reason)) }
		for i := range 24 {
			w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
		}
		for tick := range 60 {
			if tick%4 == 3 {
				time.Sleep(2 * crewSpin) // the helpers end before the next tick
			}
			w.Tick(0.1)
		}
		for _, a := range w.Agents {
			assert.Equal(t, 60, a.tick, "%d workers: %s ticked once a tick", workers, a.Name)
		}
		return out
	}
	want := run(1)
	require.Greater(t, len(want), 24*60)
	assert.Equal(t, want, run(2), "2 workers")
	assert.Equal(t, want, run(3), "3 workers")
	waitCrewGone(t, start)
}

// TestLaneCrewTwoWorldsAtOnce: two worlds of 2 workers ticked from two
// goroutines at once keep their own helpers: each world's records are
// those it makes alone on one worker.
func TestLaneCrewTwoWorldsAtOnce(t *testing.T) {
	start := runtime.NumGoroutine()
	d := crewDomain(t, nil)
	mk := func(seed uint64, workers int) (*World, *[]string) {
		w := NewWorld(seed)
		w.Workers = workers
		out := new([]string)
		w.OnEvent = func(e record.Event) {
			*out = append(*out, fmt.Sprintf("%d %s %s %s %v", e.Tick, e.Agent, e.Kind, e.Reason, w.Rand.Uint64()))
		}
		for i := range 16 + int(seed) {
			w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
		}
		return w, out
	}
	var want [2][]string
	for i := range 2 {
		w, out := mk(uint64(i+1), 1)
		for range 80 {
			w.Tick(0.1)
		}
		want[i] = *out
	}
	var got [2]*[]string
	var worlds [2]*World
	var wg sync.WaitGroup
	for i := range 2 {
		w, out := mk(uint64(i+1), 2)
		worlds[i], got[i] = w, out
		wg.Go(func() {
			for range 80 {
				w.Tick(0.1)
			}
		})
	}
	wg.Wait()
	for i := range 2 {
		require.Greater(t, len(want[i]), 16*80)
		assert.Equal(t, want[i], *got[i], "world %d", i)
	}
	waitCrewGone(t, start, worlds[0], worlds[1])
}

// twoLaneWorld is 8 agents of d on 2 workers, a0-a3 in lane 0 and a4-a7
// in lane 1, ticked twice (so their third tick is the next).
func twoLaneWorld(t *testing.T, d *Domain) *World {
	t.Helper()
	w := NewWorld(5)
	w.Workers = 2
	for i := range 8 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	w.Tick(0.1)
	w.Tick(0.1)
	require.Equal(t, [][]int32{{0, 1, 2, 3}, {4, 5, 6, 7}}, w.lanes)
	return w
}

// agentTicks is each agent's tick count, in agent order.
func agentTicks(w *World) []int {
	ticks := make([]int, len(w.Agents))
	for i, a := range w.Agents {
		ticks[i] = a.tick
	}
	return ticks
}

// TestLaneCrewPanicReachesCaller: a Go task that panics in a lane a
// helper ticks does not end the process: Tick panics with its value on
// the caller's goroutine, as it does on one worker, once every lane is
// done, and the world ticks on. The agent in lane 0 (the caller's) waits
// for the panicking agent of lane 1 to start, so lane 1 is a helper's.
func TestLaneCrewPanicReachesCaller(t *testing.T) {
	start := runtime.NumGoroutine()
	started := make(chan struct{})
	var once sync.Once
	armed := true // read only in the tick that panics and after it
	d := crewDomain(t, func(a *Agent, _ float64) {
		if !armed || a.tick != 3 {
			return
		}
		switch a.Name {
		case "a0":
			select {
			case <-started:
			case <-time.After(2 * time.Second):
			}
		case "a5":
			once.Do(func() { close(started) })
			panic("a5 broke")
		}
	})
	w := twoLaneWorld(t, d)
	assert.PanicsWithValue(t, "a5 broke", func() { w.Tick(0.1) })
	armed = false
	ticks := agentTicks(w)
	// a6 and a7, after the panic in lane 1, did not tick; lane 0 did.
	assert.Equal(t, []int{3, 3, 3, 3, 3, 3, 2, 2}, ticks)
	w.Tick(0.1)
	w.Tick(0.1)
	for i, a := range w.Agents {
		assert.Equal(t, ticks[i]+2, a.tick, "%s ticks on after the panic", a.Name)
	}
	waitCrewGone(t, start, w)
}

// TestLaneCrewCallerPanicWaitsForHelpers: when the caller's own lane
// panics, Tick waits for the helpers' lanes before it panics, so the
// game that recovers reads agents no goroutine still ticks; of two lanes
// that panic, the lower lane's value is the one Tick panics with.
func TestLaneCrewCallerPanicWaitsForHelpers(t *testing.T) {
	start := runtime.NumGoroutine()
	gate := make(chan struct{})
	var once sync.Once
	mode := 0 // 1: a0 panics, a5 waits for it; 2: a0 and a5 panic
	d := crewDomain(t, func(a *Agent, _ float64) {
		switch {
		case mode == 1 && a.Name == "a0":
			once.Do(func() { close(gate) })
			panic("a0 broke")
		case mode == 1 && a.Name == "a4":
			select {
			case <-gate:
			case <-time.After(2 * time.Second):
			}
			time.Sleep(5 * time.Millisecond) // the helper is still at work when a0 panics
		case mode == 2 && (a.Name == "a1" || a.Name == "a6"):
			panic(a.Name + " broke")
		}
	})
	w := twoLaneWorld(t, d)
	mode = 1
	assert.PanicsWithValue(t, "a0 broke", func() { w.Tick(0.1) })
	mode = 0
	ticks := make([]int, len(w.Agents))
	for i, a := range w.Agents {
		ticks[i] = a.tick // the race detector flags this if a helper still ticks
	}
	assert.Equal(t, []int{3, 2, 2, 2, 3, 3, 3, 3}, ticks, "lane 1 done when Tick panicked")
	for range 3 {
		mode = 2
		assert.PanicsWithValue(t, "a1 broke", func() { w.Tick(0.1) }, "the lower lane's panic")
		mode = 0
	}
	w.Tick(0.1)
	waitCrewGone(t, start, w)
}

// TestLaneCrewEmptyLanesAndGOMAXPROCS: every agent removed under 4
// workers (all lanes empty) and added back, Workers set to 0 and -3
// between back-to-back ticks, and GOMAXPROCS switched between 1 and 2
// between ticks (so one tick spins and the next does not): the records
// are those of one worker and no helper is left.
func TestLaneCrewEmptyLanesAndGOMAXPROCS(t *testing.T) {
	start := runtime.NumGoroutine()
	d := crewDomain(t, nil)
	run := func(workers []int, procs bool) []string {
		if procs {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
		}
		w := NewWorld(13)
		var out []string
		w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%d %s %s %s", e.Tick, e.Agent, e.Kind, e.Reason)) }
		next := 0
		for tick := range 60 {
			if procs {
				runtime.GOMAXPROCS(1 + tick%2)
			}
			w.Workers = workers[tick%len(workers)]
			switch tick % 20 {
			case 0:
				for range 6 {
					w.Add(NewAgent(fmt.Sprintf("a%d", next), d))
					next++
				}
			case 10:
				for len(w.Agents) > 0 {
					require.True(t, w.Remove(w.Agents[len(w.Agents)-1]))
				}
			}
			w.Tick(0.1)
			if tick%20 >= 10 {
				require.Empty(t, w.Agents)
			}
		}
		return out
	}
	want := run([]int{1}, false)
	require.Greater(t, len(want), 3*10*6)
	assert.Equal(t, want, run([]int{4, 0, 2, -3, 4, 4, 3}, false), "Workers changed")
	assert.Equal(t, want, run([]int{2, 4, 2}, true), "GOMAXPROCS changed")
	waitCrewGone(t, start)
}

// TestLaneCrewGoexitOnHelperEndsTheTick: a task that calls
// runtime.Goexit (as testing's t.FailNow does) in a lane a helper ticks
// ends that helper, not the world: the lane counts as done, Tick panics
// with errLaneGoexit instead of waiting for the lane forever, and the
// world ticks on with a new helper. Of a0 (lane 0) and a5 (lane 1), the
// one a helper ticks exits; the other, on Tick's goroutine, waits for it.
func TestLaneCrewGoexitOnHelperEndsTheTick(t *testing.T) {
	start := runtime.NumGoroutine()
	exited := make(chan string, 1)
	armed := true // read only in the tick that exits and after it
	d := crewDomain(t, func(a *Agent, _ float64) {
		if !armed || a.tick != 3 || (a.Name != "a0" && a.Name != "a5") {
			return
		}
		buf := make([]byte, 8192)
		if bytes.Contains(buf[:runtime.Stack(buf, false)], []byte("laneCrew).help")) {
			exited <- a.Name
			runtime.Goexit()
		}
		select {
		case name := <-exited:
			exited <- name
		case <-time.After(10 * time.Second): // only so that a broken crew cannot hang the test
		}
	})
	w := twoLaneWorld(t, d)
	assert.PanicsWithError(t, errLaneGoexit.Error(), func() { w.Tick(0.1) })
	armed = false
	ticks := agentTicks(w)
	// The agents after the one that exited, in its lane, did not tick.
	want := map[string][]int{"a0": {3, 2, 2, 2, 3, 3, 3, 3}, "a5": {3, 3, 3, 3, 3, 3, 2, 2}}
	select {
	case name := <-exited:
		assert.Equal(t, want[name], ticks, "%s exited", name)
	default:
		t.Fatal("no task exited on a helper")
	}
	w.Tick(0.1)
	w.Tick(0.1)
	for i, a := range w.Agents {
		assert.Equal(t, ticks[i]+2, a.tick, "%s ticks on after the Goexit", a.Name)
	}
	waitCrewGone(t, start, w)
}

package engine

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// warmLog counts what the warmTasks of a run saw. tick is the world's
// tick being run (written between ticks only).
type warmLog struct {
	tick int
	// resumes counts the resumes but the first of each task (a task
	// started in a tick is resumed in it, after the warming), warmed
	// those warmed in their tick, ordered those whose Warm(0) came first.
	resumes, warmed, ordered atomic.Int64
	// wasted counts a Warm(1) whose task was then neither resumed nor
	// interrupted in that tick; asleep a Warm call on a task whose agent
	// skipped its resume as a Sleeper's.
	wasted, asleep atomic.Int64
}

// warmBody is a sleepyBody whose tasks are Warmers too.
type warmBody struct {
	sleepyBody
	log *warmLog
}

func (b warmBody) Start(a *Agent, act *Action) (Task, error) {
	t, err := b.sleepyBody.Start(a, act)
	if err != nil {
		return nil, err
	}
	return &warmTask{sleepyTask: t.(*sleepyTask), log: b.log, w0: -1, w1: -1}, nil
}

// warmTask notes the ticks of its last Warm(0) and Warm(1) and checks,
// at each Resume and Interrupt, that a Warm(1) of this tick came after a
// Warm(0) of this tick.
type warmTask struct {
	*sleepyTask
	log     *warmLog
	w0, w1  int
	resumed bool
}

func (t *warmTask) Warm(step int) {
	if t.a.asleep > 1 {
		t.log.asleep.Add(1)
	}
	switch step {
	case 0:
		t.w0 = t.log.tick
	case 1:
		if t.w1 >= 0 {
			t.log.wasted.Add(1) // the last Warm(1) was not followed by a resume
		}
		t.w1 = t.log.tick
		if t.w0 == t.log.tick {
			t.log.ordered.Add(1)
		}
	}
}

func (t *warmTask) used() {
	if t.w1 == t.log.tick {
		t.log.warmed.Add(1)
	} else if t.w1 >= 0 {
		t.log.wasted.Add(1)
	}
	t.w0, t.w1 = -1, -1
}

func (t *warmTask) Resume(dt float64) (Status, error) {
	if t.resumed {
		t.log.resumes.Add(1)
	}
	t.resumed = true
	t.used()
	return t.sleepyTask.Resume(dt)
}

func (t *warmTask) Interrupt() {
	t.used()
	t.sleepyTask.Interrupt()
}

// warmRun is sleepyRun's run, with one dt, with bodies that are
// Sleepers, and Warmers too when warm is set.
func warmRun(t *testing.T, warm bool, workers int, log *warmLog) []string {
	t.Helper()
	var bad, skipped atomic.Int64
	r := sleepyRole(true, &bad, &skipped)
	if warm {
		for i := range r.Actions {
			r.Actions[i].Body = warmBody{sleepyBody: r.Actions[i].Body.(sleepyBody), log: log}
		}
	}
	d, err := Compile(r)
	require.NoError(t, err)
	w, out := skipWorld(t, d, 3, 24, false)
	w.Workers = workers
	rnd := rand.New(rand.NewPCG(1, 2))
	for tick := range 900 {
		for _, a := range w.Agents {
			switch p := rnd.IntN(400); {
			case p < 15:
				a.Set("noise", expr.NumberValue(float64(rnd.IntN(5))))
			case p < 25:
				a.Set("health", expr.NumberValue(float64(rnd.IntN(101))))
			case p < 28:
				a.Set("enemy_visible", expr.BoolValue(!a.Get("enemy_visible").Truthy()))
			case p < 30:
				a.Set("ammo", expr.NumberValue(float64(rnd.IntN(31))))
			}
		}
		log.tick = tick
		w.Tick(1.0 / 60) // one dt: a Sleeper's window is not cut short by another

	}
	w.Finish()
	assert.Zero(t, bad.Load(), "a task missed a tick")
	assert.Greater(t, skipped.Load(), int64(1000), "resumes were skipped")
	return *out
}

// TestWarmersAreWarmedBeforeTheirResumesAndChangeNothing: a World's tick
// calls Warm(0) and then Warm(1) on the tasks it is about to resume, in
// the same tick, never on a task whose resume it skips (a Sleeper's),
// and every record is what the same bodies without Warm give.
func TestWarmersAreWarmedBeforeTheirResumesAndChangeNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			want := warmRun(t, false, workers, &warmLog{})
			var log warmLog
			got := warmRun(t, true, workers, &log)
			require.Greater(t, len(want), 1000, "the run makes records")
			assert.Equal(t, want, got)
			assert.Zero(t, log.asleep.Load(), "a task was warmed while its agent skipped its resume")
			assert.Zero(t, log.wasted.Load(), "a warmed task was neither resumed nor interrupted in that tick")
			assert.Equal(t, log.ordered.Load(), log.warmed.Load(), "every warmed resume had Warm(0) before Warm(1)")
			// Only the first warmAhead agents of each worker's lane are
			// resumed without being warmed.
			t.Logf("%d resumes after the first, %d warmed", log.resumes.Load(), log.warmed.Load())
			assert.Greater(t, log.warmed.Load(), log.resumes.Load()/2)
			assert.LessOrEqual(t, log.resumes.Load()-log.warmed.Load(), int64(900*workers*warmAhead))
		})
	}
}

// TestLaneWarmerSteps: laneWarmer gives each agent's task Warm(0) when
// shown and Warm(1) warmGap calls later, skips agents without a task or
// asleep, and makes no call for noWarmer.
func TestLaneWarmerSteps(t *testing.T) {
	require.Equal(t, 2, warmGap, "the calls below are written for a gap of 2")
	var calls []string
	mk := func(name string, asleep uint8) *Agent {
		a := &Agent{Name: name}
		a.setTask(&recordingWarmer{name: name, calls: &calls}, nil)
		a.asleep = asleep
		return a
	}
	var lw laneWarmer
	j := 0
	show := func(a *Agent) {
		lw.next(j, a)
		j++
	}
	show(mk("a", 0))
	show(mk("f", 1))
	show(mk("b", 5)) // asleep: not warmed
	show(&Agent{Name: "c"})
	e := &Agent{Name: "e"}
	e.setTask(&ticksTask{}, nil) // not a Warmer
	show(e)
	show(mk("d", 1))
	show(mk("g", 0))
	show(&noWarmer)
	show(&noWarmer)
	show(&noWarmer)
	assert.Equal(t, []string{"a0", "f0", "a1", "f1", "d0", "g0", "d1", "g1"}, calls)
	assert.Equal(t, uint8(markPlain), e.marks&(markWarmer|markPlain), "a task that is not a Warmer is marked plain (its object is prefetched)")
	assert.Equal(t, uint8(markWarmer), mk("h", 0).marks&(markWarmer|markPlain), "a Warmer is warmed, not prefetched")
	e.setTask(nil, nil)
	assert.Zero(t, e.marks&(markWarmer|markPlain), "no task, nothing to warm")
	assert.Equal(t, [warmGap]bool{}, lw.full, "nothing is left to warm")
}

type recordingWarmer struct {
	name  string
	calls *[]string
}

func (w *recordingWarmer) Resume(float64) (Status, error) { return Running, nil }
func (w *recordingWarmer) Interrupt()                     {}
func (w *recordingWarmer) Warm(step int)                  { *w.calls = append(*w.calls, fmt.Sprint(w.name, step)) }

package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// sleepyBody is a stepsBody whose tasks are Sleepers: the resumes before
// the last one of a body with no stop condition and no writes only count,
// so the agent may skip them. Each task checks, at every Resume and
// Interrupt, that it has been told of every tick since it started, and of
// its seconds (resumes made plus resumes skipped, before this tick's); a
// miss is counted in *bad.
type sleepyBody struct {
	stepsBody
	bad, skipped *atomic.Int64
}

func (b sleepyBody) Start(a *Agent, act *Action) (Task, error) {
	t, err := b.stepsBody.Start(a, act)
	if err != nil {
		return nil, err
	}
	return &sleepyTask{stepsTask: t.(*stepsTask), from: a.Ticks(), t0: a.Time(), bad: b.bad, skipped: b.skipped}, nil
}

type sleepyTask struct {
	*stepsTask
	from         int     // the agent's tick when the task started (its first resume's)
	t0, slept    float64 // the agent's time then; the seconds of the resumes made and skipped
	bad, skipped *atomic.Int64
}

func (t *sleepyTask) check() {
	if t.done != t.a.Ticks()-t.from || math.Abs(t.slept-(t.a.Time()-t.t0)) > 1e-9 {
		t.bad.Add(1)
	}
}

func (t *sleepyTask) Resume(dt float64) (Status, error) {
	t.check()
	t.slept += dt
	return t.stepsTask.Resume(dt)
}

func (t *sleepyTask) Interrupt() { t.check() }

// Asleep: a resume only counts when it neither writes (every) nor reads
// (stop) and is not the last (done = n).
func (t *sleepyTask) Asleep(float64) int {
	if t.stop != nil || t.b.every > 0 && t.b.v != "" {
		return 0
	}
	return max(0, t.b.n-t.done-1)
}

func (t *sleepyTask) Slept(n int, dt float64) {
	if n <= 0 {
		t.bad.Add(1) // Slept is only for resumes that were skipped
	}
	t.done += n
	t.slept += float64(n) * dt
	t.skipped.Add(int64(n))
}

// sleepyRole is skipRole with bodies that are Sleepers (sleepy), or the
// same bodies hidden behind a plain Task.
func sleepyRole(sleepy bool, bad, skipped *atomic.Int64) RoleSpec {
	r := skipRole()
	for i := range r.Actions {
		b := r.Actions[i].Body.(stepsBody)
		if b.stop == "" && b.v == "" {
			b.n *= 7 // long enough waits to skip
		}
		if sleepy {
			r.Actions[i].Body = sleepyBody{stepsBody: b, bad: bad, skipped: skipped}
		} else {
			r.Actions[i].Body = b
		}
	}
	return r
}

// sleepyRun is skipRun with sleepyRole's bodies; every seventh tick or so
// has another dt, on which no resume is skipped.
func sleepyRun(t *testing.T, sleepy bool, workers, sparse int, bad, skipped *atomic.Int64) []string {
	t.Helper()
	return sleepyRunWith(t, sleepy, workers, sparse, bad, skipped, func(a *Agent, name string, v expr.Value) { a.Set(name, v) })
}

// sleepyRunWith is sleepyRun with the world's writes made by set.
func sleepyRunWith(t *testing.T, sleepy bool, workers, sparse int, bad, skipped *atomic.Int64, set func(a *Agent, name string, v expr.Value)) []string {
	t.Helper()
	d, err := Compile(sleepyRole(sleepy, bad, skipped))
	require.NoError(t, err)
	w, out := skipWorld(t, d, 3, 24, !sleepy)
	w.Workers = workers
	r := rand.New(rand.NewPCG(1, 2))
	for range 900 {
		for _, a := range w.Agents {
			switch p := r.IntN(100 * sparse); {
			case p < 15:
				set(a, "noise", expr.NumberValue(float64(r.IntN(5))))
			case p < 20:
				set(a, "alarm", expr.NumberValue(float64(r.IntN(5))))
			case p < 30:
				set(a, "health", expr.NumberValue(float64(r.IntN(101))))
			case p < 33:
				set(a, "enemy_visible", expr.BoolValue(!a.Get("enemy_visible").Truthy()))
			case p < 36:
				set(a, "in_cover", expr.BoolValue(false))
			case p < 38:
				set(a, "ammo", expr.NumberValue(float64(r.IntN(31))))
			case p < 40:
				set(a, "magazines", expr.NumberValue(0))
			}
		}
		dt := 1.0 / 60
		if r.IntN(7) == 0 {
			dt = 1.0 / 30
		}
		w.Tick(dt)
	}
	w.Finish()
	return *out
}

// TestSleepersSkipResumesAndChangeNothing: bodies that say they will only
// count time (Sleeper) are not resumed while they wait, and every record
// is what resuming them every tick, with every check made, gives, on 1
// and 2 workers, while the world writes the agents' state and dt changes
// now and then; each task is told of every tick it missed before it is
// resumed or interrupted.
func TestSleepersSkipResumesAndChangeNothing(t *testing.T) {
	for _, tc := range []struct{ workers, sparse int }{{1, 1}, {1, 4}, {2, 1}, {2, 4}, {1, 8}, {1, 16}} {
		t.Run(fmt.Sprintf("workers=%d/sparse=%d", tc.workers, tc.sparse), func(t *testing.T) {
			var bad, skipped atomic.Int64
			want := sleepyRun(t, false, tc.workers, tc.sparse, &bad, &skipped)
			require.Zero(t, skipped.Load())
			got := sleepyRun(t, true, tc.workers, tc.sparse, &bad, &skipped)
			require.Greater(t, len(want), 1000, "the run makes records")
			assert.Equal(t, want, got)
			assert.Zero(t, bad.Load(), "a task missed a tick")
			assert.Greater(t, skipped.Load(), int64(24*100), "resumes were skipped")
		})
	}
}

// TestWorldWritesThroughEveryPathAreSeen: the tick finds the world's
// changes to a waiting agent's state (the state after its body's last
// resume lies in the agent's own memory, see Agent.postState) whichever
// way the game writes them: Agent.Set, a slot written directly, the
// State slice replaced by a changed copy (then State no longer lies in
// the agent, post still does), or copied over. Every record is what
// resuming every body every tick with every check made gives.
func TestWorldWritesThroughEveryPathAreSeen(t *testing.T) {
	var bad, skipped atomic.Int64
	want := sleepyRun(t, false, 1, 1, &bad, &skipped)
	require.Greater(t, len(want), 1000, "the run makes records")
	slot := func(a *Agent, name string) int {
		i, ok := a.Domain.Schema.Lookup(name)
		require.True(t, ok, name)
		return i
	}
	for name, set := range map[string]func(a *Agent, name string, v expr.Value){
		"Set":      func(a *Agent, name string, v expr.Value) { a.Set(name, v) },
		"slot":     func(a *Agent, name string, v expr.Value) { a.State[slot(a, name)] = v },
		"replaced": func(a *Agent, name string, v expr.Value) { st := a.State.Clone(); st[slot(a, name)] = v; a.State = st },
		"copied in": func(a *Agent, name string, v expr.Value) {
			st := a.State.Clone()
			st[slot(a, name)] = v
			copy(a.State, st)
		},
	} {
		t.Run(name, func(t *testing.T) {
			var bad, skipped atomic.Int64
			got := sleepyRunWith(t, true, 1, 1, &bad, &skipped, set)
			assert.Equal(t, want, got)
			assert.Zero(t, bad.Load(), "a task missed a tick")
			assert.Greater(t, skipped.Load(), int64(24*100), "resumes were skipped")
		})
	}
}

// SleepResumes counts the resumes of dt seconds that leave a wait not
// over, adding dt one at a time as a waiting body does: a wait is over
// once the time slept is within 1e-9 s of its length. It counts at most
// 255, and none for a dt that is not positive. AddSleeps adds n resumes
// of dt one at a time.
func TestSleepResumesCountsTheResumesThatLeaveTheWaitNotOver(t *testing.T) {
	tests := []struct {
		name                string
		slept, sleepFor, dt float64
		want                int
	}{
		{"a second in quarters", 0, 1, 0.25, 3},
		{"half slept", 0.5, 1, 0.25, 1},
		{"over within the tolerance", 0, 1 + 5e-10, 0.25, 3},
		{"over exactly at the tolerance", 0, 1 + 1e-9, 0.25, 3},
		{"past the tolerance", 0, 1 + 2e-9, 0.25, 4},
		{"already over", 1, 1, 0.25, 0},
		{"the first resume ends it", 0, 0.1, 0.25, 0},
		{"at most 255", 0, 1000, 0.1, 255},
		{"no time", 0, 1, 0, 0},
		{"negative dt", 0, 1, -0.25, 0},
		{"NaN dt", 0, 1, math.NaN(), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, SleepResumes(tc.slept, tc.sleepFor, tc.dt))
		})
	}
	assert.Equal(t, 0.30000000000000004, AddSleeps(0, 3, 0.1), "0.1 added one at a time, as three resumes would")
	assert.Equal(t, 0.5, AddSleeps(0.5, 0, 0.25))
	assert.Equal(t, 1.25, AddSleeps(0.5, 3, 0.25))
}

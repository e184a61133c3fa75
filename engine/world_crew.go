package engine

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/moonmind-ai/moonmind/internal/ticktrace"
)

// crewSpin is how long a helper goroutine that is done with a tick's
// lanes spins for the next tick before it ends, and crewWait how long the
// caller spins for the helpers' last lane before it blocks; both only
// when ticks come back to back (the last one ended less than crewSpin
// before this one began) and the process has more than one P
// (GOMAXPROCS). A game that ticks once a frame leaves its ticks
// 16 ms apart at 60 frames a second: then no goroutine spins (a helper
// is started for the tick and ends with its lanes; the caller blocks for
// the helpers' lanes).
const (
	crewSpin = 200 * time.Microsecond
	crewWait = 300 * time.Microsecond
)

// laneCrew is a world's helper goroutines for more than one worker
// (runLanes). Starting a goroutine waits for the runtime to wake a parked
// thread on another core: 100-150 µs once a tick on the 2-core machine of
// bench/ (BenchmarkHostWake), the time the helper's lane starts late.
// When ticks come back to back, a helper that is done spins for the next
// tick instead of ending (at most crewSpin), so the next tick's lanes
// start at once on both cores.
type laneCrew struct {
	job     atomic.Pointer[laneJob] // the last tick's lanes: a new one sets the spinning helpers going
	alive   atomic.Int32            // helpers started and not ended
	wake    chan struct{}           // the caller blocks here for the last lane (laneJob.waiting)
	lastEnd time.Time               // when the caller's last runLanes ended (the caller's only)
}

// laneJob is one tick's lanes, shared by the caller and the helpers. It
// is made for each tick and not changed once published (but for its
// counters), so a helper still looking at the last tick's job reads
// nothing that the next tick writes.
type laneJob struct {
	w       *World
	crew    *laneCrew
	phase   uint8 // phaseTick or phaseLevels: what a lane does
	dt      float64
	lanes   int32
	hot     bool         // ticks come back to back: spin (crewSpin, crewWait)
	next    atomic.Int32 // the next lane to claim
	left    atomic.Int32 // the lanes claimed or not that are not done
	waiting atomic.Bool  // the caller blocks on crew.wake for the last lane

	mu       sync.Mutex // guards failed and panicked
	failed   int32      // the lowest lane that panicked, with panicked its value; -1 when none
	panicked any
}

// runLanes ticks the lanes of more than one worker: the caller's
// goroutine and up to lanes-1 helpers tick them. Each lane is taken whole
// by the first goroutine to claim it, in lane order, so the caller (or a
// helper spinning for this tick) starts the first lane at once, and the
// caller takes the others itself when no helper has claimed them by the
// time it is done (a helper started for this tick runs only once a
// thread has woken for it). Which goroutine ticks
// a lane changes nothing but the wall time: a lane's agents tick in order
// on one goroutine, and the records are handed on in agent order
// (handOn). With ticks back to back the helpers outlive the tick, by at
// most crewSpin each (laneCrew).
func (w *World) runLanes(dt float64, lanes int) { w.runPhase(dt, lanes, phaseTick) }

// The phases of a tick that run on the workers, lane by lane.
const (
	phaseTick   uint8 = iota // tick the lane's agents (tickLaneOf)
	phaseLevels              // the level of detail of the lane's agents (levelsOfLane)
)

// runPhase is runLanes for one phase of the tick: each lane is ticked,
// or its agents' levels of detail chosen.
func (w *World) runPhase(dt float64, lanes int, phase uint8) {
	c := w.crew
	if c == nil {
		c = &laneCrew{wake: make(chan struct{}, 1)}
		w.crew = c
	}
	start := time.Now()
	// With one P (GOMAXPROCS 1) a spinning goroutine only keeps the
	// other from running, so nothing spins then.
	j := &laneJob{w: w, crew: c, phase: phase, dt: dt, lanes: int32(lanes),
		hot: !c.lastEnd.IsZero() && start.Sub(c.lastEnd) < crewSpin && runtime.GOMAXPROCS(0) > 1}
	j.left.Store(int32(lanes))
	j.failed = -1
	c.job.Store(j)
	// A helper that ends now, after this count, still runs this job
	// (help), so none goes unclaimed for want of a helper.
	for n := c.alive.Load(); n < int32(lanes-1); n++ {
		c.alive.Add(1)
		go c.help(j)
	}
	j.run()
	if j.left.Load() != 0 && j.hot {
		spinFor(crewWait, func() bool { return j.left.Load() == 0 })
	}
	if j.left.Load() != 0 {
		// Block; exactly one of the caller and the helper that ends the
		// last lane sees waiting still set, and only a helper sends.
		j.waiting.Store(true)
		if j.left.Load() != 0 || !j.waiting.Swap(false) {
			<-c.wake
		}
	}
	c.lastEnd = time.Now()
	if j.failed >= 0 {
		// A task panicked in a lane: Tick panics on the caller's
		// goroutine, as on one worker, once no lane runs.
		panic(j.panicked)
	}
}

// help is a helper goroutine: it ticks lanes of job j, then, while ticks
// come back to back, of the next jobs, and ends when none came within
// crewSpin, or when it woke the blocked caller (which then runs on its
// thread: spinning on would keep the caller waiting for a core).
func (c *laneCrew) help(j *laneJob) {
	counted := true // still among the alive
	defer func() {
		if counted { // a task's runtime.Goexit ends the helper here
			c.alive.Add(-1)
		}
	}()
	for !j.run() && j.hot {
		n := c.await(j)
		if n == nil {
			break
		}
		j = n
	}
	counted = false
	c.alive.Add(-1)
	// A tick may have been published after the last look and counted
	// this helper among the alive: take its lanes too (claims are
	// atomic, so a lane taken by another goroutine is not ticked twice).
	if n := c.job.Load(); n != j {
		n.run()
	}
}

// await spins until a job other than j is published and returns it, or
// returns nil after crewSpin.
func (c *laneCrew) await(j *laneJob) *laneJob {
	var n *laneJob
	if !spinFor(crewSpin, func() bool { n = c.job.Load(); return n != j }) {
		return nil
	}
	return n
}

// spinFor calls done until it reports true, for at most limit (the clock
// is read every 64 calls), and reports whether it did.
func spinFor(limit time.Duration, done func() bool) bool {
	start := time.Now()
	for i := 1; !done(); i++ {
		if i%64 == 0 && time.Since(start) > limit {
			return false
		}
	}
	return true
}

// run ticks lanes of the job until none is left to claim. It reports
// whether it ended the last lane while the caller was blocked, and woke
// it.
func (j *laneJob) run() (woke bool) {
	w := j.w
	for {
		k := int(j.next.Add(1)) - 1
		if k >= int(j.lanes) {
			return woke
		}
		if j.tick(w, k) {
			woke = true
		}
	}
}

// errLaneGoexit is what Tick panics with when a task called
// runtime.Goexit (testing's t.FailNow, say) in a lane a helper goroutine
// ticked: on one worker that ends the goroutine that called Tick, which a
// helper cannot do for it.
var errLaneGoexit = errors.New("engine: a task called runtime.Goexit in a lane a helper goroutine ticked (see World.Workers)")

// tick ticks lane k and counts it done, waking the blocked caller when it
// was the last (it reports whether it did). A panic in it (a Go task's)
// ends the lane, not the goroutine: it is kept for the caller to panic
// with (runLanes), the lowest lane's when several panic, and the lane
// counts as done. On a helper the panic would end the process, with no
// way for the game to recover it as it can on one worker. A
// runtime.Goexit in it counts the lane done too, so the caller does not
// wait for it forever, and is kept as errLaneGoexit.
func (j *laneJob) tick(w *World, k int) (woke bool) {
	finished := false
	defer func() {
		p := recover()
		if p == nil && !finished {
			p = errLaneGoexit // runtime.Goexit: nothing to recover, the goroutine ends
		}
		if p != nil {
			j.mu.Lock()
			if j.failed < 0 || int32(k) < j.failed {
				j.failed, j.panicked = int32(k), p
			}
			j.mu.Unlock()
		}
		if j.left.Add(-1) == 0 && j.waiting.Swap(false) {
			j.crew.wake <- struct{}{}
			woke = true
		}
	}()
	if j.phase == phaseLevels {
		w.levelsOfLane(k)
		finished = true
		return false
	}
	ticktrace.Lane(k, false)
	w.tickLaneOf(k, j.dt)
	ticktrace.Lane(k, true)
	finished = true
	return false
}

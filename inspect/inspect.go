package inspect

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Options configure an Inspector. The zero value reads only, answers only
// this machine (loopback), and waits up to 2 s for a world to reach a point
// between ticks.
type Options struct {
	// Control enables pause, one tick, resume, breakpoints, setting a
	// paused agent's state and hot reload. Off by default: the inspector
	// then only reads.
	Control bool
	// Token, when set, is required on every request: as the header
	// "Authorization: Bearer TOKEN", as ?token=TOKEN (the page keeps it in
	// a cookie), or in that cookie. Without a token, requests that do not
	// come from a loopback address are refused.
	Token string
	// Reload, when set and Control is on, is what the page's reload button
	// does for a world: typically luabind's Runtime.Reload of the role
	// files, called between ticks on the goroutine that ticks the world. It
	// returns a line to show (how many agents were updated) or an error.
	Reload func(world string, w *engine.World) (string, error)
	// Wait is how long a request waits for its world to reach a point
	// between ticks before it fails with 504. The default (zero) value is
	// 2 s.
	Wait time.Duration
	// Queue is how many requests may wait for one world; more are refused
	// with 503 and counted. The default (zero) value is 64.
	Queue int
	// History is how many ticks of a watched agent's state and decision
	// the inspector keeps for time travel (an agent is watched while a
	// page shows it, and for 10 s after its last request). The default
	// (zero) value is 600.
	History int
	// PushEvery is the shortest wall time between two live updates of one
	// page; a paused world still pushes every tick stepped. The default
	// (zero) value is 50 ms.
	PushEvery time.Duration
}

// Inspector serves the inspector page and its JSON API for the worlds
// attached to it. Its methods are safe for concurrent use, except that
// Tick, AfterTick and Idle for one world must be called from the
// goroutine that ticks that world.
type Inspector struct {
	opts   Options
	mu     sync.Mutex
	worlds []*attached
	byW    map[*engine.World]*attached
}

// New returns an Inspector with no world attached.
func New(opts Options) *Inspector {
	if opts.Wait <= 0 {
		opts.Wait = 2 * time.Second
	}
	if opts.Queue <= 0 {
		opts.Queue = 64
	}
	if opts.History <= 0 {
		opts.History = 600
	}
	if opts.PushEvery <= 0 {
		opts.PushEvery = 50 * time.Millisecond
	}
	return &Inspector{opts: opts, byW: map[*engine.World]*attached{}}
}

// Attach shows w under name (unique among the attached worlds; a name used
// already is an error). From then on the game ticks w with Tick, or calls
// AfterTick after its own w.Tick, so that requests are answered.
func (i *Inspector) Attach(name string, w *engine.World) error {
	if w == nil {
		return errors.New("inspect: Attach of a nil world")
	}
	return i.add(&attached{name: name, w: w, reqs: make(chan *request, i.opts.Queue), opts: &i.opts})
}

// AttachTrace shows the records of a trace (as engine.WriteJSONLines
// writes them, read back) under name, as a world that does not tick: its
// agents, their records and their time travel, rebuilt from the records.
func (i *Inspector) AttachTrace(name string, records []record.Event) error {
	return i.add(&attached{name: name, trace: newTrace(records), opts: &i.opts})
}

func (i *Inspector) add(a *attached) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	for _, o := range i.worlds {
		if o.name == a.name {
			return fmt.Errorf("inspect: a world named %q is attached already", a.name)
		}
	}
	if a.w != nil {
		if o := i.byW[a.w]; o != nil {
			return fmt.Errorf("inspect: the world is attached already, as %q", o.name)
		}
		i.byW[a.w] = a
	}
	a.watch = map[string]*watched{}
	a.explain = map[*engine.Domain]*engine.UtilityPlanner{}
	i.worlds = append(i.worlds, a)
	return nil
}

// Detach stops showing w. Requests still waiting for it fail. Call it on
// the goroutine that ticks w.
func (i *Inspector) Detach(w *engine.World) {
	i.mu.Lock()
	a := i.byW[w]
	delete(i.byW, w)
	for k, o := range i.worlds {
		if o == a {
			i.worlds = append(i.worlds[:k:k], i.worlds[k+1:]...)
		}
	}
	i.mu.Unlock()
	if a != nil {
		a.untap()
		a.detached.Store(true)
		a.serve()
	}
}

func (i *Inspector) of(w *engine.World) *attached {
	i.mu.Lock()
	a := i.byW[w]
	i.mu.Unlock()
	return a
}

func (i *Inspector) named(name string) *attached {
	i.mu.Lock()
	defer i.mu.Unlock()
	for _, a := range i.worlds {
		if a.name == name {
			return a
		}
	}
	return nil
}

func (i *Inspector) all() []*attached {
	i.mu.Lock()
	defer i.mu.Unlock()
	return append([]*attached(nil), i.worlds...)
}

// Tick ticks w by dt seconds unless the inspector paused it, and answers
// the requests that wait for it before and after the tick. It reports
// whether w ticked: while paused it does not, except once per step asked
// for. A world that is not attached just ticks. Call it from the
// goroutine that ticks w, in place of w.Tick.
func (i *Inspector) Tick(w *engine.World, dt float64) bool {
	if !i.Ready(w) {
		return false
	}
	w.Tick(dt)
	i.AfterTick(w)
	return true
}

// Ready is for a game whose step does more than w.Tick: it answers the
// requests waiting for w and reports whether the game may tick w now
// (false while the inspector holds it paused, true once per step asked
// for). After the step, call AfterTick:
//
//	if ins.Ready(world) {
//		game.Step(dt) // calls world.Tick(dt)
//		ins.AfterTick(world)
//	}
//
// A world that is not attached is always ready.
func (i *Inspector) Ready(w *engine.World) bool {
	a := i.of(w)
	if a == nil {
		return true
	}
	a.serve()
	return a.mayTick()
}

// AfterTick is called right after w ticked (see Ready): it checks
// breakpoints, keeps the watched agents' history, pushes live updates
// and answers the waiting requests. A game that never asks Ready may call
// it after its own w.Tick to be inspected without pause and step.
func (i *Inspector) AfterTick(w *engine.World) {
	if a := i.of(w); a != nil {
		a.after()
	}
}

// Idle answers the requests waiting for w without ticking it: for a game
// that stops ticking a world but keeps it (a menu, the end of a run).
func (i *Inspector) Idle(w *engine.World) {
	if a := i.of(w); a != nil {
		a.serve()
	}
}

// Paused reports whether the inspector holds w paused (a pause asked
// from the page, or a breakpoint that was hit) with no step pending.
func (i *Inspector) Paused(w *engine.World) bool {
	a := i.of(w)
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.paused && a.steps == 0
}

// request is one read or change of a world that waits to run between
// ticks on the world's goroutine.
type request struct {
	fn   func(a *attached) (any, error)
	done chan reply
}

type reply struct {
	v   any
	err error
}

// errBusy and errLate are the two ways a request to a live world fails
// without reaching it.
var (
	errBusy     = errors.New("inspect: too many requests wait for this world; try again")
	errLate     = errors.New("inspect: the world did not reach a point between ticks in time (is the game calling Tick, AfterTick or Idle?)")
	errDetached = errors.New("inspect: the world was detached")
)

// call runs fn between ticks of a's world, or at once for a trace.
func (a *attached) call(ctx context.Context, fn func(a *attached) (any, error)) (any, error) {
	if a.trace != nil {
		a.tmu.Lock()
		defer a.tmu.Unlock()
		return fn(a)
	}
	if a.detached.Load() {
		return nil, errDetached
	}
	r := &request{fn: fn, done: make(chan reply, 1)}
	select {
	case a.reqs <- r:
	default:
		a.droppedReqs.Add(1)
		return nil, errBusy
	}
	t := time.NewTimer(a.opts.Wait)
	defer t.Stop()
	select {
	case rep := <-r.done:
		return rep.v, rep.err
	case <-t.C:
		return nil, errLate
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// serve answers every request waiting for a's world. It runs on the
// world's goroutine, between ticks.
func (a *attached) serve() {
	for {
		select {
		case r := <-a.reqs:
			if a.detached.Load() {
				r.done <- reply{err: errDetached}
				continue
			}
			v, err := r.fn(a)
			r.done <- reply{v, err}
		default:
			return
		}
	}
}

// busy reports whether anything wants a's world looked at after a tick.
func (a *attached) busy() bool {
	return len(a.reqs) > 0 || a.nsubs.Load() > 0 || a.nwatch.Load() > 0 || a.nbreak.Load() > 0
}

// WorldStatus is what api/worlds says of one world: its clock, its
// agents, whether it is paused and why, its breakpoints, and what the
// inspector dropped.
type WorldStatus struct {
	Name    string  `json:"name"`
	Offline bool    `json:"offline"`
	Tick    int     `json:"tick"`
	Time    float64 `json:"time"`
	Agents  int     `json:"agents"`
	Control bool    `json:"control"`
	Paused  bool    `json:"paused"`
	// Why says why the world is paused: "paused from the page" or the
	// breakpoint that was hit.
	Why string `json:"why,omitempty"`
	// DroppedRequests and DroppedPushes count the requests refused because
	// the queue was full and the live updates a page did not take in time.
	DroppedRequests int64        `json:"droppedRequests"`
	DroppedPushes   int64        `json:"droppedPushes"`
	Breakpoints     []Breakpoint `json:"breakpoints"`
	Reload          bool         `json:"reload"`
}

func (a *attached) statusHere() WorldStatus {
	s := WorldStatus{Name: a.name, Offline: a.trace != nil, Tick: int(a.tick.Load()),
		Agents: int(a.nagents.Load()), Control: a.opts.Control && a.trace == nil,
		DroppedRequests: a.droppedReqs.Load(), DroppedPushes: a.droppedPush.Load(),
		Reload: a.opts.Control && a.opts.Reload != nil && a.trace == nil}
	s.Time = math.Float64frombits(uint64(a.time.Load()))
	if a.trace != nil {
		s.Tick, s.Time, s.Agents = a.trace.lastTick, a.trace.lastTime, len(a.trace.agents)
	}
	a.mu.Lock()
	s.Paused, s.Why = a.paused, a.why
	s.Breakpoints = append([]Breakpoint{}, a.bpList...)
	a.mu.Unlock()
	return s
}

// attached is one world (or trace) the inspector shows.
type attached struct {
	name  string
	w     *engine.World
	trace *trace
	tmu   sync.Mutex // a trace's views, built on demand
	opts  *Options
	reqs  chan *request

	detached atomic.Bool
	// Read by any goroutine, written after each tick.
	tick, time, nagents atomic.Int64
	nsubs, nwatch       atomic.Int32
	nbreak              atomic.Int32
	droppedReqs         atomic.Int64
	droppedPush         atomic.Int64

	// Guarded by mu.
	mu     sync.Mutex
	paused bool
	steps  int
	why    string
	bpList []Breakpoint
	subs   []*subscriber

	// The world's goroutine only.
	watch     map[string]*watched
	explain   map[*engine.Domain]*engine.UtilityPlanner
	bps       []*breakpoint
	nextBP    int
	tapped    bool
	prevEvent func(record.Event)
	hit       string
	lastPush  time.Time
}

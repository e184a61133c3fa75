package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/internal/prefetch"
	"github.com/moonmind-ai/moonmind/internal/ticktrace"
)

// World is the agents of a game and a clock. Tick is the one call a game
// makes each frame. A World is not safe for concurrent use: call Tick from
// one goroutine (it may fan out to Workers goroutines inside).
type World struct {
	Agents []*Agent
	// Time is the game time in seconds since the world started, kept
	// exactly by Tick as the tick count times dt (50 ticks of 0.1 s read
	// 5, not the 4.999999999999998 a running sum gives; see clock). A game
	// may set it; the next Tick counts on from the value set.
	Time  float64
	Ticks int // ticks run so far
	seed  uint64
	// Rand is the world's own random source, seeded from the seed given to NewWorld, for the
	// embedding game; agents have their own (Agent.Rand).
	Rand *rand.Rand
	// Workers is the number of goroutines Tick spreads agents over. The
	// default (zero) value, like 1 or a negative value, ticks every agent
	// on the caller's goroutine. With more, each worker ticks one lane of
	// agents, in agent order: the agents pinned to it (Pin; e.g. to the
	// worker whose Lua runtime loaded the agent's domain), and its share
	// of the others, which are split in agent order into Workers
	// contiguous runs as even as can be (with 2 workers and 10 agents none
	// pinned: agents 0-4 on worker 0, 5-9 on worker 1). An agent that is
	// not pinned may move to another lane when agents are added or
	// removed; which lane ticks an agent changes no decision or record,
	// only the wall time. Tick ticks the lanes on the caller's goroutine
	// and on up to Workers-1 helper goroutines it starts. When ticks come
	// back to back (a Tick whose lanes start less than 200 µs after the
	// last tick's lanes ended), a helper that is done spins up to 200 µs
	// for the next tick rather than ending, and the caller spins up to
	// 300 µs for the helpers' lanes, so that no tick waits for a parked
	// thread to wake; ticks further apart, like a game's
	// once a frame, spin neither. Agents must not touch each other's state
	// from their bodies or sensors while workers run. A panic in an
	// agent's tick (a Go task's, say) ends its lane's tick there, as on
	// one worker; Tick panics with it on the caller's goroutine once every
	// lane is done (with the value of the lowest lane that panicked, when
	// several do), so a game that recovers it finds no goroutine still
	// ticking its agents. A task that calls runtime.Goexit (testing's
	// t.FailNow) ends the goroutine it runs on: on Tick's own, as on one
	// worker; on a helper, its lane's tick ends there and Tick panics with
	// an error saying so, instead of waiting for that lane forever.
	Workers int
	// OnEvent receives every agent's records in a fixed order: by tick,
	// then by agent order, then in the order each agent made them, with
	// any number of workers. Records made while it is nil are not kept
	// for it (they stay in each agent's record.Recorder).
	OnEvent func(record.Event)
	// Timing records planning wall time in events; off by default so
	// traces are reproducible.
	Timing bool
	// PlanBudget is the world's planning budget per tick, in node
	// expansions of the GOAP planner (see docs/semantics.md, "Time-sliced
	// planning"). The default (zero) value, like a negative one, is
	// unlimited: each agent plans in its own tick, as soon as it needs a
	// plan. With a budget, agents that need a plan wait in a queue that
	// Tick serves after every agent has ticked, in round-robin order of
	// agent ID, on the caller's goroutine; a search that runs out of
	// budget is suspended and resumes first in the next tick, and the plan
	// found is the one an unsliced search finds. A plan found in tick t
	// starts in tick t+1; the agent idles until then (an agent whose plan
	// runs keeps running it). At most one search is suspended at a time,
	// holding one planner's buffers (bounded by Planner.Budget). The
	// searches that explain a failure are counted and suspended the same
	// way, so no tick spends more than the budget (see PlanExpansions).
	// Custom planner handles (SetPlannerHandle) are not counted.
	PlanBudget int

	queue planQueue // the plan budget's queue (world_slice.go)

	// LOD is the world's level of detail: how often each agent thinks
	// (world_lod.go). The zero value is off: every agent ticks every tick.
	LOD LOD
	lod lodLanes // this tick's thinkers, when LOD is on (world_lod.go)

	worker []int
	// lanesStale is set when an agent is added, removed or pinned: the
	// lanes of more than one worker are made again at the next tick
	// (makeLanes), not every tick.
	lanesStale bool
	lanesOf    int               // the number of agents the lanes were made for
	lanes      [][]int32         // per worker: the indexes of its agents this tick (makeLanes)
	hints      [][]uint8         // per worker: per place in its lane, the prefetch hint of the agent there, then allOwn or 0 (see tickLane)
	busy       [][]int32         // per worker: the indexes of its agents with records or tells to hand on (tickLane)
	merged     []int32           // the busy lists merged, in agent order (handOn)
	heads      []int             // scratch for the merge: per busy list, the next index
	nextID     int               // the ID the next added agent gets; IDs are never reused
	byName     map[string]*Agent // for Agent and Tell
	src        randSource        // the Rand that NewWorld made and its source, for Snapshot
	clock      clock             // keeps Time exactly from the tick count
	crew       *laneCrew         // the helper goroutines of more than one worker (world_crew.go)
	// ticking is true while Tick runs: Add and Remove then queue their
	// change in later (under laterMu, since bodies on any worker may call
	// them), and Tick makes the changes when it ends.
	ticking bool
	laterMu sync.Mutex
	later   []worldChange
	groups  []*Group  // the world's groups, in the order made (group.go)
	objects []*Object // the world's smart objects, in the order added (object.go)
	// ObjectCost, when set, is what claiming object o costs agent a (a
	// distance, say): a step that uses a kind of object claims the
	// cheapest one it may. Nil means every object costs the same, and
	// the one added first is claimed. It is called on the goroutine that
	// ticks a, while other agents tick: it must only read.
	ObjectCost func(a *Agent, o *Object) float64
}

// NewWorld returns an empty world with the given seed.
func NewWorld(seed uint64) *World {
	src := newRandSource(seed, 0x9e3779b97f4a7c15)
	return &World{seed: seed, Rand: src.r, src: src}
}

// Add adds an agent: it ticks after the agents added before it, its ID is
// the number of agents added before it (0, 1, 2, ...; an ID is never given
// again after a Remove), and its random source is seeded from the world's
// seed and its ID.
//
// Add panics when the agent is already in a world (this one or another):
// Remove it first.
//
// Called during Tick (from a body, a sensor or a host method, on any
// worker), Add waits for the tick to end: the agent joins after the tick's
// last agent and its first tick is the next one. An agent that must run on
// one worker (a Lua agent, on its runtime's) is pinned after that Tick
// returns, with its index in Agents then.
func (w *World) Add(a *Agent) {
	if a == nil {
		panic("engine: World.Add: nil agent")
	}
	if a.world != nil {
		panic(alreadyInWorld(a))
	}
	if w.ticking {
		w.laterMu.Lock()
		w.later = append(w.later, worldChange{a: a, add: true})
		w.laterMu.Unlock()
		return
	}
	w.adopt(a)
	a.src = newRandSource(w.seed, uint64(a.ID)+1)
	a.Rand = a.src.r
}

// adopt adds an agent keeping its random source (Add, which has checked
// that the agent is in no world, and the new agents of a
// snapshot).
func (w *World) adopt(a *Agent) {
	a.ID = w.nextID
	w.nextID++
	a.buffered = true
	a.world = w
	if w.byName == nil {
		w.byName = map[string]*Agent{}
	}
	if w.byName[a.Name] == nil {
		w.byName[a.Name] = a
	}
	w.lodJoin(a)
	w.Agents = append(w.Agents, a)
	w.worker = append(w.worker, -1)
	w.lanesStale = true
}

// Remove takes an agent out of the world (a dead NPC): it ticks no more
// and the agents after it move up one place, keeping their order, their
// IDs and their workers. It reports whether the agent was in the world.
// Its pending records are still delivered at the end of the current tick.
//
// Called during Tick (a dead NPC's own body or host method, on any
// worker), Remove waits for the tick to end: every agent the tick started
// with finishes its tick, and the agent leaves the world after it, with
// the changes asked for before it. It still reports whether the agent is
// in the world. When other agents share its name, World.Agent (and Tell)
// then finds the first of them that is left.
func (w *World) Remove(a *Agent) bool {
	if w.ticking {
		for _, x := range w.Agents {
			if x == a {
				w.laterMu.Lock()
				w.later = append(w.later, worldChange{a: a})
				w.laterMu.Unlock()
				return true
			}
		}
		return false
	}
	for i, x := range w.Agents {
		if x != a {
			continue
		}
		w.flush(a)
		a.dropJob()
		w.leaveGroups(a)
		w.dropClaim(a)
		a.world = nil
		w.lodLeave(a, i)
		w.Agents = append(w.Agents[:i], w.Agents[i+1:]...)
		w.worker = append(w.worker[:i], w.worker[i+1:]...)
		if w.byName[a.Name] == a {
			// The name goes to the next agent that has it (a respawned
			// NPC added before the dead one left), else it is free.
			delete(w.byName, a.Name)
			for _, x := range w.Agents {
				if x.Name == a.Name {
					w.byName[a.Name] = x
					break
				}
			}
		}
		w.lanesStale = true
		return true
	}
	return false
}

// flush hands the agent's buffered records to OnEvent, in the order the
// agent made them, and empties the buffer. It is the one place records
// leave a world's agents.
func (w *World) flush(a *Agent) {
	if w.OnEvent != nil {
		for _, e := range a.pending {
			w.OnEvent(e)
		}
	}
	a.pending = a.pending[:0]
}

// Pin puts agent i (its index in Agents) on worker k mod Workers; a
// negative k leaves it to Tick's default lanes again (see Workers). Pin
// agents that share a worker in runs of neighbours in Agents, as the
// default lanes are: best add them one after the other. Every Agent is
// its own allocation, so agents added one after another lie side by side
// in memory, and a worker whose agents alternate with another worker's
// reads its agents spread over twice the memory: with 10,000 soldiers on
// 2 workers, pinning the first 5,000 to worker 0 and the rest to worker 1
// took 7% (Lua bodies) and 13% (Go bodies) less CPU per agent-tick than
// pinning agent i to worker i mod 2 (see docs/performance.md, "Agents
// pinned in blocks").
// Pin panics when there is no agent i.
func (w *World) Pin(i, k int) {
	if i < 0 || i >= len(w.worker) {
		panic(fmt.Sprintf("engine: World.Pin: no agent %d (the world has %d agents)", i, len(w.worker)))
	}
	w.worker[i], w.lanesStale = k, true
}

// makeLanes sorts the agents' indexes into one lane per worker, in agent
// order (one lane of every agent on one worker): the pinned agents to
// their workers, the others in contiguous runs (see Workers). The lanes,
// and their prefetch hints, are the world's, reused from tick to tick: they are
// made again only when the number of workers or of agents changed, or an
// agent was added, removed or pinned since (lanesStale). Sorting 10,000
// agents took about 55 µs of every tick on 2 workers, all of it on the
// caller's goroutine before the workers start.
func (w *World) makeLanes() {
	k := max(1, w.Workers)
	if len(w.lanes) != k {
		w.lanes, w.hints = make([][]int32, k), make([][]uint8, k)
		w.lanesStale = true
	}
	if k == 1 {
		// Agent order: rebuilt only when the number of agents changed
		// (a Remove keeps the indexes 0..n-1).
		if l := w.lanes[0]; len(l) != len(w.Agents) {
			l = l[:0]
			for i := range w.Agents {
				l = append(l, int32(i))
			}
			w.lanes[0] = l
		}
	} else if w.lanesStale || w.lanesOf != len(w.Agents) {
		w.lanesStale, w.lanesOf = false, len(w.Agents)
		for k := range w.lanes {
			w.lanes[k] = w.lanes[k][:0]
		}
		free := 0 // the agents no Pin put on a worker
		for _, k := range w.worker {
			if k < 0 {
				free++
			}
		}
		j := 0 // the place of agent i among the free ones
		for i, k := range w.worker {
			if k >= 0 {
				k %= w.Workers
			} else {
				k, j = j*w.Workers/free, j+1
			}
			w.lanes[k] = append(w.lanes[k], int32(i))
		}
	}
	for k, l := range w.lanes {
		// A hint that no longer matches its agent (the lanes moved) only
		// prefetches the wrong lines once: the agent's tick sets it again.
		if h := w.hints[k]; len(h) != len(l)+1 {
			w.hints[k] = append(h[:0], make([]uint8, len(l)+1)...)
		}
	}
}

// How far ahead tickLane prefetches an agent's struct, and its states
// when they lie elsewhere (which need the struct, for their address).
// States in the agent's stateBuf go with the struct (see prefetchHint);
// states held elsewhere go with their first line at aheadStates+1 and the
// rest one agent later: the prefetches of a page that is not in the TLB
// yet mostly come to nothing, and the one line makes the processor walk
// the page table in time for the others. Measured with 10,000 soldiers
// (BenchmarkWorldTickGoBodies): at 4 and 2 agents ahead, touchStates's
// read of the agent's first line still waited for it (6-7% of the
// profile); at 8 and 4, 1%; 12 and 6 and 16 and 8 read alike within the
// noise.
const aheadAgent, aheadStates = 12, 6

// aheadGroup is how many agents' structs tickLane prefetches in one call
// (prefetch.Indexed), every aheadGroup agents: agents aheadAgent to
// aheadAgent+aheadGroup-1 ahead. Measured with 10,000 soldiers
// (BenchmarkWorldTickGoBodies, 1 worker, 8 interleaved runs): groups
// of 4 made 8 fewer instructions per agent-tick than one agent per call,
// but cost 28% more CPU time (136 against 106 ns per agent-tick): 44
// prefetches at once filled the line-fill buffers, and the tick waited.
// With the current layout of 6 lines an agent, groups of 2, 12
// prefetches at once, make 22 fewer instructions per agent-tick than one
// agent per call and the same CPU time (10 interleaved runs, 1 and 2
// workers: 93 against 95 ns and 111 against 99 ns, p = 0.97 and 0.39).
const aheadGroup = 2

// tickLane ticks the agents whose indexes are in lane, in order, and
// returns busy with the indexes of those that have records or told
// beliefs to hand on after the tick appended. While one agent ticks, the
// parts of the next ones that a tick reads are prefetched: with thousands
// of agents none of them is still in the cache from the previous tick,
// and waiting for memory was most of a tick's time. hints holds, per
// place in the lane, what the agent there needs prefetched (prefetchHint,
// set after its tick for the next one), so that the prefetches read
// nothing of the agents themselves (aheadGroup agents a call); the
// hint after the lane's last is allOwn when no agent's states lay apart
// at the last tick, and the states' own prefetches are not looked for.
// Tasks that are Warmers and will be resumed are warmed a step or two
// ahead of their agent's tick (laneWarmer, agent_warm.go).
//
// dts, when not nil (a level of detail is set, World.LOD), holds per place
// in the lane the dt that agent ticks with: the game time since it last
// thought.
func tickLane(agents []*Agent, lane []int32, hints []uint8, timing bool, dt float64, dts []float64, busy []int32) []int32 {
	n := len(lane)
	r := laneRun{agents: agents, lane: lane, hints: hints[:n+1], busy: busy, dt: dt, dts: dts, timing: timing}
	r.apart = r.hints[n] != allOwn // some agent's states may lie apart (or its hint is not known)
	for j := 0; j < len(r.lane); j++ {
		if k := j + warmAhead; k < len(r.lane) {
			r.warm.next(j, r.agents[r.lane[k]])
			if r.dts != nil {
				rethinkAhead(r.agents[r.lane[k]], r.dts[k])
			}
		} else {
			r.warm.next(j, &noWarmer)
		}
		if k := j + aheadAgent; j%aheadGroup == 0 && k < len(r.lane) {
			// The agent (or group) aheadAgent on.
			e := min(k+aheadGroup, len(r.lane))
			prefetch.Indexed(r.agents, r.lane[k:e], r.hints[k:e], hotTo)
		}
		if r.apart {
			if k := j + aheadStates + 1; k < len(r.lane) && statesApart(r.hints[k]) {
				touchStates(r.agents[r.lane[k]])
			}
			if k := j + aheadStates; k < len(r.lane) && statesApart(r.hints[k]) {
				prefetchStates(r.agents[r.lane[k]])
			}
		}
		a := r.agents[r.lane[j]]
		a.Timing = r.timing
		if r.dts == nil {
			a.Tick(r.dt)
		} else {
			a.Tick(r.dts[j])
		}
		h := prefetchHint(a)
		r.hints[j] = h
		r.all |= h
		if a.handOn { // set when a record or a told belief is added
			a.handOn = false
			r.busy = append(r.busy, r.lane[j])
		}
	}
	r.hints[n] = 0
	if r.all&hintApart == 0 {
		r.hints[n] = allOwn
	}
	return r.busy
}

// laneRun is tickLane's loop state. It stays in memory, at its uses (the
// compiler keeps a struct of more than four fields out of registers), so
// that the calls the loop makes for every agent (its Tick, the prefetches,
// the warmer's) spill and reload the agent's place and not a dozen values
// each: that was some 25 instructions of every agent-tick.
type laneRun struct {
	agents []*Agent
	lane   []int32
	hints  []uint8 // the lane's, and one after (see tickLane)
	busy   []int32
	dt     float64
	dts    []float64 // per place, when a level of detail is set (see tickLane)
	timing bool
	apart  bool  // some agent's states may lie apart (or its hint is not known)
	all    uint8 // the hints of this tick, or-ed
	warm   laneWarmer
}

// Tick advances every agent by dt seconds (dt > 0), then the clock, and
// hands the tick's records to OnEvent. A dt that is not a finite number
// >= 0 (NaN from a frame timer's 0/0, an infinity, a negative step of a
// clock that jumped back) counts as 0: the agents tick and the clock
// stands still, rather than every clock turning NaN for good or running
// bodies losing time.
func (w *World) Tick(dt float64) {
	if !(dt >= 0 && dt <= math.MaxFloat64) {
		dt = 0
	}
	w.ticking = true
	defer w.endTick()
	ticktrace.Mark(0)
	lanes := max(1, w.Workers)
	if len(w.busy) != lanes {
		w.busy = make([][]int32, lanes)
	}
	w.makeLanes()
	w.lod.use = false
	if w.LOD.Level != nil || w.lod.on {
		w.thinkers(dt)
	}
	ticktrace.Mark(1)
	if lanes == 1 {
		ticktrace.Lane(0, false)
		w.tickLaneOf(0, dt)
		ticktrace.Lane(0, true)
	} else {
		w.runLanes(dt, lanes)
	}
	ticktrace.Mark(2)
	w.servePlans()
	ticktrace.Mark(3)
	if w.PlanBudget > 0 {
		// The queue's services make records too: hand on every agent's.
		for _, a := range w.Agents {
			w.flush(a)
		}
		w.deliverTells()
	} else {
		w.handOn()
	}
	if len(w.groups) > 0 {
		w.syncGroups()
	}
	if len(w.objects) > 0 {
		w.syncObjects()
	}
	ticktrace.Mark(4)
	w.Ticks++
	if w.Time != w.clock.now() { // set by the game (or a restore): count on from there
		w.clock = clock{base: w.Time}
	}
	w.Time = w.clock.advance(dt)
	ticktrace.Mark(7)
}

// alreadyInWorld is Add's panic for an agent that is in a world: it would
// tick twice a tick (on two workers at once).
func alreadyInWorld(a *Agent) string {
	return fmt.Sprintf("engine: World.Add: agent %q is already in a world (Remove it first)", a.Name)
}

// worldChange is an Add (add true) or Remove asked for during Tick.
type worldChange struct {
	a   *Agent
	add bool
}

// endTick ends Tick (also when an agent's tick panicked): the Adds and
// Removes asked for during the tick are made now, in the order asked.
func (w *World) endTick() {
	w.ticking = false
	if len(w.later) == 0 {
		return
	}
	later := w.later
	w.later = nil
	for _, c := range later {
		if c.add {
			w.Add(c.a)
		} else {
			w.Remove(c.a)
		}
	}
}

// handOn hands on the tick's records and told beliefs, as flush and
// deliverTells do for every agent, but only for the agents that have some
// (the busy lists of tickLane, merged into agent order): the others'
// buffers are empty, and reading them would fetch every agent from memory
// once more.
func (w *World) handOn() {
	order := w.busy[0]
	if len(w.busy) > 1 {
		order = w.merged[:0]
		if len(w.heads) != len(w.busy) {
			w.heads = make([]int, len(w.busy))
		}
		clear(w.heads)
		for {
			best := -1
			for k, l := range w.busy {
				if h := w.heads[k]; h < len(l) && (best < 0 || l[h] < w.busy[best][w.heads[best]]) {
					best = k
				}
			}
			if best < 0 {
				break
			}
			order = append(order, w.busy[best][w.heads[best]])
			w.heads[best]++
		}
		w.merged = order
	}
	for _, i := range order {
		w.flush(w.Agents[i])
	}
	for _, i := range order {
		w.deliverTellsOf(w.Agents[i])
	}
}

// Finish ends a run: each agent records its summary line (record.EventSummary,
// status RUNNING, IDLE or STUCK), which reaches OnEvent. The summary
// carries the agent's last tick and that tick's time, as the tick's other
// records do (after 50 ticks of 0.1 s: tick 50, 4.9 s), not the time the
// clock has moved on to. An agent is IDLE when it runs no action, has no
// plan left and its reactive layer, if it has one with a Busy method, is
// not busy.
func (w *World) Finish() {
	for _, a := range w.Agents {
		status := "RUNNING"
		switch {
		case a.stuck:
			status = "STUCK"
		case a.task == nil && a.step >= len(a.plan) && !a.reactiveBusy():
			status = "IDLE"
		}
		now := a.time
		if t, ok := a.clock.last(); ok {
			a.time = t
		}
		a.emit(record.Event{Kind: record.EventSummary, Reason: a.Recorder.Summary(status)})
		a.time = now
		w.flush(a)
	}
}

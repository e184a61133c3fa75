package engine

import (
	"math/rand/v2"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Agent defaults.
const (
	defaultRetryDelay = 1.0  // seconds a failed action is backed off
	defaultStuckAfter = 10.0 // seconds without progress before STUCK
	DefaultCommitment = 0.1  // utility lead a new pick needs over the running one
	// defaultRethinkEvery is how often a running utility pick is scored
	// again: 0.1 s, six ticks at 60 per second.
	defaultRethinkEvery = 0.1
)

// Agent is one NPC: a domain (its merged roles), its own state, and the
// plan and action body it is running. Tick advances it by one game tick.
//
// How an agent decides (Domain.Decide, the role's decide field):
//   - "goap" (the default): the highest-priority unsatisfied goal that has
//     a plan is pursued with the GOAP planner; goals without a plan are
//     skipped (and asked again when the state changes).
//   - "utility": the utility planner picks the best applicable action, one
//     at a time; goals are ignored.
//   - "hybrid": goals first, as "goap"; when no unsatisfied goal has a plan,
//     the utility planner picks. While a picked action runs, the agent
//     re-scores it every RethinkEvery seconds and switches when another
//     action leads by more than Commitment; a goal that becomes unsatisfied
//     and has a plan interrupts a pick.
//
// Replanning. The agent plans when it has no plan or its plan is done; it
// drops its plan (record.EventReplan) when the next step's precondition no longer
// holds, and interrupts the running step (record.EventInterrupt, the body's
// on_interrupt runs) when the world, not the body itself, made the running
// step's precondition false (it held after the body's last resume and does
// not hold now), when a goal of higher priority than the current one
// becomes unsatisfied and has a plan, or when the utility pick changes
// beyond Commitment. The whole plan is watched too (see watchPlan): when
// the world changes a variable the rest of the plan reads, a goal the
// world achieved interrupts the running step, and a later step that can
// no longer run, or a rest whose end no longer satisfies the goal, makes
// the agent replan at once (going on without a
// restart when the new plan begins with the running action). The new plan
// starts in the same tick. A body is
// resumed at most once per tick. Under a world's plan budget
// (World.PlanBudget) the agent's plans, its higher-goal checks and the
// plan watch's replanning are made by the world's queue after the tick
// instead, and a new plan starts the tick after it is found (docs/semantics.md, "Time-sliced planning").
//
// Back-off. A failed action is excluded from plans for RetryDelay seconds,
// then tried again. An action that finishes with a broken promise (its
// effects or promised conditions not met) twice in a row is backed off
// the same way. An agent that found no plan asks again only when a
// variable its planning reads changes or a back-off ends, so it never
// thrashes.
//
// Stuck. An agent with an unsatisfied goal that finishes no action (with
// its promise kept) for StuckAfter seconds is marked STUCK (record.EventStuck plus a summary line); it
// recovers (record.EventRecovered) at its next finished action or when every goal
// is satisfied.
//
// An Agent is not safe for concurrent use; a World ticks each agent from
// one goroutine at a time.
type Agent struct {
	// The fields a tick of a waiting body reads come first, together, in
	// the first 152 bytes (see TestAgentHotFieldsComeFirst), and State and
	// post follow them in stateBuf when they fit: a tick of an agent
	// touches few cache lines (World.Tick prefetches them, see
	// tickLane), which matters since with 10,000 agents nothing of an
	// agent is still in the cache from its previous tick. With the
	// allocator's 8-byte header before an object of this size, the hot
	// fields and a 7-variable state and its post fill 6 lines exactly (2.5
	// of fields, 3.5 of states). Fields read only when something happens
	// (a resume, a record, a decision, a re-score) lie after them.
	Domain *Domain
	State  expr.State
	task   Task
	// Timing records planning wall time in events (record.Event.Duration). Off by
	// default so traces are reproducible.
	Timing bool
	picked bool // the current plan is a utility pick
	stuck  bool
	// progGoal is what checkProgress found last: 1 when every goal was
	// satisfied, 2+i when ByPrio[i] was the first unsatisfied one, 0 when
	// not known (see checkProgress).
	progGoal uint8
	marks    uint8 // markTold, markLayer, markWarmer, markInTick, markSwap: what the tick would otherwise read from colder fields
	handOn   bool  // pending or rx.outbox may have entries for the world to hand on (see tickLane)
	asleep   uint8 // a Sleeper's resumes left to skip, plus one; 0 when none (agent_sleep.go)
	// postN is len(post) when post lies in stateBuf, at stateBuf[postN:2*postN]
	// (see makeStates and postState), else 0: the tick finds post without
	// reading its slice header, which lies among the colder fields.
	postN uint8
	tick  int
	time  float64
	clock clock // keeps time exactly from the tick count
	// StuckAfter is how long, in seconds, an agent may make no progress
	// before it is marked STUCK. The default (zero) value is
	// 10 s; a negative value turns detection off.
	StuckAfter float64
	lastProg   float64
	// rethinkAt is when a running pick is next scored again.
	rethinkAt float64
	// sinceRescore is the slots that may differ from the state of the last
	// re-score of a running pick that kept it, as bits (see notePost and
	// invalidated); every bit when that is not known.
	sinceRescore uint64
	world        *World     // the world the agent is in, or nil
	ready        *readyPlan // a plan the world's queue found last tick (agent_slice.go)
	// stateBuf holds State and post when both fit (see makeStates): then
	// they lie in the agent's own allocation, right after the fields
	// above, and a tick reads one stretch of memory (one page walk, few
	// lines).
	stateBuf [16]expr.Value

	// The fields a resume reads besides the hot ones (running, sleptOf),
	// then those of a step's end and of the checks when something changed.
	running  *Action
	sleptOf  uint8 // the resumes the open sleep window allowed (agent_sleep.go)
	idle     bool
	buffered bool
	plan     []*Action
	step     int
	goal     *Goal
	post     expr.State // the state after the running body's last resume (see postState)
	// satBuf is per goal: satisfied when the current plan was made, for
	// up to 8 goals (satMore holds them for more; see sat).
	satBuf [8]bool
	layer  Reactive // the reactive layer, or nil (reactive.go)

	utility *UtilityPlanner
	rx      reactiveState // told beliefs, pursued goals (reactive.go)

	Name string
	ID   int // unique in its World, set by World.Add: 0, 1, 2, ... in order of adding, never reused after a Remove
	// lod is its level of detail under the world's LOD (world_lod.go),
	// beside ID: a tick under a level of detail reads both of every
	// agent it looks at (ID in a game's LOD.Level, say), and prefetches
	// the line they share.
	lod lodState
	// Data is for the embedding game (the demo keeps its soldier here).
	Data any
	// Rand is the agent's random source; World.Add seeds it from the
	// world's seed and the agent's index, so runs are reproducible and
	// workers never share a source.
	Rand *rand.Rand
	// RetryDelay is how long, in seconds, a failed action is backed off.
	// The default (zero) value is 1 s; a negative value also means 1 s (an
	// action is always backed off).
	RetryDelay float64
	// Commitment is the lead, in score units, that a new utility pick needs
	// over the running one to replace it. The default (zero) value is
	// DefaultCommitment, 0.1; a negative value turns commitment off, so the
	// best-scoring action always takes over. It is handed to the agent's
	// UtilityPlanner (see UtilityPlanner.Commitment) before each re-score.
	Commitment float64
	// RethinkEvery is how often, in seconds, a running utility pick is
	// scored again against the others. The default (zero) value is
	// 0.1 s; a negative value means every tick.
	RethinkEvery float64
	// Authorities are the authorities granted to the agent (see Policy):
	// it plans around actions that need any other, and around Restricted
	// ones, and its executors refuse them. Nil grants none.
	Authorities []string
	// record.Recorder is the agent's flight recorder; NewAgent sets one.
	Recorder *record.Recorder
	// OnEvent, when set, receives every record as it is made. A World sets
	// it to route records to World.OnEvent in agent order.
	OnEvent  func(record.Event)
	tickFrom float64 // the agent's time at the start of its last tick under a plan budget: the records of a plan-budget service carry it
	pending  []record.Event
	// satMore is per goal, as satBuf, when the domain has more than 8
	// goals; else nil.
	satMore []bool

	handle  PlannerHandle
	policy  Policy // Authorities, as the planner reads them
	planner *Planner

	started expr.State // the state when the running step started
	scratch expr.State

	sensing
	backoff
	facts map[string]any     // the blackboard of typed values, by type name
	job   planJob            // time-sliced planning under a world's plan budget (agent_slice.go)
	mem   *perception.Memory // its perception memory, or nil before first use (perception.go)
	src   randSource         // the Rand that World.Add made and its source, for Snapshot
	// swapTo is the domain SetDomain was given during the agent's own
	// tick, swapped in when the tick ends (markSwap).
	swapTo *Domain
	// holds is the smart object the running step holds or claimed this
	// tick (claimNew), or nil (object.go).
	holds    *Object
	claimNew bool
	// rec is scratch for the lists in the records the agent makes while
	// no one keeps a record past its making (recordsKept).
	rec recScratch
}

// sensing is an agent's sensor schedule and the errors it last reported
// (agent_sense.go).
type sensing struct {
	sensorNext []float64
	sensorLast []float64
	senseErr   []string // per sensor, then per named condition: the last error reported
}

// backoff is what keeps an agent from retrying what just failed: the
// actions cooling down, the state in which deciding last found nothing,
// and the NoRerun actions its current pursuit already ran
// (agent_backoff.go).
type backoff struct {
	cooldown    []float64  // per action: backed off until this time
	excl        []bool     // the backed-off mask handed to the planner
	failedState expr.State // the state when deciding last found nothing
	retryAt     float64
	pursuit     *Goal   // the goal whose pursuit ran the actions in ran
	ran         []bool  // per action: a NoRerun action ran in this pursuit
	exclRan     []bool  // the mask excludeFor hands the planner
	broken      []uint8 // per action: its broken promises in a row (notePromise); nil until one breaks
	reads       []int   // the slots the domain's GOAP search can read (planReads)
	readsOf     *Domain // the domain reads was worked out for
}

// NewAgent returns an agent carrying the domain's roles, with its own copy
// of the initial state and a flight recorder. Its planner handle is the
// default one, which plans with the agent's GOAP planner over all of its
// roles; SetPlannerHandle(nil) turns GOAP planning off. The engine reads no
// environment variable: the command line and the demo turn planning off
// for MOONMIND_GOAP=off themselves.
// NewAgent panics on a nil domain.
func NewAgent(name string, d *Domain) *Agent {
	if d == nil {
		panic("engine: NewAgent: agent " + strconv.Quote(name) + " has no domain (a nil *Domain: did Compile or LoadDomain fail?)")
	}
	a := &Agent{Name: name, Domain: d, planner: NewPlanner(d), utility: NewUtilityPlanner(d),
		Recorder: record.New(0), Rand: rand.New(rand.NewPCG(0, 0))}
	a.makeStates(d)
	a.planner.objectWhy = a.objectWhy
	a.cooldown = make([]float64, len(d.Actions))
	a.sensorNext = make([]float64, len(d.Sensors))
	a.sensorLast = make([]float64, len(d.Sensors))
	if h, err := defaultHandle(a); err != nil {
		a.emit(record.Event{Kind: record.EventPlanFailed, Reason: err.Error()})
	} else {
		a.handle = h
	}
	if d.NewReactive != nil {
		a.setLayer(d.NewReactive(a))
	}
	return a
}

// makeStates gives the agent the domain's initial state and its three
// working states (post, started, scratch), and the per-goal satisfied
// marks. State and post, which every tick reads, lie side by side in the
// agent's stateBuf when they fit, else in one allocation with the other
// two (4n values of 16 bytes: a whole number of 64-byte lines, so no line
// of them is shared with another agent's states); started and scratch,
// which a tick reads only when a step starts, are allocated together.
func (a *Agent) makeStates(d *Domain) {
	n := len(d.Initial)
	var block []expr.Value
	if 2*n <= len(a.stateBuf) {
		clear(a.stateBuf[:])
		a.State, a.post = a.stateBuf[0:n:n], a.stateBuf[n:2*n:2*n]
		a.postN = uint8(n)
		block = make([]expr.Value, 2*n)
	} else {
		block = make([]expr.Value, 4*n)
		a.State, a.post = block[0:n:n], block[n:2*n:2*n]
		a.postN = 0
		block = block[2*n:]
	}
	a.started, a.scratch = block[0:n:n], block[n:2*n:2*n]
	copy(a.State, d.Initial)
	copy(a.post, d.Initial)
	copy(a.started, d.Initial)
	copy(a.scratch, d.Initial)
	a.sinceRescore, a.progGoal = allSlots, 0
	clear(a.satBuf[:])
	a.satMore = nil
	if len(d.Goals) > len(a.satBuf) {
		a.satMore = make([]bool, len(d.Goals))
	}
}

// The bits of Agent.marks.
const (
	markTold   = 1  // rx.inbox has beliefs told to the agent (see reactBegin)
	markLayer  = 2  // layer is not nil (see setLayer)
	markWarmer = 4  // task is a Warmer (see setTask, laneWarmer)
	markInTick = 8  // the agent's Tick is running (see SetDomain)
	markSwap   = 16 // SetDomain was called during the tick: swapTo waits for its end
	markPlain  = 32 // task is not nil and not a Warmer: laneWarmer prefetches its object
)

// setTask makes task, a run of act, the running task (no sleep window
// open), and notes in marks whether it is a Warmer: laneWarmer reads
// the mark, not the task's type, for the agents ahead.
func (a *Agent) setTask(task Task, act *Action) {
	a.task, a.running, a.asleep = task, act, 0
	a.marks &^= markWarmer | markPlain
	if _, ok := task.(Warmer); ok {
		a.marks |= markWarmer
	} else if task != nil {
		a.marks |= markPlain
	}
}

// postState returns post, the state after the running body's last
// resume: from stateBuf when it lies there (postN), without reading the
// slice header a.post, which lies among the fields a waiting tick does
// not read. makeStates is the one place post is given its memory.
func (a *Agent) postState() expr.State {
	if n := int(a.postN); n != 0 {
		return a.stateBuf[n : 2*n : 2*n]
	}
	return a.post
}

// sat returns the per-goal satisfied marks (when the current plan was
// made), indexed by Goal.Index: in satBuf when the domain has up to 8
// goals, else in satMore.
func (a *Agent) sat() []bool {
	if a.satMore != nil {
		return a.satMore
	}
	return a.satBuf[:len(a.Domain.Goals)]
}

// Planner returns the agent's GOAP planner, to change its limits
// (MaxDepth, Budget, Chaining). The tick plans with the same limits on
// search buffers the domain lends while the agent plans. Planning with it
// between ticks leaves out what the tick would leave out now: the actions
// backed off after a failure and those that use a kind of smart object
// none of which the agent may claim (a goal with a plan only through one
// fails with BACKED_OFF, saying why).
func (a *Agent) Planner() *Planner {
	a.planner.exclude = a.backedOff()
	return a.planner
}

// Utility returns the agent's utility planner, to change its considerations.
func (a *Agent) Utility() *UtilityPlanner { return a.utility }

// Running returns the action running now, or nil.
func (a *Agent) Running() *Action { return a.running }

// CurrentGoal returns the goal the current plan serves, or nil (no plan, or
// a utility pick).
func (a *Agent) CurrentGoal() *Goal { return a.goal }

// CurrentPlan returns the remaining steps, the running one first. The slice
// is the agent's: do not modify it.
func (a *Agent) CurrentPlan() []*Action {
	if a.step < len(a.plan) {
		return a.plan[a.step:]
	}
	return nil
}

// Stuck reports whether the agent is marked STUCK.
func (a *Agent) Stuck() bool { return a.stuck }

// Time returns the agent's clock in seconds: its ticks' dt added up
// exactly (the tick count times dt; see World.Time), as of its last tick.
func (a *Agent) Time() float64 { return a.time }

// Ticks returns the number of ticks run.
func (a *Agent) Ticks() int { return a.tick }

// Get returns a state variable by name (Unknown when absent).
func (a *Agent) Get(name string) expr.Value { return a.State.Get(a.Domain.Schema, name) }

// Set writes a state variable by name and reports whether the domain has
// it.
func (a *Agent) Set(name string, v expr.Value) bool { return a.State.Set(a.Domain.Schema, name, v) }

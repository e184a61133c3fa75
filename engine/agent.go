package engine

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"time"
)

// Agent defaults.
const (
	DefaultRetryDelay = 1.0  // seconds a failed action is backed off
	DefaultStuckAfter = 10.0 // seconds without progress before STUCK
	DefaultCommitment = 0.1  // utility lead a new pick needs over the running one
	// DefaultRethinkEvery is how often a running utility pick is scored
	// again: 0.1 s, six ticks at 60 per second.
	DefaultRethinkEvery = 0.1
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
// drops its plan (EventReplan) when the next step's precondition no longer
// holds, and interrupts the running step (EventInterrupt, the body's
// on_interrupt runs) when the world, not the body itself, made the running
// step's precondition false (it held after the body's last resume and does
// not hold now), when a goal of higher priority than the current one
// becomes unsatisfied and has a plan, or when the utility pick changes
// beyond Commitment. The whole plan is watched too (see watchPlan): when
// the world changes a variable the rest of the plan reads, a goal the
// world achieved interrupts the running step, and a later step that can
// no longer run makes the agent replan at once (going on without a
// restart when the new plan begins with the running action). The new plan
// starts in the same tick. A body is
// resumed at most once per tick. Under a world's plan budget
// (World.PlanBudget) the agent's plans, its higher-goal checks and the
// plan watch's replanning are made by the world's queue after the tick
// instead, and a new plan starts the tick after it is found (docs/semantics.md, "Time-sliced planning").
//
// Back-off. A failed action is excluded from plans for RetryDelay seconds,
// then tried again. An agent that found no plan asks again only when its
// state changes or a back-off ends, so it never thrashes.
//
// Stuck. An agent with an unsatisfied goal that finishes no action for
// StuckAfter seconds is marked STUCK (EventStuck plus a summary line); it
// recovers (EventRecovered) at its next finished action or when every goal
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
	State  State
	task   Task
	// Timing records planning wall time in events (Event.Duration). Off by
	// default so traces are reproducible.
	Timing bool
	picked bool // the current plan is a utility pick
	stuck  bool
	// progGoal is what checkProgress found last: 1 when every goal was
	// satisfied, 2+i when ByPrio[i] was the first unsatisfied one, 0 when
	// not known (see checkProgress).
	progGoal uint8
	marks    uint8 // markTold, markLayer, markWarmer: what the tick would otherwise read from colder fields
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
	// DefaultStuckAfter, 10 s; a negative value turns detection off.
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
	stateBuf [16]Value

	// The fields a resume reads besides the hot ones (running, sleptOf),
	// then those of a step's end and of the checks when something changed.
	running  *Action
	sleptOf  uint8 // the resumes the open sleep window allowed (agent_sleep.go)
	idle     bool
	buffered bool
	plan     []*Action
	step     int
	goal     *Goal
	post     State // the state after the running body's last resume (see postState)
	// satBuf is per goal: satisfied when the current plan was made, for
	// up to 8 goals (satMore holds them for more; see sat).
	satBuf [8]bool
	layer  Reactive // the reactive layer, or nil (reactive.go)

	utility *UtilityPlanner
	rx      reactiveState // told beliefs, pursued goals (reactive.go)

	Name string
	ID   int // unique in its World, set by World.Add: 0, 1, 2, ... in order of adding, never reused after a Remove
	// Data is for the embedding game (the demo keeps its soldier here).
	Data any
	// Rand is the agent's random source; World.Add seeds it from the
	// world's seed and the agent's index, so runs are reproducible and
	// workers never share a source.
	Rand *rand.Rand
	// RetryDelay is how long, in seconds, a failed action is backed off.
	// The default (zero) value is DefaultRetryDelay, 1 s; a negative value
	// also means DefaultRetryDelay (an action is always backed off).
	RetryDelay float64
	// Commitment is the lead, in score units, that a new utility pick needs
	// over the running one to replace it. The default (zero) value is
	// DefaultCommitment, 0.1; a negative value turns commitment off, so the
	// best-scoring action always takes over. It is handed to the agent's
	// UtilityPlanner (see UtilityPlanner.Commitment) before each re-score.
	Commitment float64
	// RethinkEvery is how often, in seconds, a running utility pick is
	// scored again against the others. The default (zero) value is
	// DefaultRethinkEvery, 0.1 s; a negative value means every tick.
	RethinkEvery float64
	// Authorities are the authorities granted to the agent (see Policy):
	// it plans around actions that need any other, and around Restricted
	// ones, and its executors refuse them. Nil grants none.
	Authorities []string
	// Recorder is the agent's flight recorder; NewAgent sets one.
	Recorder *Recorder
	// OnEvent, when set, receives every record as it is made. A World sets
	// it to route records to World.OnEvent in agent order.
	OnEvent  func(Event)
	tickFrom float64 // the agent's time at the start of its last tick under a plan budget: the records of a plan-budget service carry it
	pending  []Event
	// satMore is per goal, as satBuf, when the domain has more than 8
	// goals; else nil.
	satMore  []bool
	cooldown []float64 // per action: backed off until this time

	handle  PlannerHandle
	policy  Policy // Authorities, as the planner reads them
	planner *Planner

	started State // the state when the running step started
	scratch State

	sensorNext  []float64
	sensorLast  []float64
	senseErr    []string // per sensor, then per named condition: the last error reported
	failedState State    // the state when deciding last found nothing
	retryAt     float64
	excl        []bool         // the backed-off mask handed to the planner
	facts       map[string]any // the blackboard of typed values, by type name
	pursuit     *Goal          // the goal whose pursuit ran the actions in ran
	ran         []bool         // per action: a NoRerun action ran in this pursuit
	exclRan     []bool         // the mask excludeFor hands the planner
	job         planJob        // time-sliced planning under a world's plan budget (agent_slice.go)
	src         randSource     // the Rand that World.Add made and its source, for Snapshot
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
		Recorder: NewRecorder(0), Rand: rand.New(rand.NewPCG(0, 0))}
	a.makeStates(d)
	a.cooldown = make([]float64, len(d.Actions))
	a.sensorNext = make([]float64, len(d.Sensors))
	a.sensorLast = make([]float64, len(d.Sensors))
	if h, err := defaultHandle(a); err != nil {
		a.emit(Event{Kind: EventPlanFailed, Reason: err.Error()})
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
	var block []Value
	if 2*n <= len(a.stateBuf) {
		clear(a.stateBuf[:])
		a.State, a.post = a.stateBuf[0:n:n], a.stateBuf[n:2*n:2*n]
		a.postN = uint8(n)
		block = make([]Value, 2*n)
	} else {
		block = make([]Value, 4*n)
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
	markTold   = 1 // rx.inbox has beliefs told to the agent (see reactBegin)
	markLayer  = 2 // layer is not nil (see setLayer)
	markWarmer = 4 // task is a Warmer (see setTask, laneWarmer)
)

// setTask makes task, a run of act, the running task (no sleep window
// open), and notes in marks whether it is a Warmer: laneWarmer reads
// the mark, not the task's type, for the agents ahead.
func (a *Agent) setTask(task Task, act *Action) {
	a.task, a.running, a.asleep = task, act, 0
	a.marks &^= markWarmer
	if _, ok := task.(Warmer); ok {
		a.marks |= markWarmer
	}
}

// postState returns post, the state after the running body's last
// resume: from stateBuf when it lies there (postN), without reading the
// slice header a.post, which lies among the fields a waiting tick does
// not read. makeStates is the one place post is given its memory.
func (a *Agent) postState() State {
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
// search buffers the domain lends while the agent plans.
func (a *Agent) Planner() *Planner { return a.planner }

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
func (a *Agent) Get(name string) Value { return a.State.Get(a.Domain.Schema, name) }

// Set writes a state variable by name and reports whether the domain has
// it.
func (a *Agent) Set(name string, v Value) bool { return a.State.Set(a.Domain.Schema, name, v) }

// Record adds a record made outside the engine (by an adapter such as
// luabind's npc:llm_plan, or the reactive layer's events, plans and
// intentions) to the agent's flight recorder, stamped with the agent's tick,
// time and name, and routed like the engine's own records.
// Call it only from the goroutine that ticks the agent.
func (a *Agent) Record(e Event) { a.emit(e) }

func (a *Agent) emit(e Event) {
	e.Tick, e.Time, e.Agent = a.tick, a.time, a.Name
	if a.Recorder != nil {
		a.Recorder.Add(e)
	}
	if a.buffered {
		// In a world, records wait for the end of the tick, and only when
		// the world hands them on: without World.OnEvent the recorder is
		// their one reader.
		if w := a.world; w != nil && w.OnEvent != nil {
			a.pending = append(a.pending, e)
			a.handOn = true
		}
	} else if a.OnEvent != nil {
		a.OnEvent(e)
	}
}

func (a *Agent) retryDelay() float64 {
	if a.RetryDelay > 0 {
		return a.RetryDelay
	}
	return DefaultRetryDelay
}

func (a *Agent) rethinkEvery() float64 {
	switch {
	case a.RethinkEvery < 0:
		return 0
	case a.RethinkEvery == 0:
		return DefaultRethinkEvery
	}
	return a.RethinkEvery
}

// Tick advances the agent by dt seconds (dt > 0): beliefs told to it,
// sensors and named conditions, the reactive layer's phase when it has
// one (see Reactive), then the replanning checks, then one resume of the
// running body (starting the next step first when none runs). A body that
// fails fails its step, never the agent or the world.
func (a *Agent) Tick(dt float64) {
	// The commonest ticks written out: a running body (its resume made,
	// or a Sleeper's skipped, see skipSleep) with nothing else to do: no
	// told belief, no reactive layer, no plan budget, no sensor and no
	// named condition; the world changed no slot since the last resume
	// (post in stateBuf, alike), the world's queue found no plan and no
	// re-score is due (nothingToCheck). What tickFull does then is all
	// here, in its order.
	if a.task != nil && a.marks&(markTold|markLayer) == 0 && a.ready == nil &&
		!(a.picked && a.time+1e-9 >= a.rethinkAt) {
		if !testHooks.checkEverything && !a.slicing() && len(a.Domain.Sensors) == 0 && len(a.Domain.Conditions) == 0 &&
			!stateMoved(a) {
			a.tick++
			var moved uint64
			if a.asleep > 1 && dt == a.clock.dt {
				a.asleep-- // skippedResume(0)
				if !a.picked {
					a.sinceRescore = allSlots
				}
			} else {
				moved = a.resume(dt)
			}
			if a.goalsStillHold(moved) {
				a.lastProg = a.time
			} else if !a.progressStands(moved) {
				a.checkProgress(moved)
			}
			if a.marks&markLayer != 0 {
				a.ObserveBeliefs()
			}
			if dt == a.clock.dt {
				a.time = a.clock.next()
			} else {
				a.time = a.clock.advance(dt)
			}
			return
		}
	}
	a.tickFull(dt)
}

// tickFull is Tick in full.
func (a *Agent) tickFull(dt float64) {
	a.tick++
	if a.slicing() {
		a.tickFrom = a.time // for the world's plan-budget service after the tick
	}
	// The calls are skipped, not made to find nothing, when there is no
	// told belief, no reactive layer, no sensor and no named condition.
	if a.marks&(markTold|markLayer) != 0 { // a told belief or a reactive layer
		a.reactBegin()
	}
	if d := a.Domain; len(d.Sensors) > 0 || len(d.Conditions) > 0 {
		a.sense(dt)
	}
	if a.marks&markLayer != 0 {
		a.reactStep(dt)
	}
	bodyRan := a.task != nil // interrupted (on_interrupt may write) or resumed below
	changed := allSlots
	// moved is the slots changed since the last checkProgress, when known:
	// when the task that ran then runs on, the state then was post, and
	// the resume's notePost compares the state with it.
	moved, ranOn := allSlots, a.task != nil
	if a.task != nil {
		// worldChanges, its commonest case written out here (post in
		// stateBuf, no slot changed): no call for it. (When a slot did
		// change, worldChanges compares once more: rare, and spelling the
		// mask out here cost the common case 4 instructions a tick.)
		if !testHooks.checkEverything && !stateMoved(a) {
			changed = 0
		} else {
			changed = a.worldChanges()
		}
		if !a.nothingToCheck(changed) {
			if reason := a.invalidated(changed); reason != "" {
				a.interrupt(reason)
				ranOn = false
			}
		}
	} else if a.step < len(a.plan) {
		if reason := a.higherGoal(nil, allSlots); reason != "" {
			a.emit(Event{Kind: EventReplan, Goal: goalName(a.goal), Reason: reason})
			a.dropPlan()
		}
	}
	if a.task != nil || a.startNext() {
		bodyRan = true
		if a.skipSleep(dt, changed) {
			a.skippedResume(changed) // a Sleeper's resume that would only count time
			moved = changed
		} else if m := a.resume(dt); ranOn {
			moved = m
		}
	}
	if a.goalsStillHold(moved) {
		a.lastProg = a.time
	} else if !a.progressStands(moved) {
		a.checkProgress(moved)
	}
	if bodyRan && a.marks&markLayer != 0 {
		a.ObserveBeliefs() // the body's changes, dispatched at the next tick
	}
	if dt == a.clock.dt {
		a.time = a.clock.next() // advance, inlined
	} else {
		a.time = a.clock.advance(dt)
	}
}

// sense runs the sensors that are due and refreshes named conditions.
func (a *Agent) sense(dt float64) {
	for i, s := range a.Domain.Sensors {
		if a.tick > 1 && a.time < a.sensorNext[i]-1e-9 {
			continue
		}
		// The game time since this sensor's previous run; on its first run,
		// the tick's own dt.
		since := a.time - a.sensorLast[i]
		if a.tick == 1 {
			since = dt
		}
		a.noteSenseErr(i, EventSensorFailed, s.Name, s.Run(a, since))
		a.sensorLast[i] = a.time
		a.sensorNext[i] = a.time + s.Every
	}
	a.refreshConditions()
}

// RefreshConditions evaluates the domain's named conditions on the agent's
// state and stores each result in its boolean variable; a condition that
// returns an error leaves its variable Unknown (so conditions reading it do
// not hold). The tick does this every tick; call it yourself to plan from a
// state you set by hand, as `moonmind plan` does.
func (a *Agent) RefreshConditions() { a.refreshConditions() }

func (a *Agent) refreshConditions() {
	for i, c := range a.Domain.Conditions {
		ok, err := c.Test(a)
		a.noteSenseErr(len(a.Domain.Sensors)+i, EventConditionFailed, c.Name, err)
		if err != nil {
			a.State[c.Slot] = Value{}
			continue
		}
		a.State[c.Slot] = BoolValue(ok)
	}
}

// noteSenseErr records a sensor's or named condition's error once, not
// every tick: again only when the message changes or after a success.
func (a *Agent) noteSenseErr(i int, kind EventKind, name string, err error) {
	if n := len(a.Domain.Sensors) + len(a.Domain.Conditions); len(a.senseErr) < n {
		a.senseErr = make([]string, n)
	}
	if err == nil {
		a.senseErr[i] = ""
		return
	}
	if msg := err.Error(); msg != a.senseErr[i] {
		a.senseErr[i] = msg
		a.emit(Event{Kind: kind, Action: name, Reason: msg})
	}
}

// worldChanges returns the slots where the state differs from the state
// after the running body's last resume (post), as bits: what the world,
// not the body, changed. Every bit is set when the states are longer than
// 64 slots or of different lengths; callers then check everything.
func (a *Agent) worldChanges() uint64 {
	st, post := a.State, a.postState()
	if len(st) != len(post) || len(st) > 64 || testHooks.checkEverything {
		return allSlots
	}
	if statesAlike(st, post) {
		return 0
	}
	return changedSlots(st, post)
}

// changedSlots returns the slots where x and y (of equal length, at most
// 64) differ, as bits: where the values are not ==, which compares all
// of a Value (the kind, a number's bits, a string's canonical text). It
// compares bits, not meaning (Value.Equal): 0 and -0 count as changed,
// which only makes a check run that could have been skipped; no change is
// missed.
func changedSlots(x, y State) uint64 {
	var m uint64
	y = y[:len(x)]
	for i := range x {
		if x[i] != y[i] {
			m |= 1 << uint(i)
		}
	}
	return m
}

// statesAlike reports whether x and y (of equal length) are ==, slot for
// slot: changedSlots(x, y) == 0, found without building the mask and
// stopping at the first difference. Most calls find them alike (a
// waiting body, a world that wrote nothing), so worldChanges and notePost
// build the mask only when they are not.
func statesAlike(x, y State) bool {
	y = y[:len(x)]
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// stateMoved reports whether a.State may differ from post: true when
// post does not lie in stateBuf (postN is 0) or State's length is not
// postN, else whether State and post differ in any slot (statesAlike).
// It finds post from postN, without reading post's slice header, which
// lies among the colder fields.
func stateMoved(a *Agent) bool {
	n := int(a.postN)
	return n == 0 || n != len(a.State) || !statesAlike(a.State, a.stateBuf[n:2*n])
}

// allSlots is the mask of worldChanges that says "maybe every slot".
const allSlots = ^uint64(0)

// notePost copies the state into post (the state after the body's last
// resume, or at the start of a step) and notes the slots that changed
// since the last copy for the re-score of a running pick (see
// invalidated). When no slot changed, post is already the state, byte
// for byte, and is not written: a tick of a waiting body then leaves
// post's cache lines clean, so they need not be written back to memory.
//
// It returns the slots that changed since the last copy (every bit when
// that is not known).
func (a *Agent) notePost() uint64 {
	if !stateMoved(a) {
		if !a.picked {
			a.sinceRescore = allSlots
		}
		return 0
	}
	return a.notePostSlow()
}

// notePostSlow is notePost when post lies apart or some slot changed.
func (a *Agent) notePostSlow() uint64 {
	st, post := a.State, a.postState()
	if len(st) != len(post) || len(st) > 64 {
		copy(post, st)
		a.sinceRescore = allSlots
		return allSlots
	}
	var m uint64
	if !statesAlike(st, post) {
		m = changedSlots(st, post)
	}
	if a.picked {
		a.sinceRescore |= m
	} else {
		a.sinceRescore = allSlots
	}
	if m != 0 {
		copy(post, st)
	}
	return m
}

// nothingToCheck reports whether invalidated(changed) would find nothing
// and do nothing: the world changed no slot, the world's queue found no
// plan for the agent (ready), and no re-score of a running pick is due.
// It is small enough to inline, so that most ticks of a running body make
// no call for their checks.
func (a *Agent) nothingToCheck(changed uint64) bool {
	return changed == 0 && a.ready == nil && !(a.picked && a.time+1e-9 >= a.rethinkAt)
}

// invalidated says why the running step must stop, or "". changed is
// the slots the world changed since the body's last resume (see
// worldChanges): a check that reads none of them would find what it found
// then, nothing, so it is skipped.
func (a *Agent) invalidated(changed uint64) string {
	act := a.running
	// When the world changed nothing and the world's queue found no plan
	// for the agent (ready), the three checks would each find nothing:
	// every one of them is skipped by its read mask then.
	if changed != 0 || a.ready != nil {
		if changed&act.Pre.ReadMask() != 0 && !act.Pre.Eval(a.State) && act.Pre.Eval(a.post) {
			return "precondition \"" + act.Pre.Source() + "\" of " + act.Name + " no longer holds"
		}
		if r := a.higherGoal(a.post, changed); r != "" {
			return r
		}
		if r := a.watchPlan(changed); r != "" {
			return r
		}
	}
	// Re-score a running pick at most every RethinkEvery seconds, and not
	// once its own body has made its precondition false (it is finishing).
	if a.picked && a.time+1e-9 >= a.rethinkAt && act.Pre.Eval(a.State) {
		a.rethinkAt = a.time + a.rethinkEvery()
		u := a.utility
		u.Commitment = a.Commitment
		if u.memo.holds(a, act, a.sinceRescore|changed) {
			return "" // the scores' inputs are as at the last re-score, which kept act
		}
		// Pick, with the scores the memo still knows taken from it.
		scoring := a.Domain.Scoring
		if scoring != nil {
			scoring(a, true)
		}
		next := u.repick(a, a.State, act, a.sinceRescore|changed)
		keeps := next == nil || next == act // decided by the state alone
		if next != nil && next != act && a.allowed1(next) == "" {
			bs, rs := u.Score(next, a.State), u.Score(act, a.State)
			if scoring != nil {
				scoring(a, false)
				scoring = nil
			}
			if bs > 0 {
				u.memo.forget()
				return "utility pick changed: " + next.Name + " (" + strconv.FormatFloat(bs, 'f', 3, 64) +
					") leads " + act.Name + " (" + strconv.FormatFloat(rs, 'f', 3, 64) + ")"
			}
			keeps = true
		}
		if scoring != nil {
			scoring(a, false)
		}
		if keeps {
			u.memo.keep(a, act)
			a.sinceRescore = changed
		} else {
			u.memo.forget() // a back-off or the policy kept act: they change with time
		}
	}
	return ""
}

// higherGoal reports a goal that was satisfied when the current plan was
// made, is unsatisfied now, outranks the current goal, and has a plan.
// With a running body, after is the state after its last resume: a goal
// the body itself made unsatisfied does not interrupt it, and changed is
// the slots the world changed since (see worldChanges): a goal that reads
// none of them is as it was after the resume, so it is skipped.
func (a *Agent) higherGoal(after State, changed uint64) string {
	if a.Domain.Decide == "utility" {
		return ""
	}
	if a.slicing() {
		return a.probeHigher(after, changed) // the world's queue plans it (agent_slice.go)
	}
	for _, g := range a.Domain.ByPrio {
		if a.goal != nil && g.Priority <= a.goal.Priority {
			break
		}
		if !a.sat()[g.Index] || after != nil && changed&g.Condition.ReadMask() == 0 ||
			g.Satisfied(a.State) || after != nil && !g.Satisfied(after) {
			continue
		}
		a.sat()[g.Index] = false // check each flip once
		wp := a.Domain.borrowPlanner(a.planner)
		p, err := wp.PlanFor(g, a.State)
		ok := err == nil && a.allowed(p.Steps) == ""
		a.Domain.returnPlanner(wp)
		if ok {
			return "goal " + g.Name + " (" + g.Priority.String() + ") became unsatisfied"
		}
	}
	return ""
}

func (a *Agent) interrupt(reason string) {
	act := a.running
	if a.asleep > 0 {
		a.wake()
	}
	failed := interruptTask(a.task)
	a.task, a.running = nil, nil
	a.emit(Event{Kind: EventInterrupt, Goal: goalName(a.goal), Action: act.Name, Reason: reason})
	if failed != "" {
		a.emit(Event{Kind: EventFail, Goal: goalName(a.goal), Action: act.Name, Reason: failed})
	}
	a.dropPlan()
}

func (a *Agent) dropPlan() {
	a.plan, a.step, a.goal, a.picked = a.plan[:0], 0, nil, false
}

// startNext starts the next step, deciding first when there is none. It
// reports whether a task now runs.
func (a *Agent) startNext() bool {
	if a.goal != nil && a.step < len(a.plan) && a.goal.Satisfied(a.State) {
		a.dropPlan() // reached early: the rest of the plan is not needed
	}
	if a.step >= len(a.plan) && !a.decide() {
		return false
	}
	act := a.plan[a.step]
	if !act.Pre.Eval(a.State) {
		if a.goal == nil || !a.goal.Satisfied(a.State) {
			a.emit(Event{Kind: EventReplan, Goal: goalName(a.goal), Action: act.Name,
				Reason: "precondition \"" + act.Pre.Source() + "\" of the next step no longer holds"})
		}
		if !a.decide() {
			return false
		}
		act = a.plan[a.step]
	}
	if act.Body == nil {
		a.fail(act, newError("action \""+act.Name+"\" has no body"))
		return false
	}
	task, err := act.Body.Start(a, act)
	if err != nil {
		a.fail(act, err)
		return false
	}
	a.setTask(task, act)
	copy(a.started, a.State)
	a.notePost()
	a.emit(Event{Kind: EventStart, Goal: goalName(a.goal), Action: act.Name})
	return true
}

// It returns the slots the resume changed (see notePost).
func (a *Agent) resume(dt float64) uint64 {
	if a.asleep > 0 {
		a.wake()
	}
	st, err := a.task.Resume(dt)
	// notePost, its commonest case (post in stateBuf, no slot changed)
	// written out: no call for it.
	var moved uint64
	if !stateMoved(a) {
		if !a.picked {
			a.sinceRescore = allSlots
		}
	} else {
		moved = a.notePostSlow()
	}
	if st == Running {
		// Open a sleep window when the task is a Sleeper that says so
		// (agent_sleep.go).
		if s, ok := a.task.(Sleeper); ok {
			if n := min(s.Asleep(dt), maxSleep); n > 0 {
				a.asleep, a.sleptOf = uint8(n+1), uint8(n)
			}
		}
		return moved
	}
	act := a.running // read only now: it lies after the hot fields
	switch st {
	case Succeeded:
		a.task, a.running = nil, nil
		a.step++
		a.emit(Event{Kind: EventFinish, Goal: goalName(a.goal), Action: act.Name, Reason: a.finishNote(act)})
		a.noteRan(act)
		a.progressed()
		if a.picked {
			a.dropPlan()
		}
	default:
		if err == nil {
			err = errors.New("the body reported " + st.String())
		}
		a.task, a.running = nil, nil
		a.fail(act, err)
	}
	return moved
}

// unmetEffects compares the state after a step with what its effects
// promised from the state where it started.
func (a *Agent) unmetEffects(act *Action) string {
	if act.Effects.IsEmpty() {
		return ""
	}
	copy(a.scratch, a.started)
	if err := act.Effects.Apply(a.scratch, a.started); err != nil {
		return "effects could not be checked: " + err.Error()
	}
	msg := ""
	for _, s := range act.Effects.Writes() {
		if promised(act, s) {
			continue // a promised named condition: see brokenPromises
		}
		if !a.scratch[s].Equal(a.State[s]) {
			if msg == "" {
				msg = "promised effects not met:"
			}
			msg += " " + a.Domain.Schema.Name(s) + " = " + shortValue(a.scratch[s]) + " (is " + shortValue(a.State[s]) + ")"
		}
	}
	return msg
}

func (a *Agent) fail(act *Action, err error) {
	a.emit(Event{Kind: EventFail, Goal: goalName(a.goal), Action: act.Name, Reason: err.Error()})
	a.cooldown[act.Index] = a.time + a.retryDelay()
	a.dropPlan()
}

func (a *Agent) progressed() {
	a.lastProg = a.time
	if a.stuck {
		a.stuck = false
		a.emit(Event{Kind: EventRecovered})
	}
}

// checkProgress marks the agent STUCK, or progressing, from its first
// unsatisfied goal. moved is the slots changed since its last call, when
// known (see Tick): when no goal reads any of them, the goals are as they
// were then, and what it found then (progGoal) stands.
func (a *Agent) checkProgress(moved uint64) {
	after := a.StuckAfter
	if after == 0 {
		after = DefaultStuckAfter
	}
	if after < 0 {
		a.progGoal = 0
		return
	}
	var unsatisfied *Goal
	byPrio := a.Domain.ByPrio
	if p := int(a.progGoal); p > 0 && moved != allSlots && !testHooks.checkEverything && p < len(byPrio)+2 && (moved == 0 || moved&goalsRead(byPrio) == 0) {
		if p > 1 {
			unsatisfied = byPrio[p-2]
		}
	} else {
		a.progGoal = 1
		for i, g := range byPrio {
			if !g.Satisfied(a.State) {
				unsatisfied, a.progGoal = g, 0
				if i+2 <= 255 {
					a.progGoal = uint8(i + 2)
				}
				break
			}
		}
	}
	if unsatisfied == nil {
		a.progressed()
		return
	}
	if !a.stuck && a.time+1e-9 >= a.lastProg+after {
		a.stuck = true
		a.emit(Event{Kind: EventStuck, Goal: unsatisfied.Name, Reason: "no progress for " + shortNumber(after) + " s"})
		a.emit(Event{Kind: EventSummary, Reason: a.Recorder.Summary("STUCK")})
	}
}

// goalsStillHold is checkProgress's commonest case, small enough to
// inline: every goal was satisfied at the last check and no slot moved
// since (moved), so every goal still is; the agent progressed and, not
// STUCK, has nothing to record (the caller sets lastProg).
func (a *Agent) goalsStillHold(moved uint64) bool {
	return a.progGoal == 1 && moved == 0 && !a.stuck && a.StuckAfter >= 0 && !testHooks.checkEverything
}

// progressStands reports whether checkProgress(moved) would find what it
// found last and do nothing: no slot moved, the first unsatisfied goal
// found then stands (progGoal), and the agent is STUCK already or its
// StuckAfter has not run out. It is small enough to inline, so that most
// ticks make no call for the progress check.
func (a *Agent) progressStands(moved uint64) bool {
	after := a.StuckAfter
	if after == 0 {
		after = DefaultStuckAfter
	}
	p := int(a.progGoal)
	return moved == 0 && p > 1 && after > 0 && !testHooks.checkEverything && p < len(a.Domain.ByPrio)+2 &&
		(a.stuck || a.time+1e-9 < a.lastProg+after)
}

// goalsRead returns the slots the goals' conditions read, as bits.
func goalsRead(goals []*Goal) uint64 {
	var m uint64
	for _, g := range goals {
		m |= g.Condition.ReadMask()
	}
	return m
}

func goalName(g *Goal) string {
	if g == nil {
		return ""
	}
	return g.Name
}

// allowed returns why a plan cannot run now ("" when it can): a restricted
// action, or one backed off after a failure.
func (a *Agent) allowed(steps []*Action) string {
	for _, s := range steps {
		if why := a.allowed1(s); why != "" {
			return why
		}
	}
	return ""
}

func (a *Agent) allowed1(s *Action) string {
	if s.Secured() {
		if why := refusal(s, a.Authorities); why != "" {
			return why
		}
	}
	if a.cooldown[s.Index] > a.time+1e-9 {
		return "action " + s.Name + " is backed off for " + shortNumber(roundTo(a.cooldown[s.Index]-a.time, 3)) + " s after a failure"
	}
	return ""
}

// decide picks a new plan according to Domain.Decide (see Agent). It
// reports whether there is a step to run. After finding nothing it asks
// again only when the state changes or a back-off ends.
func (a *Agent) decide() bool {
	a.dropPlan()
	if a.failedState != nil && equalStates(a.failedState, a.State) && a.time+1e-9 < a.retryAt {
		return false
	}
	a.retryAt = inf
	a.planner.exclude = a.backedOff()
	a.planner.Policy = a.currentPolicy()
	mode := a.Domain.Decide
	if (mode != "utility" || a.anyPursued()) && a.handle != nil && a.planGoals() {
		a.failedState = a.failedState[:0]
		return true
	}
	if a.waitingForPlan() {
		return false // the world's queue plans for it (World.PlanBudget): idle meanwhile
	}
	if mode != "goap" || a.handle == nil && !a.goalsMet() {
		if a.pick() {
			a.failedState = a.failedState[:0]
			return true
		}
	}
	a.failedState = append(a.failedState[:0], a.State...)
	// Ask again when the first back-off ends: the action may help then.
	for _, t := range a.cooldown {
		if t > a.time+1e-9 && t < a.retryAt {
			a.retryAt = t
		}
	}
	return false
}

const inf = 1e308

// backedOff returns the mask of actions backed off now, or nil when none
// is, for Planner.exclude: plans route around a failing action while it
// cools down.
func (a *Agent) backedOff() []bool {
	var mask []bool
	for i, t := range a.cooldown {
		if t > a.time+1e-9 {
			if mask == nil {
				if cap(a.excl) < len(a.cooldown) {
					a.excl = make([]bool, len(a.cooldown))
				}
				mask = a.excl[:len(a.cooldown)]
				clear(mask)
			}
			mask[i] = true
		}
	}
	return mask
}

func (a *Agent) noteBackoff(steps []*Action) {
	for _, s := range steps {
		if t := a.cooldown[s.Index]; t > a.time && t < a.retryAt {
			a.retryAt = t
		}
	}
}

func (a *Agent) planGoals() bool {
	if a.pursuit != nil && a.pursuit.Satisfied(a.State) {
		a.endPursuit()
	}
	for _, g := range a.Domain.Goals {
		a.sat()[g.Index] = g.Satisfied(a.State)
	}
	if a.customHandle() {
		return a.planByHandle()
	}
	if a.slicing() {
		return a.queuePlan()
	}
	if a.job.open || a.job.failed {
		a.dropJob() // the world's budget was turned off
	}
	anyUnsatisfied := false
	for _, g := range a.Domain.ByPrio {
		if a.sat()[g.Index] || a.Domain.Decide == "utility" && !a.pursuing(g) {
			continue
		}
		anyUnsatisfied = true
		var t0 time.Time
		if a.Timing {
			t0 = time.Now()
		}
		wp := a.Domain.borrowPlanner(a.planner)
		wp.exclude = a.excludeFor(g, wp.exclude)
		p, err := wp.PlanFor(g, a.State)
		var took time.Duration
		if a.Timing {
			took = time.Since(t0)
		}
		ok := a.takePlan(g, p, err, took)
		a.Domain.returnPlanner(wp)
		if ok {
			return true
		}
	}
	if !anyUnsatisfied && a.Domain.Decide == "goap" && !a.idle {
		a.idle = true
		a.emit(Event{Kind: EventIdle})
	}
	return false
}

// takePlan takes the planner's answer for goal g (p and err from
// Planner.PlanFor, took the wall time it took or 0): a plan the agent may
// run becomes its plan (EventPlan) and takePlan reports true; otherwise
// the failure or refusal is recorded and it reports false.
func (a *Agent) takePlan(g *Goal, p *Plan, err error, took time.Duration) bool {
	if err != nil {
		reason := err.Error()
		var pe *PlanError
		if errors.As(err, &pe) {
			a.noteWait(pe)
			reason = string(pe.Reason) + ": " + pe.Detail
			if pe.Reason == BackedOff {
				a.noteBackoff([]*Action{a.Domain.Action(pe.Action)})
			}
		}
		a.emit(Event{Kind: EventPlanFailed, Goal: g.Name, Reason: reason, Duration: took})
		a.notePursuitFail(g, reason)
		return false
	}
	// Keep the steps: the plan's buffers go back with the planner.
	a.plan = append(a.plan[:0], p.Steps...)
	p = &Plan{Steps: a.plan, Cost: p.Cost, Expansions: p.Expansions}
	if why := a.allowed(p.Steps); why != "" {
		kind := EventPlanFailed
		if p.Steps != nil && a.hasForbidden(p.Steps) {
			kind = EventRefused
		}
		a.noteBackoff(p.Steps)
		a.emit(Event{Kind: kind, Goal: g.Name, Plan: names(p.Steps), Cost: p.Cost, Reason: why})
		a.notePursuitFail(g, why)
		a.plan = a.plan[:0]
		return false
	}
	if a.pursuit != g {
		a.endPursuit()
		a.pursuit = g
	}
	a.goal, a.idle = g, false
	a.emit(Event{Kind: EventPlan, Goal: g.Name, Plan: names(p.Steps), Cost: p.Cost, Expansions: p.Expansions, Duration: took,
		Reason: a.leftOutNote(g)})
	return true
}

// hasForbidden reports whether a step is one the agent's policy forbids.
func (a *Agent) hasForbidden(steps []*Action) bool {
	for _, s := range steps {
		if s.Secured() && refusal(s, a.Authorities) != "" {
			return true
		}
	}
	return false
}

// pick runs the utility planner over the actions not backed off. An
// action that scores 0 or less is never picked: with no positive score the
// agent does nothing rather than something pointless.
func (a *Agent) pick() bool {
	var t0 time.Time
	if a.Timing {
		t0 = time.Now()
	}
	if h := a.Domain.Scoring; h != nil {
		h(a, true)
		defer h(a, false)
	}
	ranked := a.utility.ActionsByUtility(a.State)
	var took time.Duration
	if a.Timing {
		took = time.Since(t0)
	}
	for _, sa := range ranked {
		if !(sa.Score > 0) {
			break
		}
		if why := a.allowed1(sa.Action); why != "" {
			if !a.policy.Permits(sa.Action) {
				continue
			}
			a.noteBackoff([]*Action{sa.Action})
			continue
		}
		a.plan = append(a.plan[:0], sa.Action)
		a.picked = true
		a.rethinkAt = a.time + a.rethinkEvery()
		e := Event{Kind: EventPick, Action: sa.Action.Name, Score: sa.Score, Considerations: a.considerationsOf(sa.Action),
			Duration: took}
		for _, r := range ranked {
			e.Scores = append(e.Scores, ActionScore{Action: r.Action.Name, Score: r.Score})
		}
		for _, g := range a.Domain.Goals {
			a.sat()[g.Index] = g.Satisfied(a.State)
		}
		a.emit(e)
		return true
	}
	return false
}

func names(as []*Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

func equalStates(x, y State) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !x[i].Equal(y[i]) {
			return false
		}
	}
	return true
}

package bdi

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Defaults of a Config.
const (
	// DefaultMaxDepth is how deeply sub-goals may nest (an achieve inside
	// the plan of an achieve ...) before the innermost fails.
	DefaultMaxDepth = 64
	// DefaultMaxResumes is how many intention resumes one tick may run
	// before the rest waits for the next tick: it stops plans that wake
	// each other forever from freezing the game.
	DefaultMaxResumes = 10_000
	// DefaultMaxIntentions is how many intentions and queued goals one
	// agent may have at once before a new goal fails: it stops plans that
	// add goals faster than they finish from exhausting the memory.
	DefaultMaxIntentions = 1_000
	// DefaultMaxEvents is how many belief events may wait in one agent's
	// queue before new ones are dropped: it stops a plan that believes
	// what triggers it (a trigger storm) from exhausting the memory.
	DefaultMaxEvents = 10_000
)

// Config is the reactive part of a domain: its plan library and the goals
// an agent starts with. It is shared, read-only, by every agent of the
// domain. The zero value of each field is documented.
type Config struct {
	// Library is the plan library; nil means no plans (achieve then hands
	// named goals to the GOAP planner).
	Library *Library
	// InitialGoals are added, as goal_added events in this order, at the
	// agent's first tick.
	InitialGoals []reactive.Goal
	// QuietBeliefs, when true, leaves out of the flight recorder the belief
	// events that no plan's kind and shorthand fit and no intention waits
	// for (sensors that change numbers every tick make many), and the
	// no-plan records of belief events whose plans' guards all refused.
	// False records every event.
	QuietBeliefs bool
	// MaxDepth bounds the nesting of sub-goals; 0 means DefaultMaxDepth.
	MaxDepth int
	// MaxResumes bounds the intention resumes per tick; 0 means
	// DefaultMaxResumes.
	MaxResumes int
	// MaxIntentions bounds an agent's live intentions plus queued goals
	// (a goal past it fails); a belief or goal_removed event past it
	// starts no plan, and the tick's first such event is a no-plan
	// record. 0 means DefaultMaxIntentions.
	MaxIntentions int
	// MaxEvents bounds the belief events waiting in an agent's queue; past
	// it, belief events are dropped (the state keeps the new value; only
	// the event that would tell the plans is lost) and the tick's first
	// drop is a no-plan record. 0 means DefaultMaxEvents.
	MaxEvents int
}

// Install makes every agent created from d afterwards (engine.NewAgent,
// engine.Agent.SetDomain) carry a Mind with cfg. Call it before d is
// shared.
func Install(d *engine.Domain, cfg *Config) {
	d.NewReactive = func(a *engine.Agent) engine.Reactive { return New(a, cfg) }
	if cfg != nil && cfg.Library.perceiving() {
		d.Memory.Notify = true // the agents' memories keep their changes for the plans
	}
}

// Attach gives agent a a new Mind with cfg, replacing its reactive layer,
// and returns it. Call it between ticks.
func Attach(a *engine.Agent, cfg *Config) *Mind {
	m := New(a, cfg)
	a.SetReactive(m)
	return m
}

// Of returns the agent's Mind, or nil when its reactive layer is none or
// another.
func Of(a *engine.Agent) *Mind {
	m, _ := a.Reactive().(*Mind)
	return m
}

// Mind is one agent's reactive layer (engine.Reactive): the queue of its
// events, its intentions and what they wait for. See the package
// documentation for the order of a tick. Not safe for concurrent use: the
// goroutine that ticks the agent owns it.
type Mind struct {
	a   *engine.Agent
	cfg *Config

	queue       []queued
	qhead       int
	intentions  []*Intention // alive, in start order
	queuedGoals int          // goal_added events in queue, not dispatched yet
	ready       []*Intention // woken by a done Pending during this step
	watchers    []*Pending   // wait_event waits, oldest first
	goap        []goapWait
	current     *Intention // the intention being resumed, or nil
	nextID      int
	steps       int
	now         float64
	started     bool
	resumes     int
	capped      bool
	dropping    bool // a belief event was dropped in this tick
	refusing    bool // a plan was refused at MaxIntentions in this tick
	// failed lists the triggers and guards whose errors were recorded in
	// this tick (see scriptFailed); Step empties it with the flags above.
	failed []failedFn
}

// failedFn is a plan's trigger (guard false) or guard that raised an
// error.
type failedFn struct {
	e     *entry
	guard bool
}

// planFnError is the error of a plan's trigger or guard, with the plan
// and which of the two raised it.
type planFnError struct {
	fn  failedFn
	msg string
}

func (e *planFnError) Error() string { return e.msg }

type queued struct {
	ev  Event
	run *goalRun
}

// goalRun is one goal being pursued: the Pending of whoever waits for it,
// how deeply it nests, and whether it is already being recovered.
type goalRun struct {
	goal       reactive.Goal
	waiter     *Pending
	depth      int
	recovering bool
	err        error
	by         int // the intention that asked for it, or 0
}

type goapWait struct {
	run  *goalRun
	goal *engine.Goal
}

// New returns a Mind for agent a; cfg may be nil (no plans). It does not
// install it: see Attach and Install.
func New(a *engine.Agent, cfg *Config) *Mind {
	if cfg == nil {
		cfg = &Config{}
	}
	return &Mind{a: a, cfg: cfg, now: a.Time()}
}

// Config returns the mind's configuration.
func (m *Mind) Config() *Config { return m.cfg }

func (m *Mind) maxDepth() int {
	if m.cfg.MaxDepth > 0 {
		return m.cfg.MaxDepth
	}
	return DefaultMaxDepth
}

func (m *Mind) maxResumes() int {
	if m.cfg.MaxResumes > 0 {
		return m.cfg.MaxResumes
	}
	return DefaultMaxResumes
}

// Believed implements engine.Reactive: it queues the belief event.
func (m *Mind) Believed(_ *engine.Agent, c reactive.BeliefChange) {
	k := BeliefAdded
	if c.Removed {
		k = BeliefRemoved
	}
	if limit := m.maxEvents(); len(m.queue)-m.qhead >= limit {
		if !m.dropping {
			m.dropping = true
			m.record(record.Event{Kind: record.EventNoPlan, Reason: "more than " + strconv.Itoa(limit) +
				" events waiting; " + k.String() + " " + c.Name +
				" and the later belief events of this tick are dropped (a plan that believes what triggers it?)"})
		}
		return
	}
	m.queue = append(m.queue, queued{ev: Event{Kind: k, Slot: c.Slot, Name: c.Name, Value: c.New, Old: c.Old, From: c.From}})
}

// perceptions queues the changes of the agent's perception memory since
// the last step, as perceived, lost and forgotten events, after bringing
// the memory to the agent's time (so things are lost and forgotten on
// schedule). The queue's limit applies as to belief events.
func (m *Mind) perceptions(a *engine.Agent) {
	mem := a.Memory()
	mem.Notify = true
	mem.Update(a.Time())
	for _, c := range mem.TakeChanges() {
		k := kindOfChange(c.Kind)
		if limit := m.maxEvents(); len(m.queue)-m.qhead >= limit {
			if !m.dropping {
				m.dropping = true
				m.record(record.Event{Kind: record.EventNoPlan, Reason: "more than " + strconv.Itoa(limit) +
					" events waiting; " + k.String() + " " + c.Thing.Source + " and the later events of this tick are dropped"})
			}
			continue
		}
		m.queue = append(m.queue, queued{ev: Event{Kind: k, Slot: -1, Name: c.Thing.Source, Thing: c.Thing}})
	}
}

func (m *Mind) maxEvents() int {
	if m.cfg.MaxEvents > 0 {
		return m.cfg.MaxEvents
	}
	return DefaultMaxEvents
}

// Achieve implements engine.Reactive: a top-level goal, as AlsoAchieve.
func (m *Mind) Achieve(_ *engine.Agent, g reactive.Goal) { m.AlsoAchieve(g) }

// AlsoAchieve adds g as a top-level goal (alsoAchieve in docs/reactive-plans.md): a
// goal_added event dispatched in this tick's reactive phase (or the next
// tick's, when called from an action body), whose intention nobody waits
// for.
func (m *Mind) AlsoAchieve(g reactive.Goal) { m.addGoal(g, nil, 0, 0) }

// Await adds g as a sub-goal of the intention being resumed (or of the
// action body that calls it) and returns the Pending that is done when
// the goal completes (with the result of the body that completed it) or
// fails (with why). Called from an intention, that intention is resumed
// in the same tick once the Pending is done.
func (m *Mind) Await(g reactive.Goal) *Pending {
	p := &Pending{m: m, owner: m.current}
	depth, by := 0, 0
	if m.current != nil {
		depth, by = m.current.depth+1, m.current.ID
	}
	m.addGoal(g, p, depth, by)
	return p
}

// WaitEvent returns a Pending that is done at the first event, after this
// call, for which match returns true (Pending.Event returns it), or, when
// timeout > 0, after timeout seconds of game time (Pending.Event then
// reports false). An error from match ends the wait with that error.
// Events reach the plans first, then the waits, oldest first; one event
// may end several waits.
func (m *Mind) WaitEvent(match func(*Event) (bool, error), timeout float64) *Pending {
	p := &Pending{m: m, owner: m.current, match: match, deadline: math.Inf(1)}
	if timeout > 0 {
		p.deadline = m.now + timeout
	}
	m.watchers = append(m.watchers, p)
	return p
}

func (m *Mind) addGoal(g reactive.Goal, waiter *Pending, depth, by int) {
	run := &goalRun{goal: g, waiter: waiter, depth: depth, by: by}
	if depth > m.maxDepth() {
		err := errors.New("bdi: goal " + g.String() + ": sub-goals nested deeper than " + strconv.Itoa(m.maxDepth()) +
			" (a plan that achieves its own goal forever?)")
		m.record(record.Event{Kind: record.EventGoalFailed, Goal: g.String(), Intention: by, Reason: err.Error()})
		m.finish(run, nil, err)
		return
	}
	if limit := m.maxIntentions(); len(m.intentions)+m.queuedGoals >= limit {
		err := errors.New("bdi: goal " + g.String() + ": more than " + strconv.Itoa(limit) +
			" intentions and queued goals at once (a plan that adds goals faster than they finish?)")
		m.record(record.Event{Kind: record.EventGoalFailed, Goal: g.String(), Intention: by, Reason: err.Error()})
		m.finish(run, nil, err)
		return
	}
	m.queuedGoals++
	m.queue = append(m.queue, queued{ev: Event{Kind: GoalAdded, Goal: g}, run: run})
}

func (m *Mind) maxIntentions() int {
	if m.cfg.MaxIntentions > 0 {
		return m.cfg.MaxIntentions
	}
	return DefaultMaxIntentions
}

// Step implements engine.Reactive: the reactive phase of a tick. In
// order: the initial goals on the first tick; the queued events,
// dispatched one by one (each new intention runs until it first
// suspends); one resume with dt of every older intention, in start order;
// timed-out event waits and GOAP goals that completed or failed; then
// again the queued events and the intentions woken in this tick, until
// none is left or MaxResumes is reached.
func (m *Mind) Step(a *engine.Agent, dt float64) {
	m.steps++
	m.now = a.Time() + dt
	m.resumes, m.capped, m.dropping, m.refusing, m.failed = 0, false, false, false, m.failed[:0]
	if !m.started {
		m.started = true
		for _, g := range m.cfg.InitialGoals {
			m.addGoal(g, nil, 0, 0)
		}
	}
	if m.cfg.Library.perceiving() {
		m.perceptions(a)
	}
	m.drain()
	for _, in := range m.intentions[:len(m.intentions):len(m.intentions)] {
		if in.done || in.born == m.steps || m.capped {
			continue
		}
		in.ready = false
		m.resume(in, dt)
		m.drain()
	}
	m.timeouts()
	m.checkGOAP()
	m.drain()
	m.compact()
}

// drain dispatches the queued events and resumes the woken intentions
// until there are none.
func (m *Mind) drain() {
	for !m.capped {
		if m.qhead < len(m.queue) {
			// The event stays in place while it is dispatched (no copy to
			// the heap); appends meanwhile may move the queue, not it.
			i, q := m.qhead, &m.queue[m.qhead]
			m.qhead++
			if q.ev.Kind == GoalAdded && q.run != nil {
				m.queuedGoals--
			}
			m.dispatch(&q.ev, q.run)
			m.queue[i] = queued{}
			continue
		}
		if len(m.ready) > 0 {
			in := m.ready[0]
			m.ready = m.ready[1:]
			if in.ready && !in.done {
				in.ready = false
				m.resume(in, 0)
			}
			continue
		}
		break
	}
	if m.qhead == len(m.queue) {
		m.queue, m.qhead = m.queue[:0], 0
	}
	if len(m.ready) == 0 {
		m.ready = m.ready[:0:0]
	}
}

func (m *Mind) compact() {
	live := m.intentions[:0]
	for _, in := range m.intentions {
		if !in.done {
			live = append(live, in)
		}
	}
	clear(m.intentions[len(live):])
	m.intentions = live
	ws := m.watchers[:0]
	for _, p := range m.watchers {
		if !p.done {
			ws = append(ws, p)
		}
	}
	clear(m.watchers[len(ws):])
	m.watchers = ws
}

func (m *Mind) record(e record.Event) {
	if m.a.Recording() {
		m.a.Record(e)
	}
}

func (m *Mind) recordEvent(ev *Event, run *goalRun, quiet bool) {
	if !m.a.Recording() || quiet {
		return
	}
	e := record.Event{}
	switch ev.Kind {
	case GoalAdded:
		e.Kind, e.Goal = record.EventGoalAdded, ev.Goal.String()
		if run != nil {
			e.Intention = run.by
		}
	case GoalFailed:
		e.Kind, e.Goal, e.Reason = record.EventGoalFailed, ev.Goal.String(), ev.Err.Error()
	case GoalRemoved:
		e.Kind, e.Goal, e.Value = record.EventGoalRemoved, ev.Goal.String(), Describe(ev.Result)
	case BeliefAdded:
		e.Kind, e.Belief, e.Value, e.Peer = record.EventBeliefAdded, ev.Name, shortValue(ev.Value), ev.From
		if ev.Old.IsKnown() {
			e.Old = shortValue(ev.Old)
		}
	case BeliefRemoved:
		e.Kind, e.Belief, e.Old, e.Peer = record.EventBeliefRemoved, ev.Name, shortValue(ev.Old), ev.From
	case Perceived, Lost, Forgotten:
		r := &ev.Thing
		e.Kind = record.EventPerceived + record.EventKind(ev.Kind-Perceived) // perceived, lost, forgotten in both
		e.Belief, e.Value = ev.Name, "("+expr.ShortNumber(r.X)+", "+expr.ShortNumber(r.Y)+")"
		e.Reason = r.Sense.String() + ", age " + expr.ShortNumber(r.Age) + " s, confidence " + expr.ShortNumber(r.Confidence)
	}
	m.a.Record(e)
}

// dispatch hands one event to the plan library, then to the waits.
func (m *Mind) dispatch(ev *Event, run *goalRun) {
	var cands []*entry
	if m.cfg.Library != nil {
		cands = m.cfg.Library.candidates(ev)
	}
	quiet := ev.Kind.IsBelief() && m.cfg.QuietBeliefs && len(cands) == 0 && len(m.watchers) == 0
	m.recordEvent(ev, run, quiet)
	e, ctx, why, err := m.choose(cands, ev)
	switch ev.Kind {
	case GoalAdded:
		switch {
		case err != nil:
			m.scriptFailed(ev, err, "")
			m.fail(run, err)
		case e != nil:
			m.start(e, ev, ctx, run)
		default:
			if g := m.a.Domain.Goal(ev.Goal.Name()); g != nil && !ev.Goal.Tuple {
				m.pursue(run, g, why)
				break
			}
			msg := "bdi: goal " + ev.Goal.String() + ": " + why + ", and no goal of that name in the role's goals"
			if ev.Goal.Tuple {
				msg = "bdi: goal " + ev.Goal.String() + ": " + why
			}
			m.noPlan(ev, msg)
			m.fail(run, errors.New(msg))
		}
	case GoalFailed:
		switch {
		case e != nil && err == nil:
			m.start(e, ev, ctx, run)
		default:
			if err != nil {
				m.scriptFailed(ev, err, ": the goal fails")
			} else {
				m.noPlan(ev, why+": the goal fails")
			}
			m.finish(run, nil, run.err)
		}
	default:
		if err != nil {
			m.scriptFailed(ev, err, "")
		} else if e != nil && len(m.intentions) >= m.maxIntentions() {
			// Goals are refused at addGoal; a plan for a belief or a
			// removed goal is refused here, or a trigger storm would keep
			// a coroutine for every event it raises.
			if !m.refusing {
				m.refusing = true
				m.noPlan(ev, "more than "+strconv.Itoa(m.maxIntentions())+" intentions at once; plan \""+e.label+
					"\" and the other plans of this tick's "+ev.Kind.String()+" events do not start (a plan that believes what triggers it?)")
			}
		} else if e != nil {
			m.start(e, ev, ctx, nil)
		} else if why != "no relevant plan" && !(m.cfg.QuietBeliefs && ev.Kind.IsBelief()) {
			m.noPlan(ev, why+": ignored")
		}
	}
	m.offer(ev)
}

func (m *Mind) noPlan(ev *Event, why string) {
	e := record.Event{Kind: record.EventNoPlan, Reason: why}
	if ev.Kind.IsGoal() {
		e.Goal = ev.Goal.String()
	} else {
		e.Belief = ev.Name
	}
	m.record(e)
}

// scriptFailed records the no-plan record of a plan's trigger or guard
// error err (a *planFnError), with suffix after the message: once per
// tick and function, so a failing guard that meets every event of a
// belief storm is one record a tick, not one an event (each goal it fails
// still has its goal-failed record).
func (m *Mind) scriptFailed(ev *Event, err error, suffix string) {
	pe, ok := err.(*planFnError)
	if !ok {
		m.noPlan(ev, err.Error()+suffix)
		return
	}
	if slices.Contains(m.failed, pe.fn) {
		return
	}
	m.failed = append(m.failed, pe.fn)
	m.noPlan(ev, pe.msg+suffix)
}

// choose returns the first applicable plan and its context, or why none
// applied. A trigger or guard error (a *planFnError) stops the choice for
// a goal event and is passed over (recorded) for a belief event; a plan
// whose guard failed is not one whose guard refused.
func (m *Mind) choose(cands []*entry, ev *Event) (*entry, any, string, error) {
	if len(cands) == 0 {
		return nil, nil, "no relevant plan", nil
	}
	relevant, failed := 0, 0
	for _, e := range cands {
		p := e.plan
		var ctx any
		if p.Trigger != nil {
			c, err := p.Trigger(m.a, ev)
			if err != nil {
				err = &planFnError{fn: failedFn{e: e}, msg: "plan \"" + e.label + "\" trigger: " + err.Error()}
				if ev.Kind.IsGoal() {
					return nil, nil, "", err
				}
				m.scriptFailed(ev, err, "")
				continue
			}
			ctx = c
		} else if ev.Kind.IsGoal() {
			ctx = ev.Goal
		} else {
			ctx = *ev
		}
		if ctx == nil {
			continue
		}
		relevant++
		if p.Guard != nil {
			c, err := p.Guard(m.a, ev, ctx)
			if err != nil {
				err = &planFnError{fn: failedFn{e: e, guard: true}, msg: "plan \"" + e.label + "\" guard: " + err.Error()}
				if ev.Kind.IsGoal() {
					return nil, nil, "", err
				}
				m.scriptFailed(ev, err, "")
				failed++
				continue
			}
			if c == nil {
				continue
			}
			ctx = c
		}
		return e, ctx, "", nil
	}
	if relevant == 0 {
		return nil, nil, "no relevant plan", nil
	}
	switch {
	case failed == relevant:
		// Every relevant plan's guard failed, and each is recorded.
		return nil, nil, "no relevant plan", nil
	case failed > 0:
		return nil, nil, "no applicable plan (" + strconv.Itoa(relevant) + " relevant; guards: " + strconv.Itoa(relevant-failed) +
			" refused, " + strconv.Itoa(failed) + " failed)", nil
	}
	return nil, nil, "no applicable plan (" + strconv.Itoa(relevant) + " relevant, every guard refused)", nil
}

func (m *Mind) start(e *entry, ev *Event, ctx any, run *goalRun) {
	m.nextID++
	in := &Intention{ID: m.nextID, plan: e, event: *ev, run: run, born: m.steps}
	if run != nil {
		in.depth = run.depth
	}
	subject := record.Event{Kind: record.EventPlanChosen, Action: e.label, Intention: in.ID}
	if ev.Kind.IsGoal() {
		subject.Goal = ev.Goal.String()
	} else {
		subject.Belief = ev.Name
	}
	m.record(subject)
	task, err := e.plan.Body.Start(m.a, &in.event, ctx)
	if err != nil {
		in.done = true
		m.record(record.Event{Kind: record.EventIntentionFailed, Action: e.label, Intention: in.ID, Reason: err.Error()})
		if run != nil {
			m.fail(run, err)
		}
		return
	}
	in.task = task
	m.record(record.Event{Kind: record.EventIntentionStart, Action: e.label, Intention: in.ID, Goal: subject.Goal, Belief: subject.Belief})
	m.intentions = append(m.intentions, in)
	m.resume(in, 0)
}

func (m *Mind) resume(in *Intention, dt float64) {
	if m.resumes >= m.maxResumes() {
		if !m.capped {
			m.record(record.Event{Kind: record.EventNoPlan, Reason: "more than " + strconv.Itoa(m.maxResumes()) +
				" intention resumes in one tick; the rest waits for the next tick"})
		}
		m.capped = true
		in.ready = true
		return
	}
	m.resumes++
	prev := m.current
	m.current = in
	st, err := in.task.Resume(dt)
	m.current = prev
	m.a.ObserveBeliefs()
	switch st {
	case engine.Running:
		if s, ok := in.task.(Suspender); ok {
			if n, what := s.Suspension(); n != in.suspensions {
				in.suspensions, in.waiting = n, what
				m.record(record.Event{Kind: record.EventIntentionSuspend, Action: in.plan.label, Intention: in.ID, Reason: what})
			}
		}
	case engine.Succeeded:
		in.done = true
		res := in.task.Result()
		m.record(record.Event{Kind: record.EventIntentionDone, Action: in.plan.label, Intention: in.ID, Value: Describe(res)})
		if in.run != nil {
			m.complete(in.run, res)
		}
	default:
		in.done = true
		if err == nil {
			err = errors.New("bdi: the body reported " + st.String())
		}
		m.record(record.Event{Kind: record.EventIntentionFailed, Action: in.plan.label, Intention: in.ID, Reason: err.Error()})
		if in.run != nil {
			m.fail(in.run, err)
		}
	}
}

// complete ends a goal with a result: its waiter is done, and a
// goal_removed event follows.
func (m *Mind) complete(run *goalRun, res any) {
	m.finish(run, res, nil)
	m.queue = append(m.queue, queued{ev: Event{Kind: GoalRemoved, Goal: run.goal, Result: res}})
}

// fail fails a goal: the first time, goal_failed plans get the chance to
// recover it; a failure while recovering ends it with the error.
func (m *Mind) fail(run *goalRun, err error) {
	if run == nil {
		return
	}
	if run.recovering {
		m.finish(run, nil, err)
		return
	}
	run.recovering, run.err = true, err
	m.queue = append(m.queue, queued{ev: Event{Kind: GoalFailed, Goal: run.goal, Err: err}, run: run})
}

func (m *Mind) finish(run *goalRun, res any, err error) {
	if run != nil && run.waiter != nil {
		run.waiter.finish(res, err, nil, false)
	}
}

func (m *Mind) pursue(run *goalRun, g *engine.Goal, why string) {
	m.record(record.Event{Kind: record.EventPlanChosen, Goal: g.Name, Action: "GOAP planner",
		Reason: why + ": the goal is handed to the GOAP planner"})
	if g.Satisfied(m.a.State) {
		m.complete(run, nil)
		return
	}
	m.a.Pursue(g)
	m.goap = append(m.goap, goapWait{run: run, goal: g})
}

func (m *Mind) checkGOAP() {
	if len(m.goap) == 0 {
		return
	}
	keep := m.goap[:0]
	var ended []goapWait
	for _, w := range m.goap {
		if w.goal.Satisfied(m.a.State) {
			ended = append(ended, w)
			m.complete(w.run, nil)
			continue
		}
		if reason, failed := m.a.PursuitFailed(w.goal); failed {
			ended = append(ended, w)
			m.fail(w.run, errors.New("bdi: goal "+w.goal.Name+": the GOAP planner found no plan: "+reason))
			continue
		}
		keep = append(keep, w)
	}
	clear(m.goap[len(keep):])
	m.goap = keep
	for _, w := range ended {
		still := false
		for _, k := range m.goap {
			still = still || k.goal == w.goal
		}
		if !still {
			m.a.Release(w.goal)
		}
	}
}

// offer hands an event to the waits, oldest first.
func (m *Mind) offer(ev *Event) {
	for _, p := range m.watchers {
		if p.done {
			continue
		}
		ok, err := p.match(ev)
		switch {
		case err != nil:
			p.finish(nil, err, nil, false)
		case ok:
			cp := *ev
			p.finish(nil, nil, &cp, false)
		}
	}
}

func (m *Mind) timeouts() {
	for _, p := range m.watchers {
		if !p.done && m.now+1e-9 >= p.deadline {
			p.finish(nil, nil, nil, true)
		}
	}
}

func (m *Mind) wake(in *Intention) {
	if in != nil && !in.done && !in.ready {
		in.ready = true
		m.ready = append(m.ready, in)
	}
}

// Stop stops every intention (a replaced domain): their tasks end and
// nothing waits any more. The engine calls it through SetReactive.
func (m *Mind) Stop(*engine.Agent) {
	for _, in := range m.intentions {
		if !in.done && in.task != nil {
			in.done = true
			in.task.Stop()
		}
	}
	m.intentions, m.watchers, m.ready, m.queue, m.qhead, m.queuedGoals = nil, nil, nil, nil, 0, 0
	for _, w := range m.goap {
		m.a.Release(w.goal)
	}
	m.goap = nil
}

// Intentions returns the live intentions, oldest first. The slice is a
// copy; the intentions are the mind's: read them only.
func (m *Mind) Intentions() []*Intention {
	var out []*Intention
	for _, in := range m.intentions {
		if !in.done {
			out = append(out, in)
		}
	}
	return out
}

// Busy reports whether the mind has live intentions or events to
// dispatch; World.Finish reports an agent with a busy mind as RUNNING.
func (m *Mind) Busy() bool {
	return m.qhead < len(m.queue) || slices.ContainsFunc(m.intentions, func(in *Intention) bool { return !in.done })
}

// Current returns the intention being resumed now, or nil (outside the
// reactive phase, or in an action body).
func (m *Mind) Current() *Intention { return m.current }

// Intention is one running plan body: an intention of the agent.
// It belongs to its agent's reactive layer and is used only from the
// goroutine that ticks that agent; it is not safe for concurrent use.
type Intention struct {
	ID          int // from 1, per agent, in start order
	plan        *entry
	event       Event
	run         *goalRun
	task        Task
	born        int
	depth       int
	ready       bool
	done        bool
	suspensions int
	waiting     string
}

// Plan returns the plan the intention runs and its name for traces.
func (in *Intention) Plan() (*Plan, string) { return in.plan.plan, in.plan.label }

// Event returns the event the intention reacts to.
func (in *Intention) Event() Event { return in.event }

// Waiting says on what the intention last suspended ("" before its first
// suspension, or for a Task without Suspender).
func (in *Intention) Waiting() string { return in.waiting }

// Depth is how deeply the intention's goal nests: 0 for a top-level goal
// or a belief event.
func (in *Intention) Depth() int { return in.depth }

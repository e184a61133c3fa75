package bdi

import (
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
)

// Plan is one plan of a library (a trigger, a guard and a
// body, as docs/reactive-plans.md describes): the kind of event it reacts to (On), an optional
// shorthand filter (Goal for goal events: the goal's name, or the first
// element of a tuple goal, equals it; Belief for belief events: the
// variable's name equals it; Source for perception events: the thing's
// source equals it), an optional Trigger and Guard, and a Body.
//
// A plan is relevant for an event when the shorthand matches and Trigger
// (when set) returns a non-nil context; applicable when Guard (when set)
// also returns a non-nil context, which may refine the trigger's. Without
// a Trigger the context is the goal (a reactive.Goal) for goal events
// and the Event for belief and perception events. An error from Trigger or Guard fails a
// goal event's goal with that error (so failure plans may recover it) and
// makes the plan not relevant for a belief event; either way it is
// recorded. Trigger and Guard must not change the agent.
// The reactive layer never changes a Plan, so one library is shared by every
// agent of a domain and every worker goroutine; do not change it while
// agents tick.
type Plan struct {
	Name    string // optional, for traces
	On      Kind
	Goal    string
	Belief  string
	Source  string // perception events: the thing's source equals it
	Trigger func(a *engine.Agent, ev *Event) (ctx any, err error)
	Guard   func(a *engine.Agent, ev *Event, ctx any) (any, error)
	Body    Body
	Pos     engine.Pos // where the plan is declared, for messages
}

// Body is what an intention runs: Start begins one run for an event and
// its context. An error means the run could not start (a broken script):
// the intention fails at once.
// With World.Workers above 1, Start is called for different agents from
// different goroutines at once, so a Body that agents share must be safe for
// concurrent use.
type Body interface {
	Start(a *engine.Agent, ev *Event, ctx any) (Task, error)
}

// Task is one run of a plan body, an intention's coroutine. The agent's
// Mind resumes it once per tick with the tick's dt in seconds (and again
// with dt 0 in the same tick when something it waits for, a Pending, is
// done) until it reports Succeeded or Failed. A Lua task runs its
// coroutine only when what it waits for is done, so a resume is cheap
// while it waits. Not safe for concurrent use.
type Task interface {
	// Resume advances the run; a non-nil error comes with Failed.
	Resume(dt float64) (engine.Status, error)
	// Result is the value the body returned, after Succeeded.
	Result() any
	// Stop ends the run early; it is not resumed afterwards.
	Stop()
}

// Suspender is an optional interface of a Task: Suspension returns how
// many times the body has suspended so far and on what, the last time
// ("wait 0.2 s", "achieve prepare"), for the traces.
// It is called from the goroutine that ticks the agent, like the Task it
// belongs to.
type Suspender interface {
	Suspension() (n int, what string)
}

// Func is a Body that completes in one resume: it runs the function once
// and succeeds with its result, or fails with its error.
// The function is called for different agents from different goroutines at
// once when World.Workers is above 1.
type Func func(a *engine.Agent, ev *Event, ctx any) (any, error)

// Start implements Body.
func (f Func) Start(a *engine.Agent, ev *Event, ctx any) (Task, error) {
	return &funcTask{f: f, a: a, ev: *ev, ctx: ctx}, nil
}

type funcTask struct {
	f   Func
	a   *engine.Agent
	ev  Event
	ctx any
	res any
}

func (t *funcTask) Resume(float64) (engine.Status, error) {
	res, err := t.f(t.a, &t.ev, t.ctx)
	if err != nil {
		return engine.Failed, err
	}
	t.res = res
	return engine.Succeeded, nil
}
func (t *funcTask) Result() any { return t.res }
func (t *funcTask) Stop()       {}

// entry is a plan of a library with its place and its name for traces.
type entry struct {
	plan  *Plan
	index int
	label string
}

// Library is a compiled plan library: the plans in priority order (the
// first applicable one wins), indexed by event kind and by the goal or
// belief their shorthand names, so an event reaches only the plans that
// may be relevant, still in library order. A Library is read-only and
// safe for concurrent use; every agent of a domain shares one.
type Library struct {
	entries []*entry
	// Per kind: plans without a shorthand; per goal name and per belief
	// slot, the plans with that shorthand merged in order with those.
	any     [numKinds][]*entry
	goals   [numKinds]map[string][]*entry // per goal name, or per source for perception events
	beliefs [numKinds][][]*entry
	// perceives is set when some plan reacts to the perception memory.
	perceives bool
}

// NewLibrary checks and indexes plans for domain d (whose state variables
// are the beliefs). Every problem is reported at once in an
// *engine.CompileError, each at its plan's Pos: an invalid On, a Goal
// filter on a belief event or a Belief filter on a goal event, a Belief
// that names no variable of d, a missing Body.
func NewLibrary(d *engine.Domain, plans []*Plan) (*Library, error) {
	l := &Library{}
	var problems []engine.Problem
	add := func(p *Plan, msg string) { problems = append(problems, engine.Problem{Pos: p.Pos, Msg: msg}) }
	for i, p := range plans {
		e := &entry{plan: p, index: i, label: p.Name}
		if e.label == "" {
			e.label = "plan #" + strconv.Itoa(i+1)
		}
		what := "plan \"" + e.label + "\""
		if p.Name == "" {
			what = e.label
		}
		switch {
		case p.On == 0 || p.On >= numKinds:
			add(p, what+": on must be one of goal_added, goal_failed, goal_removed, belief_added, belief_removed, perceived, lost, forgotten")
		case p.On.IsBelief() && p.Goal != "":
			add(p, what+": a goal filter on a belief event (on = "+p.On.String()+"): use belief = \"name\", or on = goal_added")
		case p.On.IsGoal() && p.Belief != "":
			add(p, what+": a belief filter on a goal event (on = "+p.On.String()+"): use goal = \"name\", or on = belief_added")
		case p.On.IsPerception() && (p.Goal != "" || p.Belief != ""):
			add(p, what+": a goal or belief filter on a perception event (on = "+p.On.String()+"): use source = \"name\"")
		case !p.On.IsPerception() && p.Source != "":
			add(p, what+": a source filter on a "+p.On.String()+" event: source filters perceived, lost and forgotten")
		}
		l.perceives = l.perceives || p.On.IsPerception()
		if p.Belief != "" {
			if _, ok := d.Schema.Lookup(p.Belief); !ok {
				add(p, what+": belief \""+p.Belief+"\" is no state variable of the role"+engine.DidYouMean(p.Belief, d.Schema.Names()))
			}
		}
		if p.Body == nil {
			add(p, what+": body is required (a function)")
		}
		l.entries = append(l.entries, e)
	}
	if len(problems) > 0 {
		return nil, &engine.CompileError{Problems: problems}
	}
	n := d.Schema.Len()
	for k := Kind(1); k < numKinds; k++ {
		for _, e := range l.entries {
			if e.plan.On == k && e.plan.Goal == "" && e.plan.Belief == "" && e.plan.Source == "" {
				l.any[k] = append(l.any[k], e)
			}
		}
		for _, e := range l.entries {
			p := e.plan
			if p.On != k {
				continue
			}
			switch {
			case p.Source != "":
				if l.goals[k] == nil {
					l.goals[k] = map[string][]*entry{}
				}
				if _, done := l.goals[k][p.Source]; !done {
					l.goals[k][p.Source] = l.merged(k, func(q *Plan) bool { return q.Source == p.Source })
				}
			case p.Goal != "":
				if l.goals[k] == nil {
					l.goals[k] = map[string][]*entry{}
				}
				if _, done := l.goals[k][p.Goal]; !done {
					l.goals[k][p.Goal] = l.merged(k, func(q *Plan) bool { return q.Goal == p.Goal })
				}
			case p.Belief != "":
				if l.beliefs[k] == nil {
					l.beliefs[k] = make([][]*entry, n)
					for s := range l.beliefs[k] {
						l.beliefs[k][s] = l.any[k]
					}
				}
				slot, _ := d.Schema.Lookup(p.Belief)
				l.beliefs[k][slot] = l.merged(k, func(q *Plan) bool { return q.Belief == p.Belief })
			}
		}
	}
	return l, nil
}

// merged returns, in library order, the plans of kind k that keep is true
// for or that have no shorthand.
func (l *Library) merged(k Kind, keep func(*Plan) bool) []*entry {
	var out []*entry
	for _, e := range l.entries {
		if e.plan.On == k && (keep(e.plan) || e.plan.Goal == "" && e.plan.Belief == "" && e.plan.Source == "") {
			out = append(out, e)
		}
	}
	return out
}

// perceiving reports whether some plan of the library (which may be nil)
// reacts to the perception memory.
func (l *Library) perceiving() bool { return l != nil && l.perceives }

// Len returns the number of plans.
func (l *Library) Len() int { return len(l.entries) }

// Plans returns the plans in library order.
func (l *Library) Plans() []*Plan {
	out := make([]*Plan, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.plan
	}
	return out
}

// candidates returns the plans whose kind and shorthand fit the event, in
// library order. The slice is the library's.
func (l *Library) candidates(ev *Event) []*entry {
	k := ev.Kind
	if k == 0 || k >= numKinds {
		return nil
	}
	if k.IsBelief() {
		if bs := l.beliefs[k]; bs != nil && ev.Slot >= 0 && ev.Slot < len(bs) {
			return bs[ev.Slot]
		}
		return l.any[k]
	}
	key := ev.Name
	if k.IsGoal() {
		key = ev.Goal.Name()
	}
	if gs := l.goals[k]; gs != nil {
		if c, ok := gs[key]; ok {
			return c
		}
	}
	return l.any[k]
}

package engine

import "errors"

// Agent is one NPC: a domain (its roles), its own state, and the plan and
// action body it is running. Tick advances it by one game tick. An Agent is
// not safe for concurrent use; a World ticks each agent from one goroutine.
type Agent struct {
	Name   string
	Domain *Domain
	State  State
	// Data is for the embedding game (the demo keeps its soldier here).
	Data any
	// RetryDelay is how long, in seconds, the agent waits after a failed
	// action before it plans again. Zero means 0.5 s.
	RetryDelay float64
	// OnEvent, when set, receives every decision. The World sets it.
	OnEvent func(Event)

	planner *Planner
	utility *UtilityPlanner
	plan    []*Action
	goal    *Goal
	step    int
	task    Task
	running *Action
	wait    float64 // seconds left before planning again

	failedState State // the state at the last failure to plan
	tick        int
	time        float64
}

// NewAgent returns an agent with its own copy of the domain's initial
// state.
func NewAgent(name string, d *Domain) *Agent {
	return &Agent{Name: name, Domain: d, State: d.NewState(), planner: NewPlanner(d), utility: NewUtilityPlanner(d)}
}

// Planner returns the agent's GOAP planner, to change its limits.
func (a *Agent) Planner() *Planner { return a.planner }

// Utility returns the agent's utility planner, to change its considerations.
func (a *Agent) Utility() *UtilityPlanner { return a.utility }

// Running returns the action running now, or nil.
func (a *Agent) Running() *Action { return a.running }

// CurrentGoal returns the goal the current plan serves, or nil.
func (a *Agent) CurrentGoal() *Goal { return a.goal }

// CurrentPlan returns the remaining steps, the running one first. The slice
// is the agent's: do not modify it.
func (a *Agent) CurrentPlan() []*Action {
	if a.step < len(a.plan) {
		return a.plan[a.step:]
	}
	return nil
}

// Time returns the agent's clock in seconds: the sum of the dt of its ticks.
func (a *Agent) Time() float64 { return a.time }

// Get returns a state variable by name (Unknown when absent).
func (a *Agent) Get(name string) Value { return a.State.Get(a.Domain.Schema, name) }

// Set writes a state variable by name and reports whether the domain has
// it.
func (a *Agent) Set(name string, v Value) bool { return a.State.Set(a.Domain.Schema, name, v) }

func (a *Agent) emit(e Event) {
	if a.OnEvent == nil {
		return
	}
	e.Tick, e.Time, e.Agent = a.tick, a.time, a.Name
	a.OnEvent(e)
}

// Tick advances the agent by dt seconds (dt > 0): it plans when it has no
// plan, starts the next step when none runs, and resumes the running body
// once. A body that fails fails its step, never the agent: the agent waits
// RetryDelay and plans again.
func (a *Agent) Tick(dt float64) {
	a.tick++
	defer func() { a.time += dt }()
	if a.task == nil {
		if a.wait > 0 {
			a.wait -= dt
			return
		}
		if !a.nextStep() {
			return
		}
	}
	a.resume(dt)
}

// nextStep makes sure a task is running; it reports whether one is.
func (a *Agent) nextStep() bool {
	if a.step >= len(a.plan) && !a.decide() {
		return false
	}
	act := a.plan[a.step]
	if !act.Pre.Eval(a.State) {
		if a.goal == nil || !a.goal.Satisfied(a.State) {
			a.emit(Event{Kind: EventStale, Goal: goalName(a.goal), Action: act.Name, Reason: "precondition " + act.Pre.Source() + " no longer holds"})
		}
		a.plan, a.step = a.plan[:0], 0
		if !a.decide() {
			return false
		}
		act = a.plan[a.step]
	}
	if act.Body == nil {
		a.fail(act, errors.New("engine: action \""+act.Name+"\" has no body"))
		return false
	}
	task, err := act.Body.Start(a, act)
	if err != nil {
		a.fail(act, err)
		return false
	}
	a.task, a.running = task, act
	a.emit(Event{Kind: EventStart, Goal: goalName(a.goal), Action: act.Name})
	return true
}

func (a *Agent) resume(dt float64) {
	st, err := a.task.Resume(dt)
	switch st {
	case Running:
		return
	case Succeeded:
		act := a.running
		a.task, a.running = nil, nil
		a.step++
		a.emit(Event{Kind: EventFinish, Goal: goalName(a.goal), Action: act.Name})
	default:
		if err == nil {
			err = errors.New("action reported " + st.String())
		}
		act := a.running
		a.task, a.running = nil, nil
		a.fail(act, err)
	}
}

func (a *Agent) fail(act *Action, err error) {
	a.emit(Event{Kind: EventFail, Goal: goalName(a.goal), Action: act.Name, Reason: err.Error()})
	a.plan, a.step, a.goal = a.plan[:0], 0, nil
	a.wait = a.RetryDelay
	if a.wait == 0 {
		a.wait = 0.5
	}
}

func goalName(g *Goal) string {
	if g == nil {
		return ""
	}
	return g.Name
}

// decide picks a new plan: the highest-priority unsatisfied goal that has a
// plan (decide "goap"), the best utility pick ("utility"), or goals first
// and the utility pick when no goal needs or has a plan ("hybrid"). A failure
// to plan is reported once per state: the agent asks again only when its
// state changes.
func (a *Agent) decide() bool {
	a.plan, a.step, a.goal = a.plan[:0], 0, nil
	if a.failedState != nil && equalStates(a.failedState, a.State) {
		return false
	}
	mode := a.Domain.Decide
	if mode != "utility" && a.planGoals() {
		return true
	}
	if mode != "goap" {
		if best := a.utility.SelectBestAction(a.State); best != nil {
			a.plan = append(a.plan, best)
			a.emit(Event{Kind: EventPick, Action: best.Name, Score: a.utility.Score(best, a.State)})
			return true
		}
	}
	a.failedState = append(a.failedState[:0], a.State...)
	return false
}

func (a *Agent) planGoals() bool {
	anyUnsatisfied := false
	for _, g := range a.Domain.ByPrio {
		if g.Satisfied(a.State) {
			continue
		}
		anyUnsatisfied = true
		p, err := a.planner.PlanFor(g, a.State)
		if err != nil {
			var pe *PlanError
			reason := err.Error()
			if errors.As(err, &pe) {
				reason = string(pe.Reason) + ": " + pe.Detail
			}
			a.emit(Event{Kind: EventPlanFailed, Goal: g.Name, Reason: reason})
			continue
		}
		a.plan = append(a.plan[:0], p.Steps...)
		a.goal, a.failedState = g, nil
		a.emit(Event{Kind: EventPlan, Goal: g.Name, Plan: p.Names(), Cost: p.Cost})
		return true
	}
	if !anyUnsatisfied && a.Domain.Decide == "goap" {
		a.emit(Event{Kind: EventIdle})
	}
	return false
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

package engine

import (
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Sentinel errors of PlanExecutor, wrapped in an *ActionError; test them
// with errors.Is.
var (
	// ErrRestricted: the action is Restricted, so executors refuse it and
	// any plan containing it.
	ErrRestricted = newError("the action is restricted; executors refuse it")
	// ErrNotExecutable: the action has no Body. It can be planned, not run.
	ErrNotExecutable = newError("the action has no body, so it cannot run")
	// ErrTooManyResumes: the action's task was still running after
	// PlanExecutor.MaxResumes resumes; it was interrupted.
	ErrTooManyResumes = newError("the action was still running after the resume limit")
)

// ActionError is an action that a PlanExecutor refused or that failed while
// it ran: Err is ErrRestricted, ErrNotExecutable, ErrTooManyResumes, the
// error of Body.Start or Task.Resume, or an error saying the task reported
// Failed.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type ActionError struct {
	Action string
	Err    error
}

// Message is the error without the package prefix: `action "name": `
// and Err's message (without its own prefix when Err has a Message
// method).
func (e *ActionError) Message() string {
	return "action \"" + e.Action + "\": " + messageOf(e.Err)
}

func (e *ActionError) Error() string { return "engine: " + e.Message() }

// Unwrap returns Err.
func (e *ActionError) Unwrap() error { return e.Err }

// Executor defaults.
const (
	defaultExecutorStep       = 1.0 / 60 // seconds per Task.Resume
	defaultExecutorMaxResumes = 3600     // a minute of game time at the default step
)

// PlanExecutor plans for one agent and runs the plan's steps at once, in
// one call, for tools, tests and turn-based games.
// (Agent.Tick is the per-frame alternative: it runs one resume per tick.)
//
// It reads and writes the agent's State and starts each step's Body with
// the agent. A step runs by Body.Start and then Task.Resume(Step) until the
// task reports Succeeded or Failed, at most MaxResumes times; the agent's
// clock does not advance. Do not use it on an agent while that agent's Tick
// is running a step. Not safe for concurrent use.
type PlanExecutor struct {
	Agent *Agent
	// Planner plans for Think and Plan: a *Planner (the default), or any
	// StatePlanner.
	Planner StatePlanner
	// Step is the dt, in seconds, given to every Task.Resume. The default
	// (zero) value is 1/60 s; a negative value also means 1/60 s.
	Step float64
	// MaxResumes bounds the resumes of one step; a task still running then
	// is interrupted and the step fails with ErrTooManyResumes. The default
	// (zero) value is 3,600 (a minute of game time at the default step); a
	// negative value also means 3,600.
	MaxResumes int
}

// NewPlanExecutor returns an executor for agent whose Planner is a new
// Planner over the agent's domain (chaining on, depth 10) with the
// agent's Policy, so it plans around
// actions the agent may not run. Set Planner to change the limits (a
// planner without a Policy may plan them, and Think then refuses the plan).
func NewPlanExecutor(agent *Agent) *PlanExecutor {
	p := NewPlanner(agent.Domain)
	p.Policy = agent.currentPolicy()
	return &PlanExecutor{Agent: agent, Planner: p}
}

func (e *PlanExecutor) step() float64 {
	if e.Step <= 0 {
		return defaultExecutorStep
	}
	return e.Step
}

func (e *PlanExecutor) maxResumes() int {
	if e.MaxResumes <= 0 {
		return defaultExecutorMaxResumes
	}
	return e.MaxResumes
}

// Plan plans every unsatisfied goal from the agent's current state without
// running anything; see Planner.Plan. The plan is valid until the
// executor's planner plans again.
func (e *PlanExecutor) Plan() (*Plan, error) { return e.Planner.Plan(e.Agent.State) }

// Think reads the agent's state, plans every unsatisfied goal, and runs the
// plan's steps in order. It returns the names of the steps that ran to
// success, in order (empty when every goal was satisfied already).
//
// Before any step runs, a plan containing an action the agent's Policy
// forbids (Restricted, or needing an authority the agent lacks) or one
// without a Body is refused with an *ActionError wrapping ErrRestricted or
// ErrNotExecutable. Before each step that has a precondition, the state is
// read again (named conditions evaluated afresh): if the precondition no longer holds, Think stops, with no
// error when every goal of the domain is satisfied by then, else with a
// PRECONDITION_STALE *PlanError naming the goal the step served, the step
// and its precondition. A step that fails stops Think with its
// *ActionError. After the last step, a goal the plan served that does not
// hold gives a GOAL_UNSATISFIED_AFTER_EXECUTION *PlanError (the first such
// goal, in planning order). A planning failure is returned as the
// planner's *PlanError before anything runs.
func (e *PlanExecutor) Think() ([]string, error) {
	p, err := e.Plan()
	if err != nil {
		return nil, err
	}
	for _, a := range p.Steps {
		if err := refuse(a, e.Agent.Authorities); err != nil {
			return nil, err
		}
	}
	// Copy what is needed: bodies may plan with the same planner.
	type step struct {
		a *Action
		g *Goal
	}
	steps := make([]step, 0, len(p.Steps))
	goals := make([]*Goal, 0, len(p.Goals))
	for _, gp := range p.Goals {
		goals = append(goals, gp.Goal)
		for _, a := range gp.Steps {
			steps = append(steps, step{a, gp.Goal})
		}
	}
	ran := make([]string, 0, len(steps))
	for _, s := range steps {
		e.Agent.refreshConditions() // named conditions are read from the real state, as the tick does
		if !s.a.Pre.IsEmpty() && !s.a.Pre.Eval(e.Agent.State) {
			if len(e.UnsatisfiedGoals()) == 0 {
				return ran, nil
			}
			return ran, &PlanError{Reason: PreconditionStale, Goal: s.g.Name, Action: s.a.Name,
				Precondition: s.a.Pre.Source(), MaxDepth: e.depth(),
				Detail: "the precondition no longer holds when the step is about to run"}
		}
		if err := e.run(s.a); err != nil {
			return ran, err
		}
		ran = append(ran, s.a.Name)
	}
	for _, g := range goals {
		if !g.Satisfied(e.Agent.State) {
			return ran, &PlanError{Reason: GoalUnsatisfiedAfterExecution, Goal: g.Name, MaxDepth: e.depth(),
				Detail: "every step ran (" + strconv.Itoa(len(ran)) + "), but the goal's condition does not hold"}
		}
	}
	return ran, nil
}

// ExecuteAction runs one action of the domain by name, now, whatever the
// plan. An unknown name is an error; a Restricted action or one without a
// Body is an *ActionError (ErrRestricted, ErrNotExecutable); a precondition
// that does not hold is a PRECONDITION_STALE *PlanError (with no goal); a
// failed run is an *ActionError.
func (e *PlanExecutor) ExecuteAction(name string) error {
	a := e.Agent.Domain.Action(name)
	if a == nil {
		return newError("no action named \"" + name + "\"" + DidYouMean(name, e.Agent.Domain.ActionNames()))
	}
	if err := refuse(a, e.Agent.Authorities); err != nil {
		return err
	}
	if !a.Pre.Eval(e.Agent.State) {
		return &PlanError{Reason: PreconditionStale, Action: a.Name, Precondition: a.Pre.Source(),
			MaxDepth: e.depth(), Detail: "the precondition does not hold"}
	}
	return e.run(a)
}

// refuse returns why an executor must not run a for an agent with those
// authorities, or nil.
func refuse(a *Action, authorities []string) error {
	switch {
	case a.Secured() && refusal(a, authorities) != "":
		return refusedError(a, authorities)
	case a.Body == nil:
		return &ActionError{Action: a.Name, Err: ErrNotExecutable}
	}
	return nil
}

// run starts a's body and resumes its task until it ends.
func (e *PlanExecutor) run(a *Action) error {
	task, err := a.Body.Start(e.Agent, a)
	if err != nil {
		return &ActionError{Action: a.Name, Err: err}
	}
	dt, limit := e.step(), e.maxResumes()
	for i := 0; i < limit; i++ {
		st, err := task.Resume(dt)
		switch st {
		case Running:
			continue
		case Succeeded:
			return nil
		}
		if err == nil {
			err = newError("the task reported " + st.String())
		}
		return &ActionError{Action: a.Name, Err: err}
	}
	task.Interrupt()
	return &ActionError{Action: a.Name, Err: ErrTooManyResumes}
}

// SatisfiedGoals returns the goals that hold in the agent's state, highest
// priority first (declaration order among equals). A new slice.
func (e *PlanExecutor) SatisfiedGoals() []*Goal { return e.goals(true) }

// UnsatisfiedGoals returns the goals that do not hold in the agent's state,
// highest priority first (declaration order among equals): the order Plan
// serves them in. A new slice.
func (e *PlanExecutor) UnsatisfiedGoals() []*Goal { return e.goals(false) }

func (e *PlanExecutor) goals(satisfied bool) []*Goal {
	var out []*Goal
	for _, g := range e.Agent.Domain.ByPrio {
		if g.Satisfied(e.Agent.State) == satisfied {
			out = append(out, g)
		}
	}
	return out
}

// IsGoalSatisfied reports whether the named goal holds in the agent's
// state; an unknown name is an error.
func (e *PlanExecutor) IsGoalSatisfied(name string) (bool, error) {
	g := e.Agent.Domain.Goal(name)
	if g == nil {
		return false, newError("no goal named \"" + name + "\"" + DidYouMean(name, e.Agent.Domain.GoalNames()))
	}
	return g.Satisfied(e.Agent.State), nil
}

// refusedError is the *ActionError for a secured action the authorities
// do not permit; it wraps ErrRestricted and, for an action that needs an
// authority, names it.
func refusedError(a *Action, authorities []string) error {
	if a.Restricted || a.Authority == "" {
		return &ActionError{Action: a.Name, Err: ErrRestricted}
	}
	return &ActionError{Action: a.Name, Err: &authorityError{need: a.Authority, granted: authorities}}
}

type authorityError struct {
	need    string
	granted []string
}

// Message is the error without the package prefix.
func (e *authorityError) Message() string {
	return "the action needs authority \"" + e.need + "\"" + grantedNote(e.granted) + "; executors refuse it"
}

func (e *authorityError) Error() string { return "engine: " + e.Message() }

func (e *authorityError) Unwrap() error { return ErrRestricted }

// StatePlanner is what a PlanExecutor plans with: given a state, a plan
// for the unsatisfied goals (Plan.Goals split by goal), or an error. *Planner
// is one; a game may wrap another planner (an LLM, a script) behind it.
// A PlanExecutor calls it from the goroutine that calls Think; an
// implementation used by several executors at once must be safe for
// concurrent use.
type StatePlanner interface {
	Plan(st expr.State) (*Plan, error)
}

// depth is the depth limit reported in errors: the planner's, when it is
// a *Planner, else the default.
func (e *PlanExecutor) depth() int {
	if p, ok := e.Planner.(*Planner); ok && p != nil {
		return p.depth()
	}
	return DefaultMaxDepth
}

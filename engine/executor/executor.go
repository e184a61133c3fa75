// Package executor plans for one agent and runs the whole plan at once,
// in one call: for tools, tests and turn-based games. (engine.World.Tick
// is the per-frame alternative: it runs one resume of a step per tick.)
//
// An Executor reads and writes its agent's State and runs each step's
// Body with engine.Agent.RunAction: Body.Start, then Task.Resume(Step)
// until the task reports Succeeded or Failed. The agent's clock does not
// advance.
package executor

import (
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Planner is what an Executor plans with: given a state, a plan for the
// unsatisfied goals (engine.Plan.Goals split by goal), or an error.
// *engine.Planner is one; a game may wrap another planner (an LLM, a
// script) behind it. An Executor calls it from the goroutine that calls
// Think; an implementation used by several executors at once must be safe
// for concurrent use.
type Planner interface {
	Plan(st expr.State) (*engine.Plan, error)
}

// Executor plans for one agent and runs the plan's steps at once. Do not
// use it on an agent while that agent's Tick is running a step. Not safe
// for concurrent use.
type Executor struct {
	Agent *engine.Agent
	// Planner plans for Think and Plan: an *engine.Planner (the default),
	// or any Planner.
	Planner Planner
	// Step is the dt, in seconds, given to every Task.Resume. The default
	// (zero) value is 1/60 s; a negative value also means 1/60 s.
	Step float64
	// MaxResumes bounds the resumes of one step; a task still running then
	// is interrupted and the step fails with engine.ErrTooManyResumes. The
	// default (zero) value is 3,600 (a minute of game time at the default
	// step); a negative value also means 3,600.
	MaxResumes int
}

// New returns an executor for agent whose Planner is a new engine.Planner
// over the agent's domain (chaining on, depth 10) with the agent's
// authorities as its Policy, so it plans around actions the agent may not
// run. Set Planner to change the limits (a planner without a Policy may
// plan them, and Think then refuses the plan).
func New(agent *engine.Agent) *Executor {
	p := engine.NewPlanner(agent.Domain)
	p.Policy = &engine.Policy{Authorities: agent.Authorities}
	return &Executor{Agent: agent, Planner: p}
}

// Plan plans every unsatisfied goal from the agent's current state without
// running anything; see engine.Planner.Plan. The plan is valid until the
// executor's planner plans again.
func (e *Executor) Plan() (*engine.Plan, error) { return e.Planner.Plan(e.Agent.State) }

// Think reads the agent's state, plans every unsatisfied goal, and runs the
// plan's steps in order. It returns the names of the steps that ran to
// success, in order (empty when every goal was satisfied already).
//
// Before any step runs, a plan containing an action the agent's
// authorities forbid (Restricted, or needing an authority the agent lacks)
// or one without a Body is refused with an *engine.ActionError wrapping
// engine.ErrRestricted or engine.ErrNotExecutable. Before each step that
// has a precondition, the state is read again (named conditions evaluated
// afresh): if the precondition no longer holds, Think stops, with no error
// when every goal of the domain is satisfied by then, else with a
// PRECONDITION_STALE *engine.PlanError naming the goal the step served, the
// step and its precondition. A step that fails stops Think with its
// *engine.ActionError. After the last step, a goal the plan served that
// does not hold gives a GOAL_UNSATISFIED_AFTER_EXECUTION *engine.PlanError
// (the first such goal, in planning order). A planning failure is returned
// as the planner's *engine.PlanError before anything runs.
func (e *Executor) Think() ([]string, error) {
	p, err := e.Plan()
	if err != nil {
		return nil, err
	}
	for _, a := range p.Steps {
		if err := e.Agent.Refusal(a); err != nil {
			return nil, err
		}
	}
	// Copy what is needed: bodies may plan with the same planner.
	type step struct {
		a *engine.Action
		g *engine.Goal
	}
	steps := make([]step, 0, len(p.Steps))
	goals := make([]*engine.Goal, 0, len(p.Goals))
	for _, gp := range p.Goals {
		goals = append(goals, gp.Goal)
		for _, a := range gp.Steps {
			steps = append(steps, step{a, gp.Goal})
		}
	}
	ran := make([]string, 0, len(steps))
	for _, s := range steps {
		e.Agent.RefreshConditions() // named conditions are read from the real state, as the tick does
		if !s.a.Pre.IsEmpty() && !s.a.Pre.Eval(e.Agent.State) {
			if len(e.UnsatisfiedGoals()) == 0 {
				return ran, nil
			}
			return ran, &engine.PlanError{Reason: engine.PreconditionStale, Goal: s.g.Name, Action: s.a.Name,
				Precondition: s.a.Pre.Source(), MaxDepth: e.depth(),
				Detail: "the precondition no longer holds when the step is about to run"}
		}
		if err := e.Agent.RunAction(s.a, e.Step, e.MaxResumes); err != nil {
			return ran, err
		}
		ran = append(ran, s.a.Name)
	}
	for _, g := range goals {
		if !g.Satisfied(e.Agent.State) {
			return ran, &engine.PlanError{Reason: engine.GoalUnsatisfiedAfterExecution, Goal: g.Name, MaxDepth: e.depth(),
				Detail: "every step ran (" + strconv.Itoa(len(ran)) + "), but the goal's condition does not hold"}
		}
	}
	return ran, nil
}

// ExecuteAction runs one action of the domain by name, now, whatever the
// plan. An unknown name is an error; a Restricted action or one without a
// Body is an *engine.ActionError (engine.ErrRestricted,
// engine.ErrNotExecutable); a precondition that does not hold is a
// PRECONDITION_STALE *engine.PlanError (with no goal); a failed run is an
// *engine.ActionError.
func (e *Executor) ExecuteAction(name string) error {
	d := e.Agent.Domain
	a := d.Action(name)
	if a == nil {
		return &Error{Msg: "no action named \"" + name + "\"" + engine.DidYouMean(name, d.ActionNames())}
	}
	if err := e.Agent.Refusal(a); err != nil {
		return err
	}
	if !a.Pre.Eval(e.Agent.State) {
		return &engine.PlanError{Reason: engine.PreconditionStale, Action: a.Name, Precondition: a.Pre.Source(),
			MaxDepth: e.depth(), Detail: "the precondition does not hold"}
	}
	return e.Agent.RunAction(a, e.Step, e.MaxResumes)
}

// SatisfiedGoals returns the goals that hold in the agent's state, highest
// priority first (declaration order among equals). A new slice.
func (e *Executor) SatisfiedGoals() []*engine.Goal { return e.goals(true) }

// UnsatisfiedGoals returns the goals that do not hold in the agent's state,
// highest priority first (declaration order among equals): the order Plan
// serves them in. A new slice.
func (e *Executor) UnsatisfiedGoals() []*engine.Goal { return e.goals(false) }

func (e *Executor) goals(satisfied bool) []*engine.Goal {
	var out []*engine.Goal
	for _, g := range e.Agent.Domain.ByPrio {
		if g.Satisfied(e.Agent.State) == satisfied {
			out = append(out, g)
		}
	}
	return out
}

// IsGoalSatisfied reports whether the named goal holds in the agent's
// state; an unknown name is an error.
func (e *Executor) IsGoalSatisfied(name string) (bool, error) {
	d := e.Agent.Domain
	g := d.Goal(name)
	if g == nil {
		return false, &Error{Msg: "no goal named \"" + name + "\"" + engine.DidYouMean(name, d.GoalNames())}
	}
	return g.Satisfied(e.Agent.State), nil
}

// depth is the depth limit reported in errors: the planner's, when it is
// an *engine.Planner, else the default.
func (e *Executor) depth() int {
	if p, ok := e.Planner.(*engine.Planner); ok && p != nil {
		switch {
		case p.MaxDepth <= 0:
			return engine.DefaultMaxDepth
		case p.MaxDepth > engine.MaxMaxDepth:
			return engine.MaxMaxDepth
		}
		return p.MaxDepth
	}
	return engine.DefaultMaxDepth
}

// Error is a name the caller gave that the agent's domain does not have.
// Like every error of package executor it is not changed after it is
// returned, so it is safe to read from any goroutine.
type Error struct{ Msg string }

func (e *Error) Error() string { return "executor: " + e.Msg }

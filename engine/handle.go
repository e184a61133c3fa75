package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// PlannerHandle is an agent's planning interface. The default one plans with the agent's GOAP planner over
// all of the agent's roles.
// The agent calls it from the goroutine that calls Agent.Plan,
// Agent.PlanForGoal or Agent.ExecutePlan; an implementation shared by agents
// must be safe for concurrent use.
type PlannerHandle interface {
	// Plan plans every unsatisfied goal from the agent's current state.
	Plan() (*Plan, error)
	// PlanForGoal returns the candidate actions of the named goal (see
	// Action.Serves for the rule), without helper steps, in declaration
	// order. An unknown goal name is an error (the default handle's
	// matches ErrUnknownName under errors.Is).
	PlanForGoal(name string) ([]*Action, error)
	// ExecutePlan runs the named steps in order; see Agent.ExecutePlan.
	ExecutePlan(steps []string) (PlanResult, error)
}

// PlanResult is the outcome of ExecutePlan: Success only when every step
// succeeded; FinalState is a copy of the state after the last step.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type PlanResult struct {
	Success    bool
	Results    []StepResult
	FinalState expr.State
}

// StepResult is one step of ExecutePlan. Executed is false when the step
// did not run (missing action, precondition false) or failed.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type StepResult struct {
	Action   string
	Executed bool
	Err      error
}

// ErrNoPlanner is returned by the planning calls of an agent without a
// planner handle.
var ErrNoPlanner = newError("the agent has no planner handle (SetPlannerHandle(nil) turned GOAP planning off, or it could not be created)")

type defaultPlannerHandle struct{ a *Agent }

// defaultHandle returns the default handle, or an error when the agent
// cannot plan.
func defaultHandle(a *Agent) (PlannerHandle, error) {
	if a.Domain == nil {
		return nil, newError("cannot create the default planner handle: the agent has no domain")
	}
	return defaultPlannerHandle{a}, nil
}

func (h defaultPlannerHandle) Plan() (*Plan, error) {
	h.a.planner.Policy = h.a.currentPolicy() // plan around what the agent may not run
	return h.a.planner.Plan(h.a.State)
}

func (h defaultPlannerHandle) PlanForGoal(name string) ([]*Action, error) {
	d := h.a.Domain
	g := d.Goal(name)
	if g == nil {
		return nil, unknownName("no goal \"" + name + "\"" + DidYouMean(name, d.GoalNames()))
	}
	return d.candidates(g), nil
}

func (h defaultPlannerHandle) ExecutePlan(steps []string) (PlanResult, error) {
	return h.a.executePlan(steps)
}

// SetPlannerHandle replaces the agent's planner handle; nil turns planning
// off (the planning calls then return ErrNoPlanner, and the tick loop
// decides with the utility planner alone).
func (a *Agent) SetPlannerHandle(h PlannerHandle) { a.handle = h }

// PlanningEnabled reports whether the agent has a planner handle.
func (a *Agent) PlanningEnabled() bool { return a.handle != nil }

// CurrentState returns a copy of the agent's state: the merged state of all
// its roles (a later role's variable with the same name wins).
func (a *Agent) CurrentState() expr.State { return a.State.Clone() }

// Plan plans every unsatisfied goal from the current state through the
// planner handle.
func (a *Agent) Plan() (*Plan, error) {
	if a.handle == nil {
		return nil, ErrNoPlanner
	}
	return a.handle.Plan()
}

// PlanForGoal returns the candidate actions for a goal through the planner
// handle.
func (a *Agent) PlanForGoal(name string) ([]*Action, error) {
	if a.handle == nil {
		return nil, ErrNoPlanner
	}
	return a.handle.PlanForGoal(name)
}

// ExecutePlan runs steps through the planner handle, outside the tick loop.
// A plan that names a restricted action is refused before any step runs
// (an error wrapping ErrRestricted). Otherwise each step runs in order: a
// missing action, a precondition that does not hold in the state re-read
// before the step, an action without a body, or a body that fails is
// recorded as not executed, and the next step runs. A body runs as
// RunAction runs it: resumed with dt = 1/60 s until it finishes, at most
// 3,600 times (a minute of game time).
// Must not be called while the agent ticks.
func (a *Agent) ExecutePlan(steps []string) (PlanResult, error) {
	if a.handle == nil {
		return PlanResult{}, ErrNoPlanner
	}
	return a.handle.ExecutePlan(steps)
}

func (a *Agent) executePlan(steps []string) (PlanResult, error) {
	for _, s := range steps {
		if act := a.Domain.Action(s); act != nil && act.Secured() {
			if why := refusal(act, a.Authorities); why != "" {
				a.emit(record.Event{Kind: record.EventRefused, Action: s, Plan: steps, Reason: why})
				return PlanResult{}, refusedError(act, a.Authorities)
			}
		}
	}
	res := PlanResult{Success: true}
	for _, s := range steps {
		r := StepResult{Action: s}
		act := a.Domain.Action(s)
		a.refreshConditions()
		switch {
		case act == nil:
			r.Err = newError("no action \"" + s + "\"" + DidYouMean(s, a.Domain.ActionNames()))
		case !act.Pre.Eval(a.State):
			r.Err = newError("precondition \"" + act.Pre.Source() + "\" of " + s + " does not hold")
		default:
			r.Err = a.RunAction(act, 0, 0)
			r.Executed = r.Err == nil
		}
		res.Success = res.Success && r.Executed
		res.Results = append(res.Results, r)
	}
	res.FinalState = a.State.Clone()
	return res, nil
}

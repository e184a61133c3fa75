package engine

import (
	"errors"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// GoalOutcome is one goal's part of PlanEach: the steps that serve it and
// their cost, or the reason it has none.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type GoalOutcome struct {
	Goal  *Goal
	Steps []*Action // nil when Err is set
	Cost  float64
	Err   *PlanError // nil when the goal was planned
}

// PlanEach plans every goal unsatisfied in st, highest priority first
// (declaration order among equals), like Plan, except that a goal without
// a plan does not stop the others: its outcome carries the *PlanError,
// and the goals after it are planned from the simulated state that the
// planned goals leave. Goals satisfied at their turn are left out. st is
// not modified; the result and its slices are new.
func (p *Planner) PlanEach(st expr.State) []GoalOutcome {
	sim := st.Clone()
	var out []GoalOutcome
	for _, g := range p.Domain.ByPrio {
		if g.Satisfied(sim) {
			continue
		}
		out = append(out, p.planOne(g, sim))
	}
	return out
}

// planOne plans g from sim and, when it has a plan, leaves in sim the
// state after its steps.
func (p *Planner) planOne(g *Goal, sim expr.State) GoalOutcome {
	plan, err := p.PlanFor(g, sim)
	if err != nil {
		var pe *PlanError
		if !errors.As(err, &pe) {
			pe = &PlanError{Reason: Unreachable, Goal: g.Name, MaxDepth: p.depth(), Detail: err.Error()}
		}
		return GoalOutcome{Goal: g, Err: pe}
	}
	copy(sim, p.sim) // PlanFor leaves the state after the goal's steps there
	return GoalOutcome{Goal: g, Steps: append([]*Action(nil), plan.Steps...), Cost: plan.Cost}
}

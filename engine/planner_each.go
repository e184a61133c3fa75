package engine

import "errors"

// GoalOutcome is one goal's part of PlanEach: the steps that serve it and
// their cost, or the reason it has none.
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
func (p *Planner) PlanEach(st State) []GoalOutcome {
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

// PlanEachGoal is PlanEach for the named goal alone; an unknown name is
// an UNREACHABLE outcome with a nil Goal. A goal already satisfied gives
// no outcome.
func (p *Planner) PlanEachGoal(name string, st State) []GoalOutcome {
	g := p.Domain.Goal(name)
	if g == nil {
		_, err := p.PlanGoal(name, st)
		var pe *PlanError
		errors.As(err, &pe)
		return []GoalOutcome{{Err: pe}}
	}
	if g.Satisfied(st) {
		return nil
	}
	return []GoalOutcome{p.planOne(g, st.Clone())}
}

// planOne plans g from sim and, when it has a plan, leaves in sim the
// state after its steps.
func (p *Planner) planOne(g *Goal, sim State) GoalOutcome {
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

package engine

import (
	"errors"
	"time"

	"github.com/moonmind-ai/moonmind/engine/record"
)

// customHandle reports whether the agent's planner handle is one the game
// set (SetPlannerHandle), not the default: the tick then plans through it.
func (a *Agent) customHandle() bool {
	if a.handle == nil {
		return false
	}
	_, def := a.handle.(defaultPlannerHandle)
	return !def
}

// PlannerHandle returns the agent's planner handle: the default one
// (NewAgent's), the one set with SetPlannerHandle, or nil when planning is
// off. Wrap it to add to the default planning rather than replace it.
func (a *Agent) PlannerHandle() PlannerHandle { return a.handle }

// goalsMet reports whether every goal of the domain holds now. A goap-mode
// agent without a planner handle (SetPlannerHandle(nil); MOONMIND_GOAP=off
// on the command line) picks by utility only
// while a goal is unmet, so it does not keep re-running picks once its
// goals hold.
func (a *Agent) goalsMet() bool {
	for _, g := range a.Domain.Goals {
		if !g.Satisfied(a.State) {
			return false
		}
	}
	return true
}

// planByHandle plans through a custom PlannerHandle: its Plan is asked for
// every unsatisfied goal, and the agent pursues the first goal of the
// result (Plan.Goals, in the handle's order) that is unsatisfied, has
// steps of this domain and is allowed (see allowed). It reports whether
// there is a step to run.
func (a *Agent) planByHandle() bool {
	var t0 time.Time
	if a.Timing {
		t0 = time.Now()
	}
	p, err := a.handle.Plan()
	var took time.Duration
	if a.Timing {
		took = time.Since(t0)
	}
	if err != nil {
		e := record.Event{Kind: record.EventPlanFailed, Reason: err.Error(), Duration: took}
		var pe *PlanError
		if errors.As(err, &pe) {
			e.Goal, e.Reason = pe.Goal, string(pe.Reason)+": "+pe.Detail
		}
		a.emit(e)
		return false
	}
	for _, gp := range p.Goals {
		if gp.Goal == nil || len(gp.Steps) == 0 || gp.Goal.Satisfied(a.State) {
			continue
		}
		if why := a.foreign(gp.Steps); why != "" {
			a.emit(record.Event{Kind: record.EventPlanFailed, Goal: gp.Goal.Name, Plan: names(gp.Steps), Reason: why})
			continue
		}
		if why := a.allowed(gp.Steps); why != "" {
			a.noteBackoff(gp.Steps)
			a.emit(record.Event{Kind: record.EventRefused, Goal: gp.Goal.Name, Plan: names(gp.Steps), Cost: gp.Cost, Reason: why})
			continue
		}
		if a.pursuit != gp.Goal {
			a.endPursuit()
			a.pursuit = gp.Goal
		}
		a.plan = append(a.plan[:0], gp.Steps...)
		a.goal, a.idle = gp.Goal, false
		a.emit(record.Event{Kind: record.EventPlan, Goal: gp.Goal.Name, Plan: names(gp.Steps), Cost: gp.Cost, Duration: took,
			Reason: "planned by the agent's planner handle"})
		return true
	}
	if a.goalsMet() && a.Domain.Decide == "goap" && !a.idle {
		a.idle = true
		a.emit(record.Event{Kind: record.EventIdle})
	}
	return false
}

// foreign returns why steps are not this domain's actions, or "".
func (a *Agent) foreign(steps []*Action) string {
	for _, s := range steps {
		if s == nil || s.Index >= len(a.Domain.Actions) || a.Domain.Actions[s.Index] != s {
			name := "nil"
			if s != nil {
				name = s.Name
			}
			return "the planner handle's plan has action " + name + ", which is not one of the agent's"
		}
	}
	return ""
}

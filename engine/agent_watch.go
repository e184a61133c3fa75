package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// The whole plan is watched, not only the running step. When the world
// (not the running body) changes a variable that the rest of the plan
// reads, the agent checks that rest against the simulated state: the
// running step's promised effects, then each later step's precondition and
// effects in turn.
//   - If the goal already holds, the world achieved it: the running step,
//     which serves it, is interrupted at once (its on_interrupt runs) and
//     recorded as interrupted.
//   - If a later step can no longer run, or every step can but the end of
//     the rest no longer satisfies the goal (while it did from the state
//     before the change), and the goal has another plan, the agent
//     replans at once. When the new plan begins with the running
//     action, it goes on without a restart (a replan record says so);
//     otherwise the running step is interrupted and the new plan starts in
//     the same tick.
//   - If no other plan exists, the agent goes on: the world may change
//     back, and the step's own precondition check still applies.
//
// The check is cheap when nothing the plan reads changed: one test of the
// slots the world changed (see worldChanges) against those the goal and
// the remaining steps read.

// watchPlan returns why the running step must be interrupted, or "". It
// may replace the rest of the plan in place (the new plan begins with the
// running action).
func (a *Agent) watchPlan(changed uint64) string {
	if a.picked || a.goal == nil {
		return ""
	}
	g := a.goal
	var steps []*Action
	var why string
	if r := a.readyFor(g); r != nil {
		// Under a plan budget: the queue's answer to the last tick's check
		// (see probe). It stands while the rest of the plan is still blocked.
		a.ready = nil
		if why = a.restBroken(); why == "" || a.allowed(r.steps) != "" {
			return ""
		}
		steps = r.steps
		if steps[0] != a.running {
			a.ready = r // the next decision adopts it
		}
	} else {
		if !a.planReadChanged(changed) {
			return ""
		}
		if g.Satisfied(a.State) && !g.Satisfied(a.post) {
			return "goal " + g.Name + " already holds: the world achieved it"
		}
		if why = a.restBroken(); why == "" {
			return ""
		}
		if a.slicing() {
			a.probe(g) // the world's queue plans it; the step goes on meanwhile
			return ""
		}
		wp := a.Domain.borrowPlanner(a.planner)
		wp.exclude = a.excludeFor(g, a.backedOff())
		wp.Policy = a.currentPolicy()
		p, err := wp.PlanFor(g, a.State)
		if err == nil && a.allowed(p.Steps) == "" {
			steps = append(steps, p.Steps...)
		}
		a.Domain.returnPlanner(wp)
	}
	if len(steps) == 0 {
		return ""
	}
	if steps[0] == a.running {
		a.plan = append(a.plan[:0], steps...)
		a.step = 0
		a.emit(record.Event{Kind: record.EventReplan, Goal: g.Name, Action: a.running.Name, Plan: names(steps),
			Reason: why + "; the new plan begins with the running action, which goes on"})
		return ""
	}
	return why + "; replanning"
}

// planReadChanged reports whether the world changed, since the running
// body's last resume, a variable that the goal or the rest of the plan
// reads. changed is the slots it changed (see worldChanges); when that is
// not known (allSlots), the states are compared.
func (a *Agent) planReadChanged(changed uint64) bool {
	if changed == 0 {
		return false
	}
	if changed != allSlots {
		m := a.goal.Condition.ReadMask()
		for _, s := range a.plan[a.step:] {
			m |= s.Pre.ReadMask() | s.Effects.ReadMask()
		}
		return changed&m != 0
	}
	differs := func(reads []int) bool {
		for _, s := range reads {
			if !a.State[s].Equal(a.post[s]) {
				return true
			}
		}
		return false
	}
	if differs(a.goal.Condition.Reads()) {
		return true
	}
	for _, s := range a.plan[a.step:] {
		if differs(s.Pre.Reads()) || differs(s.Effects.Reads()) {
			return true
		}
	}
	return false
}

// restBroken says why the rest of the plan no longer serves its goal
// since the world's change, or "": a later step that can no longer run
// where it would (see blockedStep), or a rest that runs but whose end no
// longer satisfies the goal while it did from the state after the body's
// last resume (the world undid what the plan counted on).
func (a *Agent) restBroken() string {
	blocked, reaches := a.blockedStep(a.State)
	if blocked != nil {
		return "step " + blocked.Name + " of the plan can no longer run (precondition \"" + blocked.Pre.Source() + "\")"
	}
	if reaches {
		return ""
	}
	if b, before := a.blockedStep(a.postState()); b != nil || !before {
		return "" // it did not reach the goal before the change either (a custom handle's plan, say)
	}
	return "the rest of the plan no longer reaches goal " + a.goal.Name
}

// blockedStep simulates the rest of the plan from state from, the
// running step's promised effects first, and returns the first later step
// whose precondition does not hold (or whose effects cannot apply) where
// it would run; nil when the rest of the plan still runs. reaches reports
// whether the goal holds during or at the end of the simulation, or a
// step of the rest fulfills it. The simulation stops early, with nil and
// reaches, once the goal holds.
func (a *Agent) blockedStep(from expr.State) (blocked *Action, reaches bool) {
	sim := a.scratch
	copy(sim, from)
	for i, s := range a.plan[a.step:] {
		if i > 0 {
			if a.goal.Satisfied(sim) {
				return nil, true
			}
			if !s.Pre.Eval(sim) {
				return s, false
			}
		}
		if s.Effects.ApplyInPlace(sim) != nil {
			return s, false
		}
		reaches = reaches || s.Serves(a.goal)
	}
	return nil, reaches || a.goal.Satisfied(sim)
}

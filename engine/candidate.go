package engine

// Candidate reports whether action a is a candidate for goal g: a lists g
// in fulfills, or a's effects assign a variable that g's condition reads
// (matched by parsed variable, never by text). This is the one rule of
// candidacy: PlannerHandle.PlanForGoal, UtilityPlanner.ActionsForGoal, the
// GOAP planner and `moonmind check` all use it.
//
// An action that lists g in fulfills completes g when it runs, whatever
// its effects say (its body is trusted to make the goal true, as in
// TnsAI's planner; see docs/semantics.md), so a plan for g may end with it even when its effects do not
// make g's condition hold.
func (g *Goal) Candidate(a *Action) bool { return isCandidate(a, g) }

// candidates returns the candidate actions for g (see Goal.Candidate), in
// declaration order. A new slice. Agent.PlanForGoal is the public way.
func (d *Domain) candidates(g *Goal) []*Action {
	var out []*Action
	for _, a := range d.Actions {
		if g.Candidate(a) {
			out = append(out, a)
		}
	}
	return out
}

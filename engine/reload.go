package engine

import "github.com/moonmind-ai/moonmind/engine/record"

// SetDomain swaps the agent's roles for d, as after a script reload, and
// keeps the agent's state: each of d's variables takes the agent's value
// of the variable with the same name when the old domain has one, and d's
// initial value otherwise; variables d lacks are dropped. The running body
// is interrupted (its Interrupt runs, a record.EventInterrupt is recorded with
// reason "domain replaced"), the plan, back-offs and sensor timers are
// dropped, and the agent decides afresh at its next tick. The planners are
// rebuilt over d, keeping the GOAP planner's MaxDepth, Budget and Chaining
// and the utility planner's Explain (Commitment comes from
// Agent.Commitment); the utility considerations become d's. The planner
// handle stays: the default one plans over d from then on, a handle set
// with SetPlannerHandle is kept, and planning turned off stays off. Call it
// between ticks, from the goroutine that ticks the agent.
func (a *Agent) SetDomain(d *Domain) {
	if a.task != nil {
		act := a.running
		if a.asleep > 0 {
			a.wake()
		}
		failed := interruptTask(a.task)
		a.task, a.running = nil, nil
		a.emit(record.Event{Kind: record.EventInterrupt, Goal: goalName(a.goal), Action: act.Name, Reason: "domain replaced"})
		if failed != "" {
			a.emit(record.Event{Kind: record.EventFail, Goal: goalName(a.goal), Action: act.Name, Reason: failed})
		}
	}
	a.dropPlan()
	a.dropJob() // its search was over the old domain

	old := a.Domain
	prev := a.State.Clone() // makeStates may reuse its memory
	a.makeStates(d)
	st := a.State
	if old != nil {
		for slot, name := range d.Schema.Names() {
			if from, ok := old.Schema.Lookup(name); ok && from < len(prev) {
				st[slot] = prev[from]
			}
		}
	}
	a.Domain, a.State = d, st

	planner := NewPlanner(d)
	if a.planner != nil {
		planner.MaxDepth, planner.Budget, planner.Chaining = a.planner.MaxDepth, a.planner.Budget, a.planner.Chaining
	}
	utility := NewUtilityPlanner(d)
	if a.utility != nil {
		utility.Explain = a.utility.Explain
	}
	a.planner, a.utility = planner, utility

	a.cooldown = make([]float64, len(d.Actions))
	a.sensorNext = make([]float64, len(d.Sensors))
	a.sensorLast = make([]float64, len(d.Sensors))
	a.failedState = nil
	a.rx.pursued, a.rx.pursueFail = nil, nil
	a.SetReactive(nil)
	if d.NewReactive != nil {
		a.SetReactive(d.NewReactive(a))
	}
}

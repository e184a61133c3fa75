package engine

import (
	"math"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/record"
)

// SetDomain swaps the agent's roles for d, as after a script reload, and
// keeps the agent's state: each of d's variables takes the agent's value
// of the variable with the same name when the old domain has one, and d's
// initial value otherwise; variables d lacks are dropped. The running body
// is interrupted (its Interrupt runs, an record.EventInterrupt is recorded with
// reason "domain replaced"), the plan and back-offs are dropped, and the
// agent decides afresh at its next tick. Sensor timers are kept by sensor
// name, so a sensor's next run gets the time since its last run before
// the swap; a sensor that d adds runs at the next tick as on a first tick
// (its dt is that tick's). The planners are
// rebuilt over d, keeping the GOAP planner's MaxDepth, Budget and Chaining
// and the utility planner's Explain (Commitment comes from
// Agent.Commitment); the utility considerations become d's. The planner
// handle stays: the default one plans over d from then on, a handle set
// with SetPlannerHandle is kept, and planning turned off stays off. Call it
// between ticks, from the goroutine that ticks the agent. Called during
// the agent's own tick (by its body, a sensor, or a game function one of
// them called), it changes nothing at once: the swap is made when that
// tick ends, after the body's resume has finished or failed its step or
// left it running (then interrupted as above); the last call of the tick
// wins. SetDomain panics on a nil domain.
func (a *Agent) SetDomain(d *Domain) {
	if d == nil {
		panic("engine: SetDomain: agent " + strconv.Quote(a.Name) + " is given no domain (a nil *Domain)")
	}
	if a.marks&markInTick != 0 {
		a.swapTo = d
		a.marks |= markSwap
		return
	}
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
	a.broken = nil
	a.keepSensorTimers(old, d)
	a.failedState = nil
	// The goal pursued is the old domain's, and the indices of the actions
	// that ran for it are the old domain's: the next decision would end
	// that pursuit (its goal is not the new one), so it ends now, and a
	// snapshot taken before then names no action of d as ran.
	a.endPursuit()
	a.rx.pursued, a.rx.pursueFail = nil, nil
	a.SetReactive(nil)
	if d.NewReactive != nil {
		a.SetReactive(d.NewReactive(a))
	}
}

// keepSensorTimers gives the agent timers for d's sensors: those of old's
// sensor of the same name, and for a new sensor "due, never ran" (NaN as
// its last run, which sense reads as a first run).
func (a *Agent) keepSensorTimers(old, d *Domain) {
	next, last := make([]float64, len(d.Sensors)), make([]float64, len(d.Sensors))
	for i, sen := range d.Sensors {
		next[i], last[i] = a.time, math.NaN()
		if old == nil {
			continue
		}
		for j, o := range old.Sensors {
			if o.Name == sen.Name && j < len(a.sensorNext) && j < len(a.sensorLast) {
				next[i], last[i] = a.sensorNext[j], a.sensorLast[j]
				break
			}
		}
	}
	a.sensorNext, a.sensorLast = next, last
}

package engine

import (
	"errors"
	"time"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func (a *Agent) rethinkEvery() float64 {
	switch {
	case a.RethinkEvery < 0:
		return 0
	case a.RethinkEvery == 0:
		return defaultRethinkEvery
	}
	return a.RethinkEvery
}

// allowed returns why a plan cannot run now ("" when it can): a restricted
// action, or one backed off after a failure.
func (a *Agent) allowed(steps []*Action) string {
	for _, s := range steps {
		if why := a.allowed1(s); why != "" {
			return why
		}
	}
	return ""
}

func (a *Agent) allowed1(s *Action) string {
	if s.Secured() {
		if why := refusal(s, a.Authorities); why != "" {
			return why
		}
	}
	if a.cooldown[s.Index] > a.time+1e-9 {
		return "action " + s.Name + " is backed off for " + shortNumber(roundTo(a.cooldown[s.Index]-a.time, 3)) + " s after a failure"
	}
	if s.Uses != "" && a.world != nil {
		if ok, why := a.usable(s.Uses); !ok {
			return "action " + s.Name + " uses a " + s.Uses + ": " + why
		}
	}
	return ""
}

// decide picks a new plan according to Domain.Decide (see Agent). It
// reports whether there is a step to run. After finding nothing it asks
// again only when the state changes or a back-off ends.
func (a *Agent) decide() bool {
	a.dropPlan()
	if a.failedState != nil && a.sameForDeciding(a.failedState) && a.time+1e-9 < a.retryAt {
		return false
	}
	a.retryAt = inf
	a.planner.exclude = a.backedOff()
	a.planner.Policy = a.currentPolicy()
	mode := a.Domain.Decide
	if (mode != "utility" || a.anyPursued()) && a.handle != nil && a.planGoals() {
		a.failedState = a.failedState[:0]
		return true
	}
	if a.waitingForPlan() {
		return false // the world's queue plans for it (World.PlanBudget): idle meanwhile
	}
	if mode != "goap" || a.handle == nil && !a.goalsMet() {
		if a.pick() {
			a.failedState = a.failedState[:0]
			return true
		}
	}
	a.failedState = append(a.failedState[:0], a.State...)
	// Ask again when the first back-off ends: the action may help then.
	for _, t := range a.cooldown {
		if t > a.time+1e-9 && t < a.retryAt {
			a.retryAt = t
		}
	}
	return false
}

func (a *Agent) planGoals() bool {
	if a.pursuit != nil && a.pursuit.Satisfied(a.State) {
		a.endPursuit()
	}
	for _, g := range a.Domain.Goals {
		a.sat()[g.Index] = g.Satisfied(a.State)
	}
	if a.customHandle() {
		return a.planByHandle()
	}
	if a.slicing() {
		return a.queuePlan()
	}
	if a.job.open || a.job.failed {
		a.dropJob() // the world's budget was turned off
	}
	anyUnsatisfied := false
	for _, g := range a.Domain.ByPrio {
		if a.sat()[g.Index] || a.Domain.Decide == "utility" && !a.pursuing(g) {
			continue
		}
		anyUnsatisfied = true
		var t0 time.Time
		if a.Timing {
			t0 = time.Now()
		}
		wp := a.Domain.borrowPlanner(a.planner)
		wp.exclude = a.excludeFor(g, wp.exclude)
		p, err := wp.PlanFor(g, a.State)
		var took time.Duration
		if a.Timing {
			took = time.Since(t0)
		}
		ok := a.takePlan(g, p, err, took)
		a.Domain.returnPlanner(wp)
		if ok {
			return true
		}
	}
	if !anyUnsatisfied && a.Domain.Decide == "goap" && !a.idle {
		a.idle = true
		a.emit(record.Event{Kind: record.EventIdle})
	}
	return false
}

// takePlan takes the planner's answer for goal g (p and err from
// Planner.PlanFor, took the wall time it took or 0): a plan the agent may
// run becomes its plan (record.EventPlan) and takePlan reports true; otherwise
// the failure or refusal is recorded and it reports false.
func (a *Agent) takePlan(g *Goal, p *Plan, err error, took time.Duration) bool {
	if err != nil {
		reason := err.Error()
		var pe *PlanError
		if errors.As(err, &pe) {
			a.noteWait(pe)
			reason = string(pe.Reason) + ": " + pe.Detail
			if pe.Reason == BackedOff {
				a.noteBackoff([]*Action{a.Domain.Action(pe.Action)})
			}
		}
		a.emit(record.Event{Kind: record.EventPlanFailed, Goal: g.Name, Reason: reason, Duration: took})
		a.notePursuitFail(g, reason)
		return false
	}
	// Keep the steps: the plan's buffers go back with the planner.
	a.plan = append(a.plan[:0], p.Steps...)
	p = &Plan{Steps: a.plan, Cost: p.Cost, Expansions: p.Expansions}
	if why := a.allowed(p.Steps); why != "" {
		kind := record.EventPlanFailed
		if p.Steps != nil && a.hasForbidden(p.Steps) {
			kind = record.EventRefused
		}
		a.noteBackoff(p.Steps)
		a.emit(record.Event{Kind: kind, Goal: g.Name, Plan: names(p.Steps), Cost: p.Cost, Reason: why})
		a.notePursuitFail(g, why)
		a.plan = a.plan[:0]
		return false
	}
	if a.pursuit != g {
		a.endPursuit()
		a.pursuit = g
	}
	a.goal, a.idle = g, false
	a.emit(record.Event{Kind: record.EventPlan, Goal: g.Name, Plan: a.planNames(p.Steps), Cost: p.Cost, Expansions: p.Expansions, Duration: took,
		Reason: a.leftOutNote(g)})
	return true
}

// hasForbidden reports whether a step is one the agent's policy forbids.
func (a *Agent) hasForbidden(steps []*Action) bool {
	for _, s := range steps {
		if s.Secured() && refusal(s, a.Authorities) != "" {
			return true
		}
	}
	return false
}

// pick runs the utility planner over the actions not backed off. An
// action that scores 0 or less is never picked: with no positive score the
// agent does nothing rather than something pointless.
func (a *Agent) pick() bool {
	var t0 time.Time
	if a.Timing {
		t0 = time.Now()
	}
	if h := a.Domain.Scoring; h != nil {
		h(a, true)
		defer h(a, false)
	}
	ranked := a.utility.ActionsByUtility(a.State)
	var took time.Duration
	if a.Timing {
		took = time.Since(t0)
	}
	for _, sa := range ranked {
		if !(sa.Score > 0) {
			break
		}
		if why := a.allowed1(sa.Action); why != "" {
			if !a.policy.Permits(sa.Action) {
				continue
			}
			a.noteBackoff([]*Action{sa.Action})
			continue
		}
		a.plan = append(a.plan[:0], sa.Action)
		a.picked = true
		a.rethinkAt = a.time + a.rethinkEvery()
		e := record.Event{Kind: record.EventPick, Action: sa.Action.Name, Score: sa.Score, Considerations: a.considerationsOf(sa.Action),
			Duration: took}
		if !a.recordsKept() {
			e.Scores = a.rec.scores[:0]
		}
		for _, r := range ranked {
			e.Scores = append(e.Scores, record.ActionScore{Action: r.Action.Name, Score: r.Score})
		}
		if !a.recordsKept() {
			a.rec.scores = e.Scores
		}
		for _, g := range a.Domain.Goals {
			a.sat()[g.Index] = g.Satisfied(a.State)
		}
		a.emit(e)
		return true
	}
	return false
}

func names(as []*Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

func equalStates(x, y expr.State) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !x[i].Equal(y[i]) {
			return false
		}
	}
	return true
}

// sameForDeciding reports whether deciding from the current state would
// find what it found in state failed, where it found nothing. A GOAP agent
// with the default planner handle compares only the variables the search
// can read (see planReads): a change of any other one (a clock a sensor
// writes every tick) cannot give a goal a plan. A utility pick, a
// custom planner handle or planning turned off may read any variable,
// so the whole states are compared then.
func (a *Agent) sameForDeciding(failed expr.State) bool {
	if a.Domain.Decide != "goap" || a.handle == nil || a.customHandle() || len(failed) != len(a.State) {
		return equalStates(failed, a.State)
	}
	for _, s := range a.planReads() {
		if !failed[s].Equal(a.State[s]) {
			return false
		}
	}
	return true
}

// planReads returns the slots the GOAP search of the agent's domain can
// read: those its goals' conditions, its actions' preconditions and the
// right-hand sides of their effects read. It is worked out once per domain
// and kept by the agent.
func (a *Agent) planReads() []int {
	d := a.Domain
	if a.readsOf == d {
		return a.reads
	}
	seen := make([]bool, d.Schema.Len())
	var out []int
	add := func(slots []int) {
		for _, s := range slots {
			if s >= 0 && s < len(seen) && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	for _, g := range d.Goals {
		add(g.Condition.Reads())
	}
	for _, act := range d.Actions {
		add(act.Pre.Reads())
		add(act.Effects.Reads())
	}
	a.reads, a.readsOf = out, d
	return out
}

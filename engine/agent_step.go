package engine

import (
	"errors"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Tick advances the agent by dt seconds (dt > 0): beliefs told to it,
// sensors and named conditions, the reactive layer's phase when it has
// one (see Reactive), then the replanning checks, then one resume of the
// running body (starting the next step first when none runs). A body that
// fails fails its step, never the agent or the world.
func (a *Agent) Tick(dt float64) {
	a.marks |= markInTick
	// The commonest ticks written out: a running body (its resume made,
	// or a Sleeper's skipped, see skipSleep) with nothing else to do: no
	// told belief, no reactive layer, no plan budget, no sensor and no
	// named condition; the world changed no slot since the last resume
	// (post in stateBuf, alike), the world's queue found no plan and no
	// re-score is due (nothingToCheck). What tickFull does then is all
	// here, in its order.
	if a.task != nil && a.marks&(markTold|markLayer) == 0 && a.ready == nil &&
		!a.rescoreDue(a.time) {
		if !testHooks.checkEverything && !a.slicing() && len(a.Domain.Sensors) == 0 && len(a.Domain.Conditions) == 0 &&
			!stateMoved(a) {
			a.tick++
			var moved uint64
			if a.asleep > 1 && dt == a.clock.dt {
				a.asleep-- // skippedResume(0)
				if !a.picked {
					a.sinceRescore = allSlots
				}
			} else {
				moved = a.resume(dt)
			}
			if a.goalsStillHold(moved) {
				a.lastProg = a.time
			} else if !a.progressStands(moved) {
				a.checkProgress(moved)
			}
			if a.marks&markLayer != 0 {
				a.ObserveBeliefs()
			}
			if dt == a.clock.dt {
				a.time = a.clock.next()
			} else {
				a.time = a.clock.advance(dt)
			}
			a.endTick()
			return
		}
	}
	a.tickFull(dt)
	a.endTick()
}

// endTick ends the agent's tick: a domain SetDomain was given during it
// (from a body, a sensor or a host method they called) is swapped in now.
func (a *Agent) endTick() {
	a.marks &^= markInTick
	if a.marks&markSwap != 0 {
		a.marks &^= markSwap
		d := a.swapTo
		a.swapTo = nil
		a.SetDomain(d)
	}
}

// tickFull is Tick in full.
func (a *Agent) tickFull(dt float64) {
	a.tick++
	if a.slicing() {
		a.tickFrom = a.time // for the world's plan-budget service after the tick
	}
	// The calls are skipped, not made to find nothing, when there is no
	// told belief, no reactive layer, no sensor and no named condition.
	if a.marks&(markTold|markLayer) != 0 { // a told belief or a reactive layer
		a.reactBegin()
	}
	if d := a.Domain; len(d.Sensors) > 0 || len(d.Conditions) > 0 {
		a.sense(dt)
	}
	if a.marks&markLayer != 0 {
		a.reactStep(dt)
	}
	bodyRan := a.task != nil // interrupted (on_interrupt may write) or resumed below
	changed := allSlots
	// moved is the slots changed since the last checkProgress, when known:
	// when the task that ran then runs on, the state then was post, and
	// the resume's notePost compares the state with it.
	moved, ranOn := allSlots, a.task != nil
	if a.task != nil {
		// worldChanges, its commonest case written out here (post in
		// stateBuf, no slot changed): no call for it. (When a slot did
		// change, worldChanges compares once more: rare, and spelling the
		// mask out here cost the common case 4 instructions a tick.)
		if !testHooks.checkEverything && !stateMoved(a) {
			changed = 0
		} else {
			changed = a.worldChanges()
		}
		if !a.nothingToCheck(changed) {
			if reason := a.invalidated(changed); reason != "" {
				a.interrupt(reason)
				ranOn = false
			}
		}
	} else if a.step < len(a.plan) {
		if reason := a.higherGoal(nil, allSlots); reason != "" {
			a.emit(record.Event{Kind: record.EventReplan, Goal: goalName(a.goal), Reason: reason})
			a.dropPlan()
		}
	}
	if a.task != nil || a.startNext() {
		bodyRan = true
		if a.skipSleep(dt, changed) {
			a.skippedResume(changed) // a Sleeper's resume that would only count time
			moved = changed
		} else if m := a.resume(dt); ranOn {
			moved = m
		}
	}
	if a.goalsStillHold(moved) {
		a.lastProg = a.time
	} else if !a.progressStands(moved) {
		a.checkProgress(moved)
	}
	if bodyRan && a.marks&markLayer != 0 {
		a.ObserveBeliefs() // the body's changes, dispatched at the next tick
	}
	if dt == a.clock.dt {
		a.time = a.clock.next() // advance, inlined
	} else {
		a.time = a.clock.advance(dt)
	}
}

// nothingToCheck reports whether invalidated(changed) would find nothing
// and do nothing: the world changed no slot, the world's queue found no
// plan for the agent (ready), and no re-score of a running pick is due.
// It is small enough to inline, so that most ticks of a running body make
// no call for their checks.
func (a *Agent) nothingToCheck(changed uint64) bool {
	return changed == 0 && a.ready == nil && !a.rescoreDue(a.time)
}

// rescoreDue reports whether a running pick is due to be scored again at
// game time t (its agent's time now, or at its next tick).
func (a *Agent) rescoreDue(t float64) bool {
	return a.picked && t+1e-9 >= a.rethinkAt
}

// invalidated says why the running step must stop, or "". changed is
// the slots the world changed since the body's last resume (see
// worldChanges): a check that reads none of them would find what it found
// then, nothing, so it is skipped.
func (a *Agent) invalidated(changed uint64) string {
	act := a.running
	// When the world changed nothing and the world's queue found no plan
	// for the agent (ready), the three checks would each find nothing:
	// every one of them is skipped by its read mask then.
	if changed != 0 || a.ready != nil {
		if changed&act.Pre.ReadMask() != 0 && !act.Pre.Eval(a.State) && act.Pre.Eval(a.post) {
			return "precondition \"" + act.Pre.Source() + "\" of " + act.Name + " no longer holds"
		}
		if r := a.higherGoal(a.post, changed); r != "" {
			return r
		}
		if r := a.watchPlan(changed); r != "" {
			return r
		}
	}
	// Re-score a running pick at most every RethinkEvery seconds, and not
	// once its own body has made its precondition false (it is finishing).
	if a.rescoreDue(a.time) && act.Pre.Eval(a.State) {
		a.rethinkAt = a.time + a.rethinkEvery()
		u := a.utility
		u.Commitment = a.Commitment
		if u.memo.holds(a, act, a.sinceRescore|changed) {
			return "" // the scores' inputs are as at the last re-score, which kept act
		}
		// Pick, with the scores the memo still knows taken from it.
		scoring := a.Domain.Scoring
		if scoring != nil {
			scoring(a, true)
		}
		next := u.repick(a, a.State, act, a.sinceRescore|changed)
		keeps := next == nil || next == act // decided by the state alone
		if next != nil && next != act && a.allowed1(next) == "" {
			bs, rs := u.Score(next, a.State), u.Score(act, a.State)
			if scoring != nil {
				scoring(a, false)
				scoring = nil
			}
			if bs > 0 {
				u.memo.forget()
				return "utility pick changed: " + next.Name + " (" + strconv.FormatFloat(bs, 'f', 3, 64) +
					") leads " + act.Name + " (" + strconv.FormatFloat(rs, 'f', 3, 64) + ")"
			}
			keeps = true
		}
		if scoring != nil {
			scoring(a, false)
		}
		if keeps {
			u.memo.keep(a, act)
			a.sinceRescore = changed
		} else {
			u.memo.forget() // a back-off or the policy kept act: they change with time
		}
	}
	return ""
}

// higherGoal reports a goal that was satisfied when the current plan was
// made, is unsatisfied now, outranks the current goal, and has a plan.
// With a running body, after is the state after its last resume: a goal
// the body itself made unsatisfied does not interrupt it, and changed is
// the slots the world changed since (see worldChanges): a goal that reads
// none of them is as it was after the resume, so it is skipped.
func (a *Agent) higherGoal(after expr.State, changed uint64) string {
	if a.Domain.Decide == "utility" {
		return ""
	}
	if a.slicing() {
		return a.probeHigher(after, changed) // the world's queue plans it (agent_slice.go)
	}
	for _, g := range a.Domain.ByPrio {
		if a.goal != nil && g.Priority <= a.goal.Priority {
			break
		}
		if !a.sat()[g.Index] || after != nil && changed&g.Condition.ReadMask() == 0 ||
			g.Satisfied(a.State) || after != nil && !g.Satisfied(after) {
			continue
		}
		a.sat()[g.Index] = false // check each flip once
		wp := a.Domain.borrowPlanner(a.planner)
		p, err := wp.PlanFor(g, a.State)
		ok := err == nil && a.allowed(p.Steps) == ""
		a.Domain.returnPlanner(wp)
		if ok {
			return "goal " + g.Name + " (" + g.Priority.String() + ") became unsatisfied"
		}
	}
	return ""
}

func (a *Agent) interrupt(reason string) {
	act := a.running
	if a.asleep > 0 {
		a.wake()
	}
	failed := interruptTask(a.task)
	a.task, a.running = nil, nil
	a.emit(record.Event{Kind: record.EventInterrupt, Goal: goalName(a.goal), Action: act.Name, Reason: reason})
	if failed != "" {
		a.emit(record.Event{Kind: record.EventFail, Goal: goalName(a.goal), Action: act.Name, Reason: failed})
	}
	a.dropPlan()
}

func (a *Agent) dropPlan() {
	a.plan, a.step, a.goal, a.picked = a.plan[:0], 0, nil, false
}

// startNext starts the next step, deciding first when there is none. It
// reports whether a task now runs.
func (a *Agent) startNext() bool {
	if a.goal != nil && a.step < len(a.plan) && a.goal.Satisfied(a.State) {
		a.dropPlan() // reached early: the rest of the plan is not needed
	}
	if a.step >= len(a.plan) && !a.decide() {
		return false
	}
	act := a.plan[a.step]
	if !act.Pre.Eval(a.State) {
		if a.goal == nil || !a.goal.Satisfied(a.State) {
			a.emit(record.Event{Kind: record.EventReplan, Goal: goalName(a.goal), Action: act.Name,
				Reason: "precondition \"" + act.Pre.Source() + "\" of the next step no longer holds"})
		}
		if !a.decide() {
			return false
		}
		act = a.plan[a.step]
	}
	if act.Body == nil {
		a.fail(act, newError("action \""+act.Name+"\" has no body"))
		return false
	}
	if (act.Uses != "" || a.holds != nil) && !a.claim(act) {
		return false
	}
	task, err := act.Body.Start(a, act)
	if err != nil {
		a.fail(act, err)
		return false
	}
	a.setTask(task, act)
	copy(a.started, a.State)
	a.notePost()
	e := record.Event{Kind: record.EventStart, Goal: goalName(a.goal), Action: act.Name}
	if a.holds != nil {
		e.Peer = a.holds.Name
	}
	a.emit(e)
	return true
}

// It returns the slots the resume changed (see notePost).
func (a *Agent) resume(dt float64) uint64 {
	if a.asleep > 0 {
		a.wake()
	}
	st, err := a.task.Resume(dt)
	// notePost, its commonest case (post in stateBuf, no slot changed)
	// written out: no call for it.
	var moved uint64
	if !stateMoved(a) {
		if !a.picked {
			a.sinceRescore = allSlots
		}
	} else {
		moved = a.notePostSlow()
	}
	if st == Running {
		// Open a sleep window when the task is a Sleeper that says so
		// (agent_sleep.go).
		if s, ok := a.task.(Sleeper); ok {
			if n := min(s.Asleep(dt), maxSleep); n > 0 {
				a.asleep, a.sleptOf = uint8(n+1), uint8(n)
			}
		}
		return moved
	}
	act := a.running // read only now: it lies after the hot fields
	switch st {
	case Succeeded:
		a.task, a.running = nil, nil
		a.step++
		note := a.finishNote(act)
		if why := a.notePromise(act, note != ""); why != "" {
			note += "; " + why
		}
		a.emit(record.Event{Kind: record.EventFinish, Goal: goalName(a.goal), Action: act.Name, Reason: note})
		a.noteRan(act)
		if note == "" {
			a.progressed() // a broken promise is no progress (see notePromise)
		}
		if a.picked {
			a.dropPlan()
		}
	default:
		if err == nil {
			err = errors.New("the body reported " + st.String())
		}
		a.task, a.running = nil, nil
		a.fail(act, err)
	}
	return moved
}

// unmetEffects compares the state after a step with what its effects
// promised from the state where it started.
func (a *Agent) unmetEffects(act *Action) string {
	if act.Effects.IsEmpty() {
		return ""
	}
	copy(a.scratch, a.started)
	if err := act.Effects.Apply(a.scratch, a.started); err != nil {
		return "effects could not be checked: " + err.Error()
	}
	msg := ""
	for _, s := range act.Effects.Writes() {
		if promised(act, s) {
			continue // a promised named condition: see brokenPromises
		}
		if !a.scratch[s].Equal(a.State[s]) {
			if msg == "" {
				msg = "promised effects not met:"
			}
			msg += " " + a.Domain.Schema.Name(s) + " = " + shortValue(a.scratch[s]) + " (is " + shortValue(a.State[s]) + ")"
		}
	}
	return msg
}

func (a *Agent) fail(act *Action, err error) {
	a.emit(record.Event{Kind: record.EventFail, Goal: goalName(a.goal), Action: act.Name, Reason: err.Error()})
	a.cooldown[act.Index] = a.time + a.retryDelay()
	a.dropPlan()
}

func (a *Agent) progressed() {
	a.lastProg = a.time
	if a.stuck {
		a.stuck = false
		a.emit(record.Event{Kind: record.EventRecovered})
	}
}

// checkProgress marks the agent STUCK, or progressing, from its first
// unsatisfied goal. moved is the slots changed since its last call, when
// known (see Tick): when no goal reads any of them, the goals are as they
// were then, and what it found then (progGoal) stands.
func (a *Agent) checkProgress(moved uint64) {
	after := a.StuckAfter
	if after == 0 {
		after = defaultStuckAfter
	}
	if after < 0 {
		a.progGoal = 0
		return
	}
	var unsatisfied *Goal
	byPrio := a.Domain.ByPrio
	if p := int(a.progGoal); p > 0 && moved != allSlots && !testHooks.checkEverything && p < len(byPrio)+2 && (moved == 0 || moved&goalsRead(byPrio) == 0) {
		if p > 1 {
			unsatisfied = byPrio[p-2]
		}
	} else {
		a.progGoal = 1
		for i, g := range byPrio {
			if !g.Satisfied(a.State) {
				unsatisfied, a.progGoal = g, 0
				if i+2 <= 255 {
					a.progGoal = uint8(i + 2)
				}
				break
			}
		}
	}
	if unsatisfied == nil {
		a.progressed()
		return
	}
	if !a.stuck && a.time+1e-9 >= a.lastProg+after {
		a.stuck = true
		a.emit(record.Event{Kind: record.EventStuck, Goal: unsatisfied.Name, Reason: "no progress for " + shortNumber(after) + " s"})
		a.emit(record.Event{Kind: record.EventSummary, Reason: a.Recorder.Summary("STUCK")})
	}
}

// goalsStillHold is checkProgress's commonest case, small enough to
// inline: every goal was satisfied at the last check and no slot moved
// since (moved), so every goal still is; the agent progressed and, not
// STUCK, has nothing to record (the caller sets lastProg).
func (a *Agent) goalsStillHold(moved uint64) bool {
	return a.progGoal == 1 && moved == 0 && !a.stuck && a.StuckAfter >= 0 && !testHooks.checkEverything
}

// progressStands reports whether checkProgress(moved) would find what it
// found last and do nothing: no slot moved, the first unsatisfied goal
// found then stands (progGoal), and the agent is STUCK already or its
// StuckAfter has not run out. It is small enough to inline, so that most
// ticks make no call for the progress check.
func (a *Agent) progressStands(moved uint64) bool {
	after := a.StuckAfter
	if after == 0 {
		after = defaultStuckAfter
	}
	p := int(a.progGoal)
	return moved == 0 && p > 1 && after > 0 && !testHooks.checkEverything && p < len(a.Domain.ByPrio)+2 &&
		(a.stuck || a.time+1e-9 < a.lastProg+after)
}

// goalsRead returns the slots the goals' conditions read, as bits.
func goalsRead(goals []*Goal) uint64 {
	var m uint64
	for _, g := range goals {
		m |= g.Condition.ReadMask()
	}
	return m
}

func goalName(g *Goal) string {
	if g == nil {
		return ""
	}
	return g.Name
}

package engine

import (
	"errors"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// planJob is an agent's time-sliced planning job: the goals it asked the
// world to plan (see World.PlanBudget), the planner it holds while the job
// is open, and what the job found.
type planJob struct {
	open    bool     // the agent waits in the world's queue
	planner *Planner // borrowed when first served, returned when the job ends
	slice   goap.Slice
	tried   []bool // per goal: planned in this job without a plan
	// probe is set for a job that only asks whether the goals in want
	// have a plan while the agent's plan runs (higher goals that became
	// unsatisfied, see probeHigher, and the current goal when the plan
	// watch found a step that can no longer run, see watchPlan); what it
	// finds waits in Agent.ready.
	probe bool
	want  []bool
	since int // the tick the current goal's search was first suspended; 0 when it was not
	// failed is set when a job ended without a plan; the next decide reads
	// it (and from, the state the job planned from) instead of planning.
	failed bool
	from   expr.State
}

// readyPlan is a plan a probe found, acted on at the agent's next tick.
type readyPlan struct {
	at         int // the tick it was found in; it is for the next tick only
	goal       *Goal
	steps      []*Action
	cost       float64
	expansions int
}

// slicing reports whether the agent plans through its world's queue.
func (a *Agent) slicing() bool {
	w := a.world
	return w != nil && w.PlanBudget > 0
}

// queuePlan is planGoals under a plan budget: it never plans itself. It
// takes a probe's plan found last tick (and reports true), or opens a job
// when some goal is unsatisfied, or reads the result of the job that
// ended, and reports false: no plan now (the world's queue sets the plan
// when it finds one, and the agent idles until then).
func (a *Agent) queuePlan() bool {
	j := &a.job
	if r := a.ready; r != nil {
		a.ready = nil
		if a.tick <= r.at+1 && !r.goal.Satisfied(a.State) && a.takePlan(r.goal, &Plan{Steps: r.steps, Cost: r.cost, Expansions: r.expansions}, nil, 0) {
			return true
		}
	}
	if j.open {
		j.probe = false // the plan ended: the probe becomes a job for every goal
		return false
	}
	unmet := false
	for _, g := range a.Domain.ByPrio {
		if !a.sat()[g.Index] && (a.Domain.Decide != "utility" || a.pursuing(g)) {
			unmet = true
			break
		}
	}
	if !unmet {
		j.failed = false
		if a.Domain.Decide == "goap" && !a.idle {
			a.idle = true
			a.emit(record.Event{Kind: record.EventIdle})
		}
		return false
	}
	if j.failed {
		j.failed = false
		if equalStates(j.from, a.State) {
			return false // the job's failure stands: decide goes on from it
		}
	}
	j.open, j.since = true, 0
	j.resetTried(len(a.Domain.Goals))
	return false
}

// probeHigher is higherGoal under a plan budget: a goal that was
// satisfied when the current plan was made, is unsatisfied now (and was
// not made so by the running body itself, see after) and outranks the
// current goal is handed to the world's queue, while the running step
// goes on. When the queue has found it a plan, probeHigher reports the
// goal, the caller interrupts the step or drops the plan, and the next
// decision adopts that plan (queuePlan).
func (a *Agent) probeHigher(after expr.State, changed uint64) string {
	if r := a.ready; r != nil {
		switch {
		case a.tick > r.at+1 || r.goal.Satisfied(a.State):
			a.ready = nil
		case a.goal == nil || r.goal.Priority > a.goal.Priority:
			return "goal " + r.goal.Name + " (" + r.goal.Priority.String() + ") became unsatisfied"
		case r.goal != a.goal:
			a.ready = nil // a plan for the current goal is the plan watch's (watchPlan)
		}
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
		a.probe(g)
	}
	return ""
}

// probe hands goal g to the world's queue while the agent's plan runs:
// it opens a probe job, or adds g to the one open. What the probe finds
// waits in Agent.ready for the next tick (see probeHigher, watchPlan).
func (a *Agent) probe(g *Goal) {
	j := &a.job
	if !j.open {
		j.open, j.probe, j.since = true, true, 0
		j.resetTried(len(a.Domain.Goals))
		if cap(j.want) < len(a.Domain.Goals) {
			j.want = make([]bool, len(a.Domain.Goals))
		}
		j.want = j.want[:len(a.Domain.Goals)]
		clear(j.want)
	}
	if j.probe {
		j.want[g.Index] = true
	}
}

// readyFor returns the plan the queue found last tick for goal g, or nil.
func (a *Agent) readyFor(g *Goal) *readyPlan {
	if r := a.ready; r != nil && r.goal == g && a.tick <= r.at+1 {
		return r
	}
	return nil
}

// resetTried marks none of n goals tried.
func (j *planJob) resetTried(n int) {
	if cap(j.tried) < n {
		j.tried = make([]bool, n)
	}
	j.tried = j.tried[:n]
	clear(j.tried)
}

// waitingForPlan reports whether the agent waits for the world's queue.
func (a *Agent) waitingForPlan() bool { return a.job.open }

// serveJob plans the agent's open job with at most left expansions (the
// searches that explain a failure count too, and are suspended like the
// main search). pos and of are the
// agent's place in this tick's queue, for the records. It returns the
// expansions spent and whether the job ended (with a plan or without).
// It runs on the world's goroutine after every agent has ticked.
func (a *Agent) serveJob(left, pos, of int) (spent int, done bool) {
	j := &a.job
	if a.handle == nil || a.customHandle() { // GOAP planning turned off, or a handle of its own, since the job opened
		a.endJob(false)
		return 0, true
	}
	saved := a.time
	a.time = a.tickFrom
	defer func() { a.time = saved }()
	if j.planner != nil && j.planner.Domain != a.Domain { // reloaded
		j.planner.s.Slice = nil
		j.planner.Domain.returnPlanner(j.planner)
		j.planner = nil
	}
	if j.planner == nil {
		j.planner = a.Domain.borrowPlanner(a.planner)
		j.slice.Drop()
	}
	p := j.planner
	p.MaxDepth, p.Budget, p.Chaining = a.planner.MaxDepth, a.planner.Budget, a.planner.Chaining
	sl := &j.slice
	sl.SetLeft(left)
	p.s.Slice = sl
	defer func() { p.s.Slice = nil }()
	before := p.s.Expanded
	if len(j.tried) != len(a.Domain.Goals) {
		j.resetTried(len(a.Domain.Goals))
	}
	if !j.probe { // as planGoals; a probe keeps the running plan's record (see higherGoal)
		for _, g := range a.Domain.Goals {
			a.sat()[g.Index] = g.Satisfied(a.State)
		}
	}
	// The goals in priority order, as planGoals takes them, each once per
	// job; a goal that became unsatisfied while a lower one was searched
	// takes over.
	for _, g := range a.Domain.ByPrio {
		if j.probe && !j.want[g.Index] {
			continue
		}
		if j.tried[g.Index] || !j.probe && a.sat()[g.Index] || g.Satisfied(a.State) || a.Domain.Decide == "utility" && !a.pursuing(g) {
			if held := sl.HeldGoal(); held != nil && held.Index == g.Index {
				a.emit(record.Event{Kind: record.EventReplan, Goal: g.Name, Expansions: sl.SoFar(),
					Reason: "suspended search dropped: the goal holds now"})
				sl.Drop()
				j.since = 0
			}
			continue
		}
		if held := sl.HeldGoal(); held != nil && held.Index != g.Index {
			a.emit(record.Event{Kind: record.EventReplan, Goal: held.Name, Expansions: sl.SoFar(),
				Reason: "suspended search dropped: goal " + g.Name + " (" + g.Priority.String() + ") became unsatisfied"})
			sl.Drop()
			j.since = 0
		}
		p.exclude = a.excludeFor(g, a.backedOff())
		p.Policy = a.currentPolicy()
		wasHeld, soFar := sl.Held(), sl.SoFar()
		plan, err := p.PlanFor(g, a.State)
		if wasHeld {
			e := record.Event{Kind: record.EventPlanResumed, Goal: g.Name, Expansions: soFar,
				Reason: "resumed after " + plural(a.tick-j.since, "tick")}
			if why := sl.Restarted(); why != "" {
				e.Expansions = 0
				e.Reason = "restarted: " + why
			}
			a.emit(e)
		}
		if errors.Is(err, errSearchPaused) {
			if j.since == 0 {
				j.since = a.tick
			}
			spent = p.s.Expanded - before
			a.emit(record.Event{Kind: record.EventPlanSuspended, Goal: g.Name, Expansions: sl.SoFar(),
				Reason: suspendNote(spent, pos, of)})
			return spent, false
		}
		sl.Drop()
		j.since = 0
		j.tried[g.Index] = true
		if j.probe {
			if err == nil && a.allowed(plan.Steps) == "" {
				a.ready = &readyPlan{at: a.tick, goal: g, steps: append([]*Action(nil), plan.Steps...), cost: plan.Cost, expansions: plan.Expansions}
				a.endJob(false)
				return p.s.Expanded - before, true
			}
			continue
		}
		if a.takePlan(g, plan, err, 0) {
			a.endJob(false)
			return p.s.Expanded - before, true
		}
	}
	spent = p.s.Expanded - before
	a.endJob(true)
	return spent, true
}

// endJob closes the job and gives its planner back; failed records that
// no goal has a plan from the current state.
func (a *Agent) endJob(failed bool) {
	j := &a.job
	if j.planner != nil {
		j.planner.s.Slice = nil
		j.planner.Domain.returnPlanner(j.planner)
		j.planner = nil
	}
	j.open, j.probe, j.since = false, false, 0
	j.slice.Drop()
	j.failed = failed
	if failed {
		j.from = append(j.from[:0], a.State...)
	}
}

// dropJob forgets any job (the budget was turned off, or the agent left
// its world).
func (a *Agent) dropJob() {
	a.endJob(false)
	a.ready = nil
}

func plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}

// errSearchPaused is what Planner.PlanFor returns when its search ran out
// of its slice's budget; the job asks again next tick.
var errSearchPaused = errors.New("engine: the search ran out of this tick's plan budget")

// suspendNote is the reason of a plan-suspended record.
func suspendNote(tick, pos, of int) string {
	return "plan budget spent (" + plural(tick, "expansion") + " this tick); queue position " +
		strconv.Itoa(pos) + " of " + strconv.Itoa(of) + "; resumes first next tick"
}

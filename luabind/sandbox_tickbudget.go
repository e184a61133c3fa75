package luabind

import (
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// DefaultTickBudgetCalls is how many whole instruction budgets one
// agent's scripts may spend in one tick when Options.TickBudget is zero:
// the tick budget is then 2 × Options.InstructionBudget (1,000,000 work
// units by default, about 20-50 ms of one core). Two, not one, so that
// one call allowed to spend its whole InstructionBudget (a body's heavy
// resume, say) still leaves as much again for the agent's sensors,
// conditions, guards, triggers and considerations in the same tick; the
// shipped scripts spend a few thousand units a tick at most.
const DefaultTickBudgetCalls = 2

// tickExceeded begins the error of a call the tick budget stopped.
const tickExceeded = "tick budget exceeded"

// siteKind says which of an agent's scripts a budgeted call runs, for the
// tick budget's accounting and its record.
type siteKind uint8

const (
	siteNone          siteKind = iota // not charged to a tick (a role file's top level, Runtime.Call)
	siteSensor                        // a sensor's run
	siteCondition                     // a named condition's test
	siteTrigger                       // a reactive plan's trigger
	siteGuard                         // a reactive plan's guard
	siteFilter                        // a wait_event filter function
	siteConsideration                 // a consideration function
	siteBody                          // an action body's resume
	siteIntention                     // an intention's resume (a plan body)
	siteInterrupt                     // an on_interrupt handler
	numSiteKinds
)

var siteNames = [numSiteKinds]string{"", "sensors", "conditions", "triggers", "guards", "wait_event filters",
	"considerations", "action bodies", "intentions", "on_interrupt"}

var siteOne = [numSiteKinds]string{"", "sensor", "condition", "trigger", "guard", "wait_event filter",
	"consideration", "action body", "intention", "on_interrupt"}

// callSite is the script the next budgeted call runs: set by the caller
// just before Runtime.call or a resume, taken (and cleared) where the
// call is armed (Runtime.begin, luaUtility.call).
type callSite struct {
	kind siteKind
	name string    // the sensor, condition, plan or consideration, when known
	w    *tickWork // the agent's tick record, when the caller has it at hand
}

// String is "the guard of plan \"heavy\"", "the sensor \"see\"" and the like.
func (s callSite) String() string {
	switch {
	case s.name == "":
		return "the " + siteOne[s.kind]
	case s.kind == siteTrigger || s.kind == siteGuard:
		return "the " + siteOne[s.kind] + " of " + s.name
	}
	return "the " + siteOne[s.kind] + " " + strconv.Quote(s.name)
}

// tickWork is what one agent's scripts spent in one tick, in work units.
type tickWork struct {
	tick int
	// spent is the work of every charged call this tick (see
	// Options.TickBudget), by is the same by kind of script.
	spent int64
	by    [numSiteKinds]int64
	// intentions is the part of spent that intentions did: they also
	// share one InstructionBudget per tick among themselves.
	intentions      int64
	intentionsNoted bool // the intentions' deferral of this tick is recorded
	noted           bool // the tick-budget record of this tick is made
	// considerations are the consideration functions whose failure this
	// tick is recorded (consideration-failed), by id.
	considerations map[int]bool
}

// tickWork returns agent a's work record for its current tick
// (engine.Agent.Ticks), starting a fresh one when the tick changed.
func (r *Runtime) tickWork(a *engine.Agent) *tickWork {
	if r.bdi.work == nil {
		r.bdi.work = map[*engine.Agent]*tickWork{}
	}
	w := r.bdi.work[a]
	if w == nil {
		w = &tickWork{tick: -1}
		r.bdi.work[a] = w
	}
	return w.now(a)
}

// cachedTickWork is tickWork for a caller that keeps the record at
// *cache (a body's task), looking it up once.
func (r *Runtime) cachedTickWork(a *engine.Agent, cache **tickWork) *tickWork {
	if w := *cache; w != nil {
		return w.now(a)
	}
	w := r.tickWork(a)
	*cache = w
	return w
}

// now starts w afresh when agent a's tick is not w's.
func (w *tickWork) now(a *engine.Agent) *tickWork {
	if w.tick != a.Ticks() {
		*w = tickWork{tick: a.Ticks(), considerations: w.considerations}
		clear(w.considerations)
	}
	return w
}

// charged reports whether agent a's calls are charged to its tick: with
// a tick budget, once the agent has ticked (Go code that resumes a body
// or scores actions before the first tick, as tests and benchmarks do,
// is not charged).
func (r *Runtime) charged(a *engine.Agent) bool {
	return r.tickLimit > 0 && a != nil && a.Ticks() > 0
}

// tickSpent reports whether agent a's scripts have spent this tick's
// budget, so that a call of kind at site (named name) must not run; the
// first such refusal of a tick makes the tick's record when no cut made
// it. It is false without a tick budget or an agent.
func (r *Runtime) tickSpent(a *engine.Agent, kind siteKind, name string) bool {
	if kind == siteNone || !r.charged(a) {
		return false
	}
	w := r.tickWork(a)
	if w.spent < r.tickLimit {
		return false
	}
	r.noteTickBudget(a, w, callSite{kind: kind, name: name}, "", false)
	return true
}

// tickRefused is the error of a call that tickSpent refused.
func (r *Runtime) tickRefused(a *engine.Agent, s callSite) error {
	return &tickBudgetError{msg: "luabind: " + s.String() + " not run: " + agentName(a) +
		" spent this tick's budget of " + strconv.FormatInt(r.tickLimit, 10) +
		" work units (see the tick-budget record and luabind.Options.TickBudget); it runs again next tick"}
}

// noteScriptError counts err, an error a script raised while an agent
// ran, for ScriptErrors, unless the agent's tick budget stopped or
// refused the script: that is a limit on a tick's work, and the script
// runs again next tick.
func (r *Runtime) noteScriptError(err error) {
	if !byTickBudget(err) {
		r.scriptErrors++
	}
}

// byTickBudget reports whether err is the agent's tick budget refusing a
// call or stopping one. A stopped call's error comes back through Lua as
// text, with the script's place in front, so it is known by its text.
func byTickBudget(err error) bool {
	_, refused := err.(*tickBudgetError)
	return refused || strings.Contains(err.Error(), tickExceeded)
}

// tickBudgetError is a call refused because its agent's tick budget is
// spent; a consideration refused so is not recorded on its own (the
// tick-budget record says it).
type tickBudgetError struct{ msg string }

func (e *tickBudgetError) Error() string { return e.msg }

// armTick lowers the limit of the budget just armed for agent a's call at
// r.site to what is left of a's tick budget, when that is less than the
// call's own InstructionBudget, and returns a's work record (nil when the
// call is not charged to a tick). Only the limit and its stop change, so
// the VM's per-instruction check is the same as without a tick budget.
func (r *Runtime) armTick(a *engine.Agent) *tickWork {
	site := r.site
	if site.kind == siteNone || !r.charged(a) {
		return nil
	}
	w := site.w
	if w == nil {
		w = r.tickWork(a)
	} else {
		w.now(a)
	}
	b := r.budget
	left := max(r.tickLimit-w.spent, 1)
	if left < b.limit {
		b.limit = left
		if b.stop > left {
			b.stop = left
		}
		b.tickCut = true
	}
	site.w = nil
	r.tickSite = site
	return w
}

// beginTick is Runtime.begin's part for a call whose site is set: an
// outermost arming (armed) is charged to agent a's tick (see armTick);
// the site is taken either way.
func (r *Runtime) beginTick(a *engine.Agent, armed bool) {
	if armed {
		r.armedTick, r.tickAgent = r.armTick(a), a
	}
	r.site = callSite{}
}

// endTick charges the work of the call armed by armTick to w, records the
// tick budget's cut when the call ran past it, and gives the budget back
// its own limit.
func (r *Runtime) endTick(a *engine.Agent, w *tickWork) {
	b := r.budget
	n := max(b.n, 0)
	w.spent += n
	w.by[r.tickSite.kind] += n
	if b.tickCut {
		if b.spent != nil && b.n > b.limit {
			r.noteTickBudget(a, w, r.tickSite, b.spentAt, true)
		}
		b.limit, b.tickCut = b.callLimit, false
	}
	r.tickSite, r.armedTick, r.tickAgent = callSite{}, nil, nil
}

// noteTickBudget makes the tick's one tick-budget record for agent a:
// what was cut (site, at where when known; cut false when the call was
// refused before it ran) and where the tick's work went.
func (r *Runtime) noteTickBudget(a *engine.Agent, w *tickWork, site callSite, where string, cut bool) {
	if w.noted {
		return
	}
	w.noted = true
	var sb strings.Builder
	sb.WriteString(agentName(a) + " spent this tick's budget of " +
		strconv.FormatInt(r.tickLimit, 10) + " work units (")
	first := true
	for k := siteSensor; k < numSiteKinds; k++ {
		if w.by[k] == 0 {
			continue
		}
		if !first {
			sb.WriteString(", ")
		}
		first = false
		sb.WriteString(siteNames[k] + " " + strconv.FormatInt(w.by[k], 10))
	}
	sb.WriteString("): ")
	if cut {
		sb.WriteString("cut " + site.String())
		if where = strings.TrimSuffix(where, ": "); where != "" {
			sb.WriteString(" at " + where)
		}
	} else {
		sb.WriteString("refused " + site.String())
	}
	sb.WriteString("; its other scripts do not run until the next tick (see luabind.Options.TickBudget)")
	a.Record(record.Event{Kind: record.EventTickBudget, Action: site.name, Reason: sb.String()})
}

// scoring is the domain's engine.Domain.Scoring: it tells the runtime
// which agent the consideration functions score for.
func (r *Runtime) scoring(a *engine.Agent, begin bool) {
	if begin {
		r.scorer = a
		if r.charged(a) {
			r.scoreWork = r.tickWork(a)
		}
		return
	}
	r.scorer, r.scoreWork = nil, nil
}

// considerationFailed records, once per agent, tick and consideration,
// that consideration id (named name, declared at pos) failed with err
// while scoring action act for the agent scoring now; a refusal of the
// spent tick budget is left to the tick-budget record.
func (r *Runtime) considerationFailed(id int, name string, pos engine.Pos, act *engine.Action, err error) {
	a := r.scorer
	if a == nil {
		return
	}
	if byTickBudget(err) {
		return
	}
	w := r.tickWork(a)
	if w.considerations[id] {
		return
	}
	if w.considerations == nil {
		w.considerations = map[int]bool{}
	}
	w.considerations[id] = true
	r.scriptErrors++
	at := ""
	if pos.File != "" {
		at = " (" + pos.String() + ")"
	}
	msg := strings.TrimPrefix(err.Error(), "luabind: ")
	msg = strings.TrimPrefix(msg, "consideration "+strconv.Quote(name)+": ")
	msg = strings.TrimPrefix(msg, "consideration "+strconv.Quote(name)+" ")
	a.Record(record.Event{Kind: record.EventConsiderationFailed, Action: act.Name,
		Reason: "consideration " + strconv.Quote(name) + at + " scored 0: " + msg})
}

package goap

import (
	"slices"
	"strconv"
	"strings"
)

// Reason is why a search found no plan.
type Reason uint8

// The reasons of a Failure.
const (
	Unreachable        Reason = iota + 1 // no chain of actions reaches the goal
	CyclicPrecondition                   // only a chain that needs what it produces could
	MaxDepthExceeded                     // the depth limit cut the search
	BudgetExceeded                       // the budget was spent with states still open
)

// MaxMaxDepth is the depth limit of the search that tells a plan beyond
// the planner's limit from no plan at all.
const MaxMaxDepth = 256

// Failure is why one search for a goal found no plan, from that search
// alone: the planner turns it into its error. Action and Precondition
// name the action whose precondition blocks, when one does; Expansions
// is set where the error reports it.
type Failure struct {
	Reason       Reason
	Action       string
	Precondition string
	Expansions   int
	Detail       string
}

// Explain builds the failure of a search for gs from start within
// maxDepth that ended with res (not Found) after expansions, cut by the
// depth limit or not. It may search again, deeper, to tell a plan beyond
// the limit from none (under a Slice that search may be suspended: see
// Suspended).
func (p *Searcher) Explain(gs *GoalSearch, start State, maxDepth int, res Outcome, cut bool, expansions int) *Failure {
	switch res {
	case OverBudget:
		return &Failure{Reason: BudgetExceeded, Expansions: expansions,
			Detail: "the search expanded " + strconv.Itoa(expansions) + " states without reaching the goal"}
	case DeadEnd:
		return &Failure{Reason: Unreachable,
			Detail: "the goal's condition can never hold: no action can move its variables toward it, or the actions that do run out of a resource nothing restores" + p.deadEndNote(gs, start)}
	}
	if cut {
		if e, settled := p.explainCut(gs, start, maxDepth, expansions); settled {
			return e
		}
		// The deeper search proved there is no plan at all; its record of
		// the preconditions that held is the complete one.
	}
	return p.explainBlocked(gs, expansions)
}

// explainCut is Explain for a search the depth limit cut: a search with
// the limit at MaxMaxDepth tells a plan beyond the limit (or a spent
// budget) from no plan at all. settled is false when that search proved
// there is no plan.
func (p *Searcher) explainCut(gs *GoalSearch, start State, maxDepth, expansions int) (e *Failure, settled bool) {
	e = &Failure{Reason: MaxDepthExceeded, Expansions: expansions,
		Detail: "no plan within " + strconv.Itoa(maxDepth) + " steps; the search was cut by the depth limit"}
	if maxDepth == MaxMaxDepth {
		return e, true
	}
	end, res2, cut2, _ := p.search(gs, start, MaxMaxDepth)
	switch {
	case res2 == Paused:
		return e, true // suspended: the caller asks again next tick
	case res2 == Found:
		e.Detail = "a plan of " + strconv.Itoa(p.endDepth(end)) + " steps exists, beyond maxDepth " + strconv.Itoa(maxDepth)
		return e, true
	case res2 == OverBudget || cut2:
		return e, true
	}
	return nil, false
}

// explainBlocked is Explain for a search that ran out of states: it names
// the candidate whose precondition never held, following the blocked
// chain down to its root, or says the chain is cyclic.
func (p *Searcher) explainBlocked(gs *GoalSearch, expansions int) *Failure {
	g := gs.goal
	e := &Failure{Reason: Unreachable, Expansions: expansions, Detail: "no chain of actions reaches the goal"}
	var blocker *Action
	excluded := 0
	held := p.heldNow()
	for _, ai := range gs.direct {
		if p.Skip != nil && p.Skip[ai] {
			excluded++
			continue
		}
		// The first never-enabled action that fulfills the goal, else the
		// first never-enabled candidate.
		if a := &p.prob.Actions[ai]; !held[ai] && (blocker == nil || a.Serves(g) && !blocker.Serves(g)) {
			blocker = a
		}
	}
	if excluded == len(gs.direct) {
		e.Detail = "every action that could reach the goal is left out (backed off after a failure, or not permitted)"
		return e
	}
	if blocker == nil {
		return e
	}
	e.Action, e.Precondition = blocker.Name, blocker.Pre.Source()
	e.Detail = "the precondition of \"" + blocker.Name + "\" never holds"
	if p.cyclic(blocker) {
		e.Reason = CyclicPrecondition
		e.Detail = p.cycleDetail(blocker)
		return e
	}
	if root := p.rootBlocker(gs, blocker); root != blocker {
		e.Action, e.Precondition = root.Name, root.Pre.Source()
		e.Detail = "the precondition of \"" + root.Name + "\" never holds, so \"" + blocker.Name +
			"\" (\"" + blocker.Pre.Source() + "\") can never run"
	}
	return e
}

// rootBlocker follows a blocked chain down from blocker, an action whose
// precondition never held in the search: while some relevant action that
// assigns a variable the current action's precondition reads never had
// its own precondition hold either (the first in declaration order), it
// is the cause one link further down. It returns the last such action:
// the one whose precondition blocks the chain.
func (p *Searcher) rootBlocker(gs *GoalSearch, blocker *Action) *Action {
	seen := map[int]bool{blocker.Index: true}
	held := p.heldNow()
	cur := blocker
	for {
		var next *Action
		reads := cur.Pre.Reads()
		for _, ai := range gs.actions {
			w := &p.prob.Actions[ai]
			if seen[w.Index] || held[ai] || (p.Skip != nil && p.Skip[ai]) || w.Pre.IsEmpty() {
				continue
			}
			if writesAny(w.Effects, reads) {
				next = w
				break
			}
		}
		if next == nil {
			return cur
		}
		seen[next.Index] = true
		cur = next
	}
}

// cyclic reports whether a's precondition can only be produced by a cycle:
// take the variables it reads and, transitively, those read by the
// preconditions of the actions that assign them; every one of them is
// assigned by some action, and every such action needs one of them.
func (p *Searcher) cyclic(a *Action) bool {
	d := p.prob
	inV, order := p.neededVars(a)
	// Cyclic when every variable of V has producers and every producer
	// needs a variable of V: only the chain itself could start the chain.
	for _, s := range order {
		produced := false
		for i := range d.Actions {
			w := &d.Actions[i]
			if !writesAny(w.Effects, []int{s}) {
				continue
			}
			produced = true
			needs := false
			for _, r := range w.Pre.Reads() {
				needs = needs || inV[r]
			}
			if !needs {
				return false
			}
		}
		if !produced {
			return false
		}
	}
	return len(order) > 0
}

// cycleDetail says in plain words what a cyclic precondition of a is and
// how to mend it: a needs some variables, and every action that changes
// them needs one of them first, so nothing can start the chain.
func (p *Searcher) cycleDetail(a *Action) string {
	_, order := p.neededVars(a)
	var vars, makers []string
	for _, s := range order {
		vars = append(vars, p.prob.Schema.Name(s))
	}
	for i := range p.prob.Actions {
		if w := &p.prob.Actions[i]; writesAny(w.Effects, order) {
			makers = append(makers, strconv.Quote(w.Name))
		}
	}
	v := joinWords(vars, "or")
	if len(makers) == 1 && makers[0] == strconv.Quote(a.Name) {
		return strconv.Quote(a.Name) + " needs " + v + ", and only " + makers[0] + " itself changes " + v +
			", so it can never go first: give " + v + " a starting value that lets it run, or add an action (or a sensor) that changes " +
			v + " without needing it"
	}
	var needs []string
	for _, s := range a.Pre.Reads() {
		needs = append(needs, p.prob.Schema.Name(s))
	}
	return strconv.Quote(a.Name) + " needs " + joinWords(needs, "and") + ", and every action that changes " + v + " (" +
		joinWords(makers, "and") + ") needs one of them first, so none of them can go first: give " + v +
		" a starting value that lets the chain begin, or add an action (or a sensor) that changes one of them without needing any"
}

// joinWords joins words as a sentence lists them: "a", "a or b",
// "a, b or c" (with and in place of "or").
func joinWords(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}

// neededVars returns V, the variables a's precondition reads closed over
// the preconditions of the actions that assign them, as a set by slot and
// in the order found.
func (p *Searcher) neededVars(a *Action) (inV []bool, order []int) {
	d := p.prob
	inV = make([]bool, d.Schema.Len())
	add := func(s int) {
		if !inV[s] {
			inV[s] = true
			order = append(order, s)
		}
	}
	for _, s := range a.Pre.Reads() {
		add(s)
	}
	for k := 0; k < len(order); k++ {
		for i := range d.Actions {
			if w := &d.Actions[i]; writesAny(w.Effects, order[k:k+1]) {
				for _, r := range w.Pre.Reads() {
					add(r)
				}
			}
		}
	}
	return inV, order
}

// deadEndNote names, for a goal no action can move toward, the variable
// that cannot move: ` (no action assigns "rained")`, or for a number the
// actions that move it only the other way: ` ("gold": Spend only moves it
// the other way)`, or the actions that move it the right way but use up a
// resource nothing restores: ` ("bread": Bake use up "wheat", which no
// action restores enough of)`; or "".
func (p *Searcher) deadEndNote(gs *GoalSearch, start State) string {
	for i := range gs.atoms {
		at := &gs.atoms[i]
		if c, _ := at.estimate(start); c < 1e308 {
			continue
		}
		slot := at.slot // set for a numeric atom only
		if !at.numeric && len(at.reads) > 0 {
			slot = at.reads[0]
		}
		name := p.prob.Schema.Name(slot)
		var movers []string
		for _, ai := range gs.actions {
			if act := &p.prob.Actions[ai]; writesAny(act.Effects, []int{slot}) {
				movers = append(movers, act.Name)
			}
		}
		if len(movers) == 0 {
			return " (no action assigns \"" + name + "\")"
		}
		if at.numeric && at.step != 0 && at.res != nil {
			// Some actions move it the right way, but each needs a
			// resource they use up and nothing gives back enough of.
			var toward []string
			for _, ai := range gs.actions {
				if act := &p.prob.Actions[ai]; writesAny(act.Effects, []int{at.slot}) && slices.Contains(act.Pre.Reads(), at.res.slot) {
					toward = append(toward, act.Name)
				}
			}
			return " (\"" + name + "\": " + strings.Join(toward, ", ") + verb(len(toward), " uses up \"", " use up \"") + p.prob.Schema.Name(at.res.slot) +
				"\", which no action restores enough of)"
		}
		if at.numeric {
			return " (\"" + name + "\": " + strings.Join(movers, ", ") + verb(len(movers), " only moves it", " only move it") + " the other way)"
		}
	}
	return ""
}

// verb is one when n is 1, else many: the verb agreeing with a list of n
// action names.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package goap

import (
	"cmp"
	"math"
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// relaxed is the estimate of a goal conjunct "x" (a bare variable that
// must be true) in a relaxed problem: deletes are ignored (an assignment
// that can make a variable true adds it; one that makes it false or a
// number does nothing), and every action keeps only one precondition, its
// first conjunct that is a bare variable ("p" in "p && !q && n > 2"), or
// none. Such a problem is a graph over the boolean facts: an action is an
// edge from its kept fact (or from anywhere, when it keeps none) to each
// fact it adds, and to the goal itself when it fulfills the goal. The
// cheapest way to make x true from a state is then a shortest path from
// a fact true there (see estimate): h_max of the relaxed problem, which
// sees a chain of boolean facts (p0 -> p1 -> ... -> p10 costs 10 where the
// one-step estimate says 1).
//
// Admissible: every step of a real plan is a step of the relaxed problem
// (its precondition holds, so the kept part does) and the facts true in
// each real state are among those of the relaxed state, so a real plan
// costs at least the relaxed optimum, the shortest path. Consistent: a step
// by a of cost c from s to s' leaves in s' only facts of s or added by a,
// so the path from s through a and then s' 's best fact costs at most c
// plus the estimate of s' (the one exception is an s' where no fact
// reaches x, which cannot reach the goal at all: its estimate falls back
// to one step, see estimate). The estimate bounds the cost only; the
// bound on the number of steps stays one, so the depth limit cuts where
// it did.
//
// It is computed once per goal, at analysis; a state's estimate is a scan
// of the facts that bring x within reach, cheapest first.
type relaxed struct {
	// facts are the facts from which x is reachable (x excluded), by
	// increasing cost, then slot.
	facts []relaxedFact
	// free is the cost from a state with no fact true (through actions
	// that keep no precondition), +Inf when x cannot be reached so; no
	// fact of facts costs more.
	free float64
}

// relaxedFact is a boolean fact (a slot that holds true) and the least
// cost that makes the atom true from a state where it holds, in the
// relaxed problem.
type relaxedFact struct {
	slot int
	cost float64
}

// relaxedFor returns the relaxed estimate of atom a when it is a bare
// variable and the estimate can ever be above today's (the atom's
// minCost), else nil.
func relaxedFor(d *Problem, gs *GoalSearch, a *atom) *relaxed {
	if a.numeric || a.node.Op() != expr.OpVar {
		return nil
	}
	goal := a.node.Slot()
	ns := d.Schema.Len()
	top := ns // the node "anywhere": an action that keeps no precondition
	type edge struct {
		from, to int
		cost     float64
	}
	var edges []edge
	for _, ai := range gs.actions {
		act := &d.Actions[ai]
		from := top
		if !act.Pre.IsEmpty() {
			for _, n := range conjuncts(act.Pre) {
				if n.Op() == expr.OpVar {
					from = n.Slot()
					break
				}
			}
		}
		if act.Serves(gs.goal) {
			edges = append(edges, edge{from, goal, act.Cost})
		}
		for _, s := range addsOf(act.Effects) {
			if s != from {
				edges = append(edges, edge{from, s, act.Cost})
			}
		}
	}
	// Backward shortest paths to the goal fact (Bellman-Ford: the graph
	// is small and no cost is negative).
	cost := make([]float64, ns+1)
	for i := range cost {
		cost[i] = math.Inf(1)
	}
	cost[goal] = 0
	for changed := true; changed; {
		changed = false
		for _, e := range edges {
			if c := e.cost + cost[e.to]; c < cost[e.from] {
				cost[e.from], changed = c, true
			}
		}
	}
	r := &relaxed{free: cost[top]}
	gain := r.free > a.minCost
	for s := 0; s < ns; s++ {
		// A fact dearer than free never lowers the estimate: free is
		// always there.
		if s == goal || !(cost[s] < r.free) {
			continue
		}
		r.facts = append(r.facts, relaxedFact{slot: s, cost: cost[s]})
		gain = gain || cost[s] > a.minCost
	}
	if !gain {
		return nil
	}
	slices.SortStableFunc(r.facts, func(x, y relaxedFact) int { return cmp.Compare(x.cost, y.cost) })
	return r
}

// addsOf returns the slots an effect may make true: those it assigns
// true, copies into, or changes in another shape; not those it assigns
// another literal or a sum (a number, never true).
func addsOf(e *Effect) []int {
	if e == nil {
		return nil
	}
	fe := flatEffect(e)
	if fe.slow != nil {
		return slices.Clone(e.Writes())
	}
	var out []int
	for _, as := range fe.as {
		switch as.kind {
		case assignLit:
			if as.lit.Truthy() {
				out = append(out, as.slot)
			}
		case assignCopy:
			out = append(out, as.slot)
		}
	}
	return out
}

// estimate is the atom's estimate from st, where its own test fails: the
// relaxed cost of the cheapest true fact, and at least the atom's minCost
// (one step). When no true fact reaches the atom in the relaxed problem it
// is that one step alone: the search, not the heuristic, then finds out
// that the goal cannot be reached.
func (r *relaxed) estimate(st State, minCost float64) (float64, int32) {
	c := r.free
	for i := range r.facts {
		if f := &r.facts[i]; st[f.slot].Truthy() {
			c = f.cost // the cheapest, since facts are sorted
			break
		}
	}
	return relaxedBound(c, minCost)
}

func relaxedBound(c, minCost float64) (float64, int32) {
	if math.IsInf(c, 1) {
		return minCost, 1
	}
	return max(c, minCost), 1
}

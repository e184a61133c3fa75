package goap

import (
	"math"
	"slices"
)

// Cached returns the analysis of goal index i when the searcher has it
// for its problem, else nil (then call GoalSearch). It is small enough to
// inline, so the planner's loop over goals pays no call in the common
// case.
func (p *Searcher) Cached(i int) *GoalSearch {
	if p.cacheFor == p.prob && uint(i) < uint(len(p.cache)) {
		return p.cache[i]
	}
	return nil
}

// GoalSearch returns the analysis of g over the searcher's problem,
// computed once per goal and kept while the problem stays the same (a
// goal not in the problem is analysed on every call).
func (p *Searcher) GoalSearch(g *Goal) *GoalSearch { return p.searchGoalSlow(g) }

// Goal returns the goal gs searches for.
func (gs *GoalSearch) Goal() *Goal { return gs.goal }

// Satisfied reports whether gs's goal holds in st, a state with every
// slot of the problem: exactly its condition's Eval, faster.
func (gs *GoalSearch) Satisfied(st State) bool {
	if gs.single.on {
		return gs.single.holds(st)
	}
	return gs.cond.eval(st)
}

// Direct returns the indexes of the goal's candidates, the actions that
// fulfill it or assign a variable its condition reads, in declaration
// order. The slice is shared: do not modify it.
func (gs *GoalSearch) Direct() []int32 { return gs.direct }

// Search runs A* for gs from start within maxDepth steps, or, with a
// Slice, replays or resumes the search of the chain it stands for. It
// returns the goal node when found (read it with PathTo, EndDepth, Cost
// and StoreEnd); cut reports whether the depth limit left a node
// unexpanded or dropped a successor.
func (p *Searcher) Search(gs *GoalSearch, start State, maxDepth int) (end int32, res Outcome, cut bool, expansions int) {
	if p.Slice != nil {
		return p.searchSliced(gs, start, maxDepth)
	}
	p.replayed = nil
	return p.searchNew(gs, start, maxDepth, math.MaxInt)
}

// PathTo appends to buf the action indexes of the plan ending at goal
// node end, last step first.
func (p *Searcher) PathTo(end int32, buf []int32) []int32 { return p.pathTo(end, buf) }

// AppendPath appends to dst the steps of the plan ending at goal node end,
// first step first, step k as byIndex[its action index]: PathTo and the
// lookups in one pass.
func AppendPath[T any](p *Searcher, end int32, dst, byIndex []T) []T {
	if end == replayEnd {
		for _, ai := range p.replayed.path {
			dst = append(dst, byIndex[ai])
		}
		return dst
	}
	nodes := p.nodes
	n := int(nodes[end].depth)
	if len(dst)+n > cap(dst) {
		dst = slices.Grow(dst, n)
	}
	dst = dst[:len(dst)+n]
	// A node's depth is its path's length: depth steps up end at the root.
	for k, i := len(dst)-1, end; k >= len(dst)-n; k-- {
		nd := &nodes[i]
		dst[k] = byIndex[nd.action]
		i = nd.parent
	}
	return dst
}

// EndDepth returns the steps of the plan ending at goal node end.
func (p *Searcher) EndDepth(end int32) int { return p.endDepth(end) }

// Cost returns the cost of the plan ending at goal node end.
func (p *Searcher) Cost(end int32) float64 { return p.nodes[end].g }

// StoreEnd writes the state at goal node end into sim.
func (p *Searcher) StoreEnd(end int32, sim State) {
	if p.wmode {
		p.gs.words.store(sim, p.wordState(end))
		return
	}
	copy(sim, p.nodeState(end))
}

// Held returns which actions' preconditions held in an expanded state of
// the last search, by action index.
func (p *Searcher) Held() []bool { return p.heldNow() }

// Suspended reports whether a search of the current planning call ran out
// of the tick's plan budget (always false without a Slice).
func (p *Searcher) Suspended() bool { return p.suspended() }

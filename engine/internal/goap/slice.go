package goap

import (
	"slices"
)

// Time-sliced search. A planner that serves a World's plan budget (see
// engine.World.PlanBudget) carries a Slice: the expansions it may still
// spend in this tick and, between ticks, the one search it suspended. The
// suspended search is the planner's own arena (nodes, states, open set,
// table) left as it was; the next search call for the same goal, depth
// limit, left-out actions and start values goes on from it, so the plan is
// the one an unsliced search finds.

// Slice is a time-sliced planning job's hold on its planner.
//
// One goal's planning is a chain of searches: the main search and, when it
// finds no plan, the searches that explain the failure (the depth-256
// search behind MAX_DEPTH_EXCEEDED, the searches that blame a backed-off
// or forbidden action; see engine.Planner.explain). Every search of the chain
// counts against the budget and may be suspended. The searches of the
// chain that ended before the suspended one are kept in done, so the next
// tick's call replays them without spending an expansion and goes on with
// the suspended one: the final error is the unsliced one.
type Slice struct {
	// left is the expansions the job may still spend in this tick; never
	// below zero.
	left int

	// The suspended search, when held.
	held       bool
	key        searchKey // what it searches
	expansions int       // spent on it so far
	cut        bool
	// restarted says why the suspended search was thrown away and started
	// again by the last search call, or "".
	restarted string

	// done is the chain's ended searches, in call order, while a later
	// search of the chain is suspended; root is the chain's first search.
	done []doneSearch
	root searchKey
	step int // the index in the chain of the next search call
	// stopped is set when a search of the current call paused: the
	// chain's later searches wait for the next tick.
	stopped bool
}

// searchKey names one search: its goal, limits, start and left-out actions.
type searchKey struct {
	gs       *GoalSearch
	maxDepth int
	budget   int
	start    State  // the state the search started from
	skip     []bool // the actions it leaves out; empty for none
}

// set makes k the key of a search for gs from start within maxDepth with
// p's budget and left-out actions.
func (k *searchKey) set(p *Searcher, gs *GoalSearch, start State, maxDepth int) {
	k.gs, k.maxDepth, k.budget = gs, maxDepth, p.Budget
	k.start = append(k.start[:0], start...)
	k.skip = append(k.skip[:0], p.Skip...)
}

// doneSearch is what an ended search of a chain found: what its callers
// read (the outcome, the plan's actions from the first step when found,
// and which actions' preconditions held in an expanded state).
type doneSearch struct {
	res  Outcome
	cut  bool
	exp  int
	path []int32 // action indices, first step first, when res is Found
	held []bool
}

// soFar returns the expansions the chain of the suspended search has
// spent so far: its ended searches' and the suspended one's (for the
// records).
func (sl *Slice) soFar() int {
	n := sl.expansions
	for i := range sl.done {
		n += sl.done[i].exp
	}
	return n
}

// beginChain starts a goal's chain of searches (see Slice).
func (sl *Slice) beginChain() { sl.step, sl.stopped = 0, false }

// endChain forgets the chain's ended searches once its planning ended.
func (sl *Slice) endChain() { sl.done = sl.done[:0] }

// searchSliced is search for a planner with a slice: it replays a search
// of the chain that ended in an earlier tick, or resumes the suspended
// search when it matches, or starts a new one, and pauses when the slice's
// budget runs out.
func (p *Searcher) searchSliced(gs *GoalSearch, start State, maxDepth int) (int32, Outcome, bool, int) {
	sl := p.Slice
	k := sl.step
	sl.step++
	if k == 0 {
		sl.restarted = ""
		if len(sl.done) > 0 {
			// A chain is kept only while a later search of it is held.
			if !sl.held {
				sl.done = sl.done[:0]
			} else if why := sl.root.mismatch(p, gs, start, maxDepth); why != "" {
				sl.restarted, sl.held = why, false
				sl.done = sl.done[:0]
			}
		}
	}
	if k < len(sl.done) {
		return p.replay(&sl.done[k])
	}
	p.replayed = nil
	var (
		end   int32
		res   Outcome
		cut   bool
		exp   int
		entry int
	)
	if sl.held {
		if why := sl.key.mismatch(p, gs, start, maxDepth); why != "" {
			if sl.restarted == "" {
				sl.restarted = why
			}
			sl.held = false
			sl.done = sl.done[:k]
		}
	}
	if sl.held {
		p.gs, p.maxDepth = gs, maxDepth
		entry = sl.expansions
		end, res, cut, exp = p.searchLoop(gs, sl.expansions, sl.cut, sl.expansions+max(sl.left, 0))
	} else {
		end, res, cut, exp = p.searchNew(gs, start, maxDepth, max(sl.left, 0))
	}
	sl.left -= exp - entry
	p.Expanded += exp - entry
	if res != Paused {
		sl.held = false
		if k == 0 {
			sl.root.set(p, gs, start, maxDepth)
		}
		sl.done = append(sl.done, p.keepDone(res, cut, exp, end, sl.done))
		return end, res, cut, exp
	}
	if k == 0 {
		sl.root.set(p, gs, start, maxDepth)
	}
	sl.held, sl.stopped = true, true
	sl.key.set(p, gs, start, maxDepth)
	sl.expansions, sl.cut = exp, cut
	return end, res, cut, exp
}

// keepDone keeps what an ended search found, reusing the buffers of the
// entry at len(done) when there is one.
func (p *Searcher) keepDone(res Outcome, cut bool, exp int, end int32, done []doneSearch) doneSearch {
	var d doneSearch
	if len(done) < cap(done) {
		d = done[:len(done)+1][len(done)]
	}
	d.res, d.cut, d.exp = res, cut, exp
	d.path = d.path[:0]
	if res == Found {
		d.path = p.pathTo(end, d.path)
		slices.Reverse(d.path)
	}
	d.held = append(d.held[:0], p.heldBools()...)
	return d
}

// suspended reports whether a search of the current planning call ran
// out of the tick's plan budget (always false without a slice).
func (p *Searcher) suspended() bool { return p.Slice != nil && p.Slice.stopped }

// replayEnd is the goal node a replayed search returns: its plan is in
// Planner.replayed (see pathTo, endDepth).
const replayEnd int32 = -2

// replay gives back an ended search's findings without touching the
// arena, which may hold the suspended search: the plan, when found, and
// the record of preconditions that held are read through pathTo,
// endDepth and heldNow.
func (p *Searcher) replay(d *doneSearch) (int32, Outcome, bool, int) {
	p.replayed = d
	end := int32(-1)
	if d.res == Found {
		end = replayEnd
	}
	return end, d.res, d.cut, d.exp
}

// heldNow is the record of which actions' preconditions held in an
// expanded state of the last search (by action index).
func (p *Searcher) heldNow() []bool {
	if p.replayed != nil {
		return p.replayed.held
	}
	return p.heldBools()
}

// heldBools returns the last search's held stamps as booleans (a buffer
// reused by the next call).
func (p *Searcher) heldBools() []bool {
	b := slices.Grow(p.heldBuf[:0], len(p.held))[:len(p.held)]
	for i, g := range p.held {
		b[i] = g == p.curGen
	}
	p.heldBuf = b
	return b
}

// pathTo returns the actions of the plan ending at goal node end, last
// step first, appended to buf.
func (p *Searcher) pathTo(end int32, buf []int32) []int32 {
	if end == replayEnd {
		for i := len(p.replayed.path) - 1; i >= 0; i-- {
			buf = append(buf, p.replayed.path[i])
		}
		return buf
	}
	for i := end; p.nodes[i].parent >= 0; i = p.nodes[i].parent {
		buf = append(buf, p.nodes[i].action)
	}
	return buf
}

// endDepth returns the steps of the plan ending at goal node end.
func (p *Searcher) endDepth(end int32) int {
	if end == replayEnd {
		return len(p.replayed.path)
	}
	return int(p.nodes[end].depth)
}

// mismatch says why the search k names cannot stand for a search for gs
// from start within maxDepth, or "" when it can: another goal or limit,
// other left-out actions, or a variable the search reads (one the goal,
// a relevant precondition or a relevant effect reads) that changed since
// the search began. Variables the search never reads may change freely.
func (k *searchKey) mismatch(p *Searcher, gs *GoalSearch, start State, maxDepth int) string {
	switch {
	case gs != k.gs:
		return "the goal changed"
	case maxDepth != k.maxDepth || p.Budget != k.budget:
		return "the planner's limits changed"
	case !sameMask(p.Skip, k.skip):
		return "the actions left out changed (a back-off began or ended, or the policy changed)"
	}
	for _, s := range gs.full {
		if !start[s].Equal(k.start[s]) {
			return "variable \"" + p.prob.Schema.Name(s) + "\" changed since the search began"
		}
	}
	for _, s := range gs.kinds {
		if start[s].Kind() != k.start[s].Kind() {
			return "variable \"" + p.prob.Schema.Name(s) + "\" changed kind since the search began"
		}
	}
	return ""
}

// sameMask reports whether two left-out masks leave out the same actions
// (nil leaves out none).
func sameMask(a, b []bool) bool {
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		x := i < len(a) && a[i]
		y := i < len(b) && b[i]
		if x != y {
			return false
		}
	}
	return true
}

// SetLeft sets the expansions the job may still spend in this tick.
func (sl *Slice) SetLeft(n int) { sl.left = n }

// Held reports whether the slice holds a suspended search.
func (sl *Slice) Held() bool { return sl.held }

// HeldGoal returns the goal of the suspended search; nil when none is
// held.
func (sl *Slice) HeldGoal() *Goal {
	if !sl.held || sl.key.gs == nil {
		return nil
	}
	return sl.key.gs.goal
}

// Drop forgets the suspended search: the next search starts anew.
func (sl *Slice) Drop() { sl.held = false }

// SoFar returns the expansions the chain of the suspended search has
// spent so far: its ended searches' and the suspended one's.
func (sl *Slice) SoFar() int { return sl.soFar() }

// Restarted says why the last search call threw the suspended search away
// and started again, or "".
func (sl *Slice) Restarted() string { return sl.restarted }

// BeginChain starts a goal's chain of searches (see Slice).
func (sl *Slice) BeginChain() { sl.beginChain() }

// EndChain forgets the chain's ended searches once its planning ended.
func (sl *Slice) EndChain() { sl.endChain() }

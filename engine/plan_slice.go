package engine

import (
	"errors"
	"math"
	"strconv"
)

// Time-sliced search. A planner that serves a World's plan budget (see
// World.PlanBudget) carries a searchSlice: the expansions it may still
// spend in this tick and, between ticks, the one search it suspended. The
// suspended search is the planner's own arena (nodes, states, open set,
// table) left as it was; the next search call for the same goal, depth
// limit, left-out actions and start values goes on from it, so the plan is
// the one an unsliced search finds.

// paused is the outcome of a search that ran out of its slice's budget.
const paused = deadEnd + 1

// errSearchPaused is what Planner.PlanFor returns when its search ran out
// of its slice's budget; the job asks again next tick.
var errSearchPaused = errors.New("engine: the search ran out of this tick's plan budget")

// searchSlice is a time-sliced planning job's hold on its planner.
type searchSlice struct {
	// left is the expansions the job may still spend in this tick. The
	// searches that explain a failure run to the end, so it may go below
	// zero; the world carries that over as debt.
	left int
	// explain is set once the main search of the goal being planned has
	// ended: later searches (the MAX_DEPTH_EXCEEDED check, the blame of a
	// left-out action) explain its failure and never pause.
	explain bool

	// The suspended search, when held.
	held       bool
	gs         *goalSearch
	maxDepth   int
	budget     int
	start      State  // the state the search started from
	skip       []bool // the actions it leaves out; nil for none
	expansions int    // spent on it so far
	cut        bool
	// restarted says why the suspended search was thrown away and started
	// again by the last search call, or "".
	restarted string
}

// searchSliced is search for a planner with a slice: it resumes the
// suspended search when it matches, or starts a new one, and pauses when
// the slice's budget runs out.
func (p *Planner) searchSliced(gs *goalSearch, start State, maxDepth int) (int32, outcome, bool, int) {
	sl := p.slice
	sl.restarted = ""
	if sl.explain {
		end, res, cut, exp := p.searchNew(gs, start, maxDepth, math.MaxInt)
		sl.left -= exp
		p.expanded += exp
		return end, res, cut, exp
	}
	var (
		end   int32
		res   outcome
		cut   bool
		exp   int
		entry int
	)
	if sl.held {
		if why := sl.mismatch(p, gs, start, maxDepth); why != "" {
			sl.restarted, sl.held = why, false
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
	p.expanded += exp - entry
	if res != paused {
		sl.held, sl.explain = false, true
		return end, res, cut, exp
	}
	sl.held, sl.gs, sl.maxDepth, sl.budget = true, gs, maxDepth, p.budget()
	sl.start = append(sl.start[:0], start...)
	sl.skip = append(sl.skip[:0], p.skip...)
	if p.skip == nil {
		sl.skip = sl.skip[:0:0]
	}
	sl.expansions, sl.cut = exp, cut
	return end, res, cut, exp
}

// mismatch says why the suspended search cannot go on as a search for gs
// from start within maxDepth, or "" when it can: another goal or limit,
// other left-out actions, or a variable the search reads (one the goal,
// a relevant precondition or a relevant effect reads) that changed since
// the search began. Variables the search never reads may change freely.
func (sl *searchSlice) mismatch(p *Planner, gs *goalSearch, start State, maxDepth int) string {
	switch {
	case gs != sl.gs:
		return "the goal changed"
	case maxDepth != sl.maxDepth || p.budget() != sl.budget:
		return "the planner's limits changed"
	case !sameMask(p.skip, sl.skip):
		return "the actions left out changed (a back-off began or ended, or the policy changed)"
	}
	for _, s := range gs.full {
		if !start[s].Equal(sl.start[s]) {
			return "variable \"" + p.Domain.Schema.Name(s) + "\" changed since the search began"
		}
	}
	for _, s := range gs.kinds {
		if start[s].Kind() != sl.start[s].Kind() {
			return "variable \"" + p.Domain.Schema.Name(s) + "\" changed kind since the search began"
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

// suspendNote is the reason of a plan-suspended record.
func suspendNote(tick, pos, of int) string {
	return "plan budget spent (" + plural(tick, "expansion") + " this tick); queue position " +
		strconv.Itoa(pos) + " of " + strconv.Itoa(of) + "; resumes first next tick"
}

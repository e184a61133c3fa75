// Package goap is the search core behind engine.Planner: the analysis of
// a goal over a lowered problem, the admissible estimates, the A* search
// (general and on words), and the time-sliced search that resumes from
// one tick to the next. It reads a Problem built by package engine's
// Compile and knows nothing of agents, policies or errors for people
// beyond the failure of one search.
package goap

import "github.com/moonmind-ai/moonmind/engine/expr"

// The expression language's names the search reads.
type (
	// State is expr.State.
	State = expr.State
	// Value is expr.Value.
	Value = expr.Value
	// Condition is expr.Condition.
	Condition = expr.Condition
	// Effect is expr.Effect.
	Effect = expr.Effect
)

// The kinds of Value the search tells apart.
const (
	Bool   = expr.Bool
	Number = expr.Number
	String = expr.String
)

// Problem is a domain lowered for the search: the state layout, the
// actions and the goals, each by index in declaration order. It is
// read-only once built and shared by every Searcher over it.
type Problem struct {
	Schema  *expr.Schema // the state layout: slots and their names
	Initial State        // the initial state, whose kinds the word search takes
	Actions []Action     // declaration order; Action.Index is the position
	Goals   []*Goal      // declaration order; Goal.Index is the position
}

// Action is one action of a Problem.
type Action struct {
	Name     string
	Index    int
	Pre      *Condition
	Effects  *Effect
	Cost     float64
	NoRerun  bool    // at most once in a plan
	Fulfills []*Goal // the goals it completes whatever its effects say
}

// Goal is one goal of a Problem, or a goal planned over a Problem it is
// not part of (then no action fulfills it and Index is -1).
type Goal struct {
	Name      string
	Index     int
	Condition *Condition
}

// Serves reports whether a lists g in fulfills.
func (a *Action) Serves(g *Goal) bool {
	for _, f := range a.Fulfills {
		if f == g {
			return true
		}
	}
	return false
}

// isCandidate reports whether a is a candidate for g: it fulfills g or
// assigns a variable g's condition reads.
func isCandidate(a *Action, g *Goal) bool {
	return a.Serves(g) || writesAny(a.Effects, g.Condition.Reads())
}

// writesAny reports whether e assigns one of slots.
func writesAny(e *Effect, slots []int) bool {
	for _, w := range e.Writes() {
		for _, s := range slots {
			if w == s {
				return true
			}
		}
	}
	return false
}

// Searcher runs the searches of one planner over a Problem. It keeps its
// buffers between searches so steady-state planning does not allocate;
// it is not safe for concurrent use.
type Searcher struct {
	// Budget bounds the node expansions of one search; the caller sets it
	// (the planner's resolved budget) before each.
	Budget int
	// Skip, when set, leaves out the actions whose index is true.
	Skip []bool
	// GeneralOnly makes every search run the general loop, never the word
	// search; tests compare the two with it.
	GeneralOnly bool
	// Slice, when set, is the time-sliced job the searches serve (see
	// Slice); nil searches in one go.
	Slice *Slice
	// Expanded counts the node expansions of the sliced searches so far.
	Expanded int

	prob *Problem

	n      int // state width
	nodes  []node
	states State
	heap   []openEntry
	table  []int32
	gen    []uint32
	curGen uint32
	// held stamps, by action index, the search (its curGen) in which the
	// action's precondition last held in an expanded state, so a new
	// search starts with none held without clearing; heldBuf is heldNow's.
	held    []uint32
	heldBuf []bool

	keyBits, keySteps int // the layout of node.key
	maxDepth          int // of the running search
	cand              []uint64

	cacheFor *Problem
	cache    []*GoalSearch // by Goal.Index
	gs       *GoalSearch   // the goal being searched

	// The word search's arena (see words.go): nw words per node; wmode
	// says the last search ran on words.
	words []uint64
	nw    int
	wmode bool
	loop  wordLoopState

	replayed *doneSearch // the last search, when the slice replayed it from an earlier tick; nil when it ran
}

// Reset points the searcher at prob; the goals' analyses are kept while
// it stays the same.
func (p *Searcher) Reset(prob *Problem) { p.prob = prob }

// Problem returns the problem the searcher runs over.
func (p *Searcher) Problem() *Problem { return p.prob }

package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Explanation says why a pick was made: every applicable action's score
// and each of its considerations, as the flight recorder and the debug
// overlay show them.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Explanation struct {
	Mode       string  // UtilityAverage or UtilityMultiply
	Commitment float64 // the margin in force
	Running    *Action // the running action given to Pick, or nil
	// Kept is true when the pick (Pick's first result) is Running
	// although another action scored higher, by no more than the margin.
	Kept   bool
	picked *Action // the pick, or nil when no action applies
	// Actions are the applicable actions, best first (declaration order
	// among equal scores), with their scores without the margin.
	Actions []ActionExplanation
}

// ActionExplanation is one action's score and its considerations, in the
// order they were declared. Considerations left out (weight ≤ 0) are not
// listed; a combine is one row whose input is its average.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ActionExplanation struct {
	Action         *Action
	Score          float64
	Considerations []ConsiderationExplanation
}

// ConsiderationExplanation is one consideration's part in a score. Input is
// the raw input (a state value, the action's cost, a function's result;
// NaN when the state variable is missing or not a number), Output the
// score in [0, 1] after the curve, Weight its weight. Err is the error a
// consideration function reported (its output is then 0).
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ConsiderationExplanation struct {
	Name   string
	Input  float64
	Output float64
	Weight float64
	Err    error
}

// explain scores every applicable action with its rows, picks and sorts.
func (u *UtilityPlanner) explain(st expr.State, running *Action) *Explanation {
	e := &u.expl
	mode := u.Mode
	if mode == "" {
		mode = UtilityAverage
	}
	*e = Explanation{Mode: mode, Commitment: commitmentMargin(u.Commitment), Running: running, Actions: e.Actions[:0]}
	u.rows, u.spans = u.rows[:0], u.spans[:0]
	best, bestScore := (*Action)(nil), math.Inf(-1)
	runScore, runOK := 0.0, false
	for _, a := range u.Domain.Actions {
		if !a.Pre.Eval(st) {
			continue
		}
		u.spans = append(u.spans, len(u.rows))
		s := u.score(a, st, true)
		e.Actions = append(e.Actions, ActionExplanation{Action: a, Score: s})
		if s > bestScore {
			best, bestScore = a, s
		}
		if a == running {
			runScore, runOK = s, true
		}
	}
	// u.rows has stopped growing: hand out its sub-slices.
	for i := range e.Actions {
		end := len(u.rows)
		if i+1 < len(u.spans) {
			end = u.spans[i+1]
		}
		e.Actions[i].Considerations = u.rows[u.spans[i]:end:end]
	}
	slices.SortStableFunc(e.Actions, func(a, b ActionExplanation) int { return cmp.Compare(b.Score, a.Score) })
	e.picked, e.Kept = u.commit(best, bestScore, running, runScore, runOK)
	return e
}

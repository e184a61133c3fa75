package engine

import (
	"math"
	"sort"
)

// Consideration scores one aspect of an action in a state, in [0, 1], for
// the utility planner. Weight is its weight in the average (> 0).
type Consideration struct {
	Name   string
	Weight float64
	Score  func(a *Action, st State) float64
}

// CostConsideration is the seed's cost(): max(0, 1 − cost/100) over the
// action's utility cost. Weight 0 means 1.
func CostConsideration(weight float64) Consideration {
	return Consideration{Name: "cost", Weight: orOne(weight), Score: func(a *Action, _ State) float64 {
		return math.Max(0, 1-a.Utility.Cost/100)
	}}
}

// ValueConsideration is the seed's value(): min(1, value/100).
func ValueConsideration(weight float64) Consideration {
	return Consideration{Name: "value", Weight: orOne(weight), Score: func(a *Action, _ State) float64 {
		return math.Min(1, a.Utility.Value/100)
	}}
}

// UtilityConsideration is the seed's utility(): (value − cost + 100)/200.
func UtilityConsideration(weight float64) Consideration {
	return Consideration{Name: "utility", Weight: orOne(weight), Score: func(a *Action, _ State) float64 {
		return (a.Utility.Value - a.Utility.Cost + 100) / 200
	}}
}

// PreconditionConsideration is the seed's preconditionSatisfied(): 1 when
// the precondition holds or there is none, else 0. Weight 1.
func PreconditionConsideration() Consideration {
	return Consideration{Name: "preconditionSatisfied", Weight: 1, Score: func(a *Action, st State) float64 {
		if a.Pre.Eval(st) {
			return 1
		}
		return 0
	}}
}

// HasTagConsideration is the seed's hasTag(tag): 1 when the action has the
// tag, else 0. Weight 1.
func HasTagConsideration(tag string) Consideration {
	return Consideration{Name: "hasTag(" + tag + ")", Weight: 1, Score: func(a *Action, _ State) float64 {
		for _, t := range a.Utility.Tags {
			if t == tag {
				return 1
			}
		}
		return 0
	}}
}

// DefaultConsiderations are the seed's: cost(0.3), value(0.5),
// preconditionSatisfied().
func DefaultConsiderations() []Consideration {
	return []Consideration{CostConsideration(0.3), ValueConsideration(0.5), PreconditionConsideration()}
}

func orOne(w float64) float64 {
	if w == 0 {
		return 1
	}
	return w
}

// UtilityPlanner is the TnsAI seed's UtilityAIPlanner: it scores every
// action whose precondition holds and picks the best, ignoring goals.
//
//	score = (Σ consideration score × weight) / (Σ weight) × action weight
//
// Ties go to the action declared first. Not safe for concurrent use when
// considerations are not; the planner itself holds no mutable state beyond
// a reused result buffer.
type UtilityPlanner struct {
	Domain         *Domain
	Considerations []Consideration // nil means DefaultConsiderations

	scored []ScoredAction
}

// ScoredAction is an action with its utility score.
type ScoredAction struct {
	Action *Action
	Score  float64
}

// NewUtilityPlanner returns a planner with the given considerations, or the
// seed's defaults when none are given.
func NewUtilityPlanner(d *Domain, cs ...Consideration) *UtilityPlanner {
	if len(cs) == 0 {
		cs = DefaultConsiderations()
	}
	return &UtilityPlanner{Domain: d, Considerations: cs}
}

// Score returns the seed's weighted average for a, times a's weight.
func (u *UtilityPlanner) Score(a *Action, st State) float64 {
	sum, wsum := 0.0, 0.0
	for _, c := range u.Considerations {
		sum += c.Score(a, st) * c.Weight
		wsum += c.Weight
	}
	if wsum == 0 {
		return 0
	}
	return sum / wsum * a.Utility.Weight
}

// ActionsByUtility returns the applicable actions, best first (declaration
// order among equal scores). The slice is valid until the next call.
func (u *UtilityPlanner) ActionsByUtility(st State) []ScoredAction {
	u.scored = u.scored[:0]
	for _, a := range u.Domain.Actions {
		if a.Pre.Eval(st) {
			u.scored = append(u.scored, ScoredAction{a, u.Score(a, st)})
		}
	}
	sort.SliceStable(u.scored, func(i, j int) bool { return u.scored[i].Score > u.scored[j].Score })
	return u.scored
}

// SelectBestAction returns the best applicable action, or nil.
func (u *UtilityPlanner) SelectBestAction(st State) *Action {
	var best *Action
	bestScore := math.Inf(-1)
	for _, a := range u.Domain.Actions {
		if !a.Pre.Eval(st) {
			continue
		}
		if s := u.Score(a, st); s > bestScore {
			best, bestScore = a, s
		}
	}
	return best
}

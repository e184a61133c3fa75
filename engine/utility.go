package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Utility modes: how a planner combines an action's considerations.
const (
	// UtilityAverage is the weighted average, the default.
	UtilityAverage = "average"
	// UtilityMultiply multiplies the considerations' outputs (each raised
	// to its weight) after the IAUS compensation factor; see UtilityPlanner.
	UtilityMultiply = "multiply"
)

// UtilityPlanner scores every action whose precondition holds and picks
// the best, ignoring goals. docs/semantics.md gives the rules and where
// they come from.
//
// In the default mode ("average") an action's score is the weighted
// average
//
//	score = (Σ output × weight) / (Σ weight) × action weight
//
// over its considerations: the action's own list (ActionSpec.Considerations)
// when it has one, else the planner's. In "multiply" mode it is
//
//	score = Π (o + (1 − o) × (1 − 1/n) × o)^weight × action weight
//
// over the n considerations with a weight > 0: Dave Mark's compensation
// factor from the Infinite Axis Utility System (GDC 2015, "Building a Better
// Centaur: AI at Massive Scale", with Mike Lewis), which makes up part of
// what each factor below 1 takes away so an action is not punished for
// having more considerations. One zero output still vetoes the action.
// Either way, an action with no considerations scores 0.
//
// Ties go to the action declared first. SelectBestAction, ActionsByUtility,
// Plan and ActionsForGoal rank and pick by score alone; Pick adds the
// commitment margin and the explanation for the tick loop.
//
// A planner reuses its result buffers: the slices and the *Explanation it
// returns are valid until its next call. It is not safe for concurrent use;
// give each goroutine (each agent) its own. Considerations written in Lua
// must be called from their runtime's goroutine.
type UtilityPlanner struct {
	Domain *Domain
	// Considerations apply to the actions that have none of their own. The
	// default (nil) value is DefaultConsiderations. To change them while
	// an agent runs, assign a new slice rather than changing the elements
	// of the one in use: an agent skips a re-score of its running pick
	// when nothing the scores read has changed, and it tells considerations
	// apart by their slice.
	Considerations []Consideration
	// Mode is UtilityAverage or UtilityMultiply. The default (empty) value
	// is UtilityAverage.
	Mode string
	// Commitment is Pick's margin for the running action, in score units:
	// another action replaces it only when it scores more than the margin
	// higher. The default (zero) value is DefaultCommitment, 0.1, a tenth
	// of the [0, 1] range an action of weight 1 spans; a negative value
	// turns commitment off (the best action always wins). An Agent sets it
	// from Agent.Commitment, which means the same.
	Commitment float64
	// Explain makes Pick fill in its *Explanation (returned nil otherwise).
	Explain bool
	// Clamp bounds every consideration's output to [0, 1] in "average"
	// mode too, where the formulas are otherwise used exactly as TnsAI
	// writes them (see Consideration). Off by default. "multiply" mode always
	// clamps: its product needs factors in [0, 1].
	Clamp bool

	scored  []ScoredAction
	plan    []*Action
	expl    Explanation
	rows    []ConsiderationExplanation
	spans   []int
	lastErr error
	errs    int

	memo      pickMemo
	reads     uint64          // the slots the scores read (see pickReads), for readsCons
	readsOK   bool            // every consideration of readsCons reads state variables only
	readsCons []Consideration // the Considerations reads was worked out for
	readsDom  *Domain
	// actReads is per action of readsDom: the slots its precondition and
	// its score read.
	actReads []uint64
	// re is per action what the last repick found (see repick,
	// pickMemo.keep).
	re   []actionScore
	reOK bool // re is the last repick's, not yet kept or dropped
}

// actionScore is what a re-score found for one action: whether its
// precondition held, and its score then (when it held).
type actionScore struct {
	ok    bool
	score float64
}

// ScoredAction is an action with its utility score.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ScoredAction struct {
	Action *Action
	Score  float64
}

// NewUtilityPlanner returns a planner over d in d's utility mode with d's
// role considerations (RoleSpec.Considerations), or DefaultConsiderations
// when the roles declare none. Set Considerations to score with others.
// Commitment is zero, which means DefaultCommitment.
func NewUtilityPlanner(d *Domain) *UtilityPlanner {
	cs := d.Considerations
	if len(cs) == 0 {
		cs = DefaultConsiderations()
	}
	return &UtilityPlanner{Domain: d, Considerations: cs, Mode: d.UtilityMode}
}

// LastError returns how many errors the consideration functions have
// reported (a Lua error, say) and the last of them, or 0 and nil.
func (u *UtilityPlanner) LastError() (n int, err error) { return u.errs, u.lastErr }

func (u *UtilityPlanner) considerationsFor(a *Action) []Consideration {
	if len(a.Considerations) > 0 {
		return a.Considerations
	}
	if u.Considerations == nil {
		u.Considerations = DefaultConsiderations()
	}
	return u.Considerations
}

// Score returns a's score in st (see UtilityPlanner), whether or not its
// precondition holds.
func (u *UtilityPlanner) Score(a *Action, st expr.State) float64 {
	return u.score(a, st, false)
}

// score computes a's score; with explain it appends one row per
// consideration to u.rows.
func (u *UtilityPlanner) score(a *Action, st expr.State, explain bool) float64 {
	cs := u.considerationsFor(a)
	var s *expr.Schema
	if u.Domain != nil {
		s = u.Domain.Schema
	}
	if u.Mode == UtilityMultiply {
		n := 0
		for i := range cs {
			if cs[i].Weight > 0 {
				n++
			}
		}
		if n == 0 {
			return 0
		}
		mod := 1 - 1/float64(n)
		prod := 1.0
		for i := range cs {
			c := &cs[i]
			if !(c.Weight > 0) {
				continue
			}
			in, o, err := c.eval(a, st, s)
			o = clampScore(o)
			u.note(err)
			if explain {
				u.rows = append(u.rows, ConsiderationExplanation{Name: c.Name, Input: in, Output: o, Weight: c.Weight, Err: err})
			}
			f := o + (1-o)*mod*o
			switch c.Weight {
			case 1:
			case 2:
				f *= f
			case 0.5:
				f = math.Sqrt(f)
			default:
				f = math.Pow(f, c.Weight)
			}
			prod *= f
			if prod == 0 && !explain {
				break
			}
		}
		return prod * a.Utility.Weight
	}
	sum, wsum := 0.0, 0.0
	for i := range cs {
		c := &cs[i]
		if !(c.Weight > 0) {
			continue
		}
		in, o, err := c.eval(a, st, s)
		if u.Clamp {
			o = clampScore(o)
		}
		u.note(err)
		if explain {
			u.rows = append(u.rows, ConsiderationExplanation{Name: c.Name, Input: in, Output: o, Weight: c.Weight, Err: err})
		}
		sum += o * c.Weight
		wsum += c.Weight
	}
	if wsum == 0 {
		return 0
	}
	return sum / wsum * a.Utility.Weight
}

func (u *UtilityPlanner) note(err error) {
	if err != nil {
		u.lastErr = err
		u.errs++
	}
}

// ActionsByUtility returns the applicable actions, best first (declaration
// order among equal scores). The slice is valid until the next call.
func (u *UtilityPlanner) ActionsByUtility(st expr.State) []ScoredAction {
	return u.byUtility(st, nil)
}

// ActionsForGoal returns the applicable candidate actions for goal (see
// Goal.Candidate: they list it in fulfills or assign a variable it reads),
// best first (declaration order among equal scores); none for a nil goal.
// The slice is valid until the next call.
func (u *UtilityPlanner) ActionsForGoal(goal *Goal, st expr.State) []ScoredAction {
	if goal == nil {
		return u.scored[:0]
	}
	return u.byUtility(st, goal)
}

func (u *UtilityPlanner) byUtility(st expr.State, goal *Goal) []ScoredAction {
	u.scored = u.scored[:0]
	for _, a := range u.Domain.Actions {
		if goal != nil && !goal.Candidate(a) {
			continue
		}
		if a.Pre.Eval(st) {
			u.scored = append(u.scored, ScoredAction{a, u.score(a, st, false)})
		}
	}
	// Best first; stable, so ties keep declaration order. It does not
	// allocate.
	slices.SortStableFunc(u.scored, func(a, b ScoredAction) int { return cmp.Compare(b.Score, a.Score) })
	return u.scored
}

// SelectBestAction returns the best applicable action, or nil when none
// applies. It does not allocate.
func (u *UtilityPlanner) SelectBestAction(st expr.State) *Action {
	best, _, _, _ := u.best(st, nil)
	return best
}

// Plan returns at most one action, the best applicable one; none when no
// action applies. The slice is valid until the next call.
func (u *UtilityPlanner) Plan(st expr.State) []*Action {
	u.plan = u.plan[:0]
	if best := u.SelectBestAction(st); best != nil {
		u.plan = append(u.plan, best)
	}
	return u.plan
}

// best returns the best applicable action and its score, and running's
// score and whether running applies.
func (u *UtilityPlanner) best(st expr.State, running *Action) (best *Action, bestScore, runScore float64, runOK bool) {
	t := newTally()
	for _, a := range u.Domain.Actions {
		if a.Pre.Eval(st) {
			t.add(a, running, u.score(a, st, false))
		}
	}
	return t.best, t.bestScore, t.runScore, t.runOK
}

// tally is what best and repick keep while they go through the
// applicable actions: the best one so far (the first of equal scores)
// and the running action's score.
type tally struct {
	best                *Action
	bestScore, runScore float64
	runOK               bool
}

func newTally() tally { return tally{bestScore: math.Inf(-1)} }

// add counts applicable action a, of score s; running is the pick that
// runs (or nil).
func (t *tally) add(a, running *Action, s float64) {
	if s > t.bestScore {
		t.best, t.bestScore = a, s
	}
	if a == running {
		t.runScore, t.runOK = s, true
	}
}

// Pick is the tick loop's choice: the best applicable action, except that
// running (the action the agent is running, or nil) stays while it still
// applies and no other action scores more than Commitment above it. It
// returns nil when no action applies. The *Explanation is nil unless
// Explain is set; it is valid until the next call. Pick does not allocate
// once its buffers have grown, with or without Explain, unless a
// consideration function does.
func (u *UtilityPlanner) Pick(st expr.State, running *Action) (*Action, *Explanation) {
	if u.Explain {
		e := u.explain(st, running)
		return e.picked, e
	}
	best, bestScore, runScore, runOK := u.best(st, running)
	pick, _ := u.commit(best, bestScore, running, runScore, runOK)
	return pick, nil
}

func (u *UtilityPlanner) commit(best *Action, bestScore float64, running *Action, runScore float64, runOK bool) (*Action, bool) {
	if best == nil || !runOK || best == running {
		return best, false
	}
	margin := commitmentMargin(u.Commitment)
	if bestScore > runScore+margin {
		return best, false
	}
	return running, true
}

// commitmentMargin is the margin a Commitment setting stands for: the
// setting when positive, 0 (off) when negative, DefaultCommitment for zero
// (and NaN).
func commitmentMargin(c float64) float64 {
	switch {
	case c > 0:
		return c
	case c < 0:
		return 0
	}
	return DefaultCommitment
}

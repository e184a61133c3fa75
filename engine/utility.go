package engine

import (
	"cmp"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"math"
	"slices"
)

// ConsiderationKind names what a consideration measures.
// Its values are immutable and safe to share between goroutines.
type ConsiderationKind string

// The kinds of consideration. The first six score an action's own utility
// data and tags, as the planning rules in docs/semantics.md describe; Input
// is a response curve over a state variable (an axis of the Infinite Axis
// Utility System); Func is a custom function in Go or Lua.
const (
	// ConsiderCost scores cheap actions high: max(0, 1 − cost/100) over the
	// action's utility cost. Input: the cost.
	ConsiderCost ConsiderationKind = "cost"
	// ConsiderValue scores valuable actions high: min(1, value/100). Input: the
	// value.
	ConsiderValue ConsiderationKind = "value"
	// ConsiderUtility scores value against cost: (value − cost + 100)/200.
	// Input: value − cost.
	ConsiderUtility ConsiderationKind = "utility"
	// ConsiderPrecondition (preconditionSatisfied) is 1 when
	// the action's precondition holds or it has none, else 0.
	ConsiderPrecondition ConsiderationKind = "preconditionSatisfied"
	// ConsiderHasTag (hasTag(tag)) is 1 when the action has the
	// tag, else 0.
	ConsiderHasTag ConsiderationKind = "hasTag"
	// ConsiderCombine (combine(...)) is the weighted average of
	// its considerations (Of), whatever the planner's mode.
	ConsiderCombine ConsiderationKind = "combine"
	// ConsiderInput reads a state variable (a number; true is 1, false is
	// 0, anything else scores 0), normalises it from [Min, Max] to
	// [0, 1] and maps it through the curve. Input: the raw value.
	ConsiderInput ConsiderationKind = "input"
	// ConsiderFunc is a custom function (Score or Func). Input: what the
	// function returned, before clamping. The empty kind means ConsiderFunc.
	ConsiderFunc ConsiderationKind = "func"
)

// considerationKinds lists the kinds a ConsiderationSpec may name.
var considerationKinds = []ConsiderationKind{ConsiderCost, ConsiderValue, ConsiderUtility, ConsiderPrecondition,
	ConsiderHasTag, ConsiderCombine, ConsiderInput, ConsiderFunc}

// Consideration scores one aspect of an action in a state for the utility
// planner. Its output is TnsAI's formula exactly as TnsAI writes it
// (docs/semantics.md):
// cost() is max(0, 1 − cost/100) and value() min(1, value/100), each
// bounded on one side only; utility() is (value − cost + 100)/200,
// unbounded (value 300, cost 0 scores 2); combine() is the weighted
// average of its parts; a custom function's result is used as it is. A
// NaN score (or a function's error) counts as 0. Response curves and
// ConsiderInput stay in [0, 1]. (UtilityPlanner.Clamp, off by default,
// bounds every output to [0, 1]; "multiply" mode always does.) Curve,
// when set, maps the output, clamped to [0, 1] first, once more (for
// ConsiderInput it maps the normalised input; nil there means the linear
// identity), which is how the plain considerations compose with response
// curves.
//
// Build one with the constructors (CostConsideration, …), with
// CompileConsideration from a ConsiderationSpec, or as a literal
// Consideration{Name, Weight, Score} with a Go function. A
// Consideration is read-only once built; it is safe for concurrent use
// when its functions are.
type Consideration struct {
	Name string
	Kind ConsiderationKind
	// Weight is the consideration's weight: its share of the weighted
	// average, or its exponent in multiply mode. A weight ≤ 0 or NaN
	// leaves the consideration out.
	Weight float64
	Tag    string          // ConsiderHasTag
	Input  string          // ConsiderInput: the variable's name
	Slot   int             // ConsiderInput: the variable's slot
	Min    float64         // ConsiderInput: the raw value that normalises to 0
	Max    float64         // ConsiderInput: the raw value that normalises to 1
	Curve  *Curve          // optional; see above
	Of     []Consideration // ConsiderCombine
	// Score is a custom consideration in Go, (action, state) → score.
	Score func(a *Action, st State) float64
	// Func is a custom consideration that reads state by name through the
	// schema and may fail; an error scores 0 and is recorded (see
	// UtilityPlanner.LastError). Lua considerations use it. Used when
	// Score is nil.
	Func func(a *Action, st State, s *Schema) (float64, error)
}

// CostConsideration is cost(weight), see ConsiderCost; weight 0 means 1.
func CostConsideration(weight float64) Consideration {
	return Consideration{Name: "cost", Kind: ConsiderCost, Weight: orOne(weight)}
}

// ValueConsideration is value(weight), see ConsiderValue; weight 0 means 1.
func ValueConsideration(weight float64) Consideration {
	return Consideration{Name: "value", Kind: ConsiderValue, Weight: orOne(weight)}
}

// UtilityConsideration is utility(weight), see ConsiderUtility; weight 0
// means 1.
func UtilityConsideration(weight float64) Consideration {
	return Consideration{Name: "utility", Kind: ConsiderUtility, Weight: orOne(weight)}
}

// PreconditionConsideration is preconditionSatisfied(), weight 1: see
// ConsiderPrecondition.
func PreconditionConsideration() Consideration {
	return Consideration{Name: "preconditionSatisfied", Kind: ConsiderPrecondition, Weight: 1}
}

// HasTagConsideration is hasTag(tag), weight 1: see ConsiderHasTag.
func HasTagConsideration(tag string) Consideration {
	return Consideration{Name: "hasTag(" + tag + ")", Kind: ConsiderHasTag, Weight: 1, Tag: tag}
}

// CombineConsideration is combine(...): the weighted average of
// cs, with weight 1 in its parent.
func CombineConsideration(cs ...Consideration) Consideration {
	return Consideration{Name: "combine", Kind: ConsiderCombine, Weight: 1, Of: cs}
}

// FuncConsideration is a custom consideration: fn's result, clamped to
// [0, 1] (NaN is 0). weight 0 means 1.
func FuncConsideration(name string, weight float64, fn func(a *Action, st State) float64) Consideration {
	return Consideration{Name: name, Kind: ConsiderFunc, Weight: orOne(weight), Score: fn}
}

// WithCurve returns a copy of c whose output goes through curve.
func (c Consideration) WithCurve(curve Curve) Consideration {
	c.Curve = &curve
	return c
}

// DefaultConsiderations are the considerations of a role that declares
// none: cost(0.3), value(0.5), preconditionSatisfied().
func DefaultConsiderations() []Consideration {
	return []Consideration{CostConsideration(0.3), ValueConsideration(0.5), PreconditionConsideration()}
}

func orOne(w float64) float64 {
	if w == 0 {
		return 1
	}
	return w
}

// eval returns the consideration's raw input and its output in [0, 1].
// It does not allocate unless a custom function does.
func (c *Consideration) eval(a *Action, st State, s *Schema) (in, out float64, err error) {
	switch c.Kind {
	case ConsiderCost:
		in = a.Utility.Cost
		out = math.Max(0, 1-in/100)
	case ConsiderValue:
		in = a.Utility.Value
		out = math.Min(1, in/100)
	case ConsiderUtility:
		in = a.Utility.Value - a.Utility.Cost
		out = (in + 100) / 200
	case ConsiderPrecondition:
		if a.Pre.Eval(st) {
			in = 1
		}
		out = in
	case ConsiderHasTag:
		for _, t := range a.Utility.Tags {
			if t == c.Tag {
				in = 1
				break
			}
		}
		out = in
	case ConsiderCombine:
		sum, wsum := 0.0, 0.0
		for i := range c.Of {
			sub := &c.Of[i]
			if !(sub.Weight > 0) {
				continue
			}
			_, o, e := sub.eval(a, st, s)
			if e != nil && err == nil {
				err = e
			}
			sum += o * sub.Weight
			wsum += sub.Weight
		}
		if wsum > 0 {
			in = sum / wsum
		}
		out = in
	case ConsiderInput:
		in = math.NaN()
		if c.Slot >= 0 && c.Slot < len(st) {
			v := st[c.Slot]
			switch v.Kind() {
			case Number:
				in, _ = v.AsNumber()
			case Bool:
				in = 0
				if v.Truthy() {
					in = 1
				}
			}
		}
		x := normalize(in, c.Min, c.Max)
		if c.Curve == nil {
			return in, clampScore(x), nil
		}
		return in, c.Curve.Eval(x), nil
	default: // ConsiderFunc
		switch {
		case c.Score != nil:
			in = c.Score(a, st)
		case c.Func != nil:
			in, err = c.Func(a, st, s)
			if err != nil {
				in = 0
			}
		default:
			in = math.NaN()
		}
		out = in
	}
	if c.Curve != nil {
		return in, c.Curve.Eval(clampScore(out)), err
	}
	if out != out {
		out = 0 // NaN scores 0
	}
	return in, out, err
}

// Evaluate returns the consideration's raw input and its output (see
// Consideration for its range) for action a in state st; s is the state's schema, which only Func and
// Lua considerations read. A Func error gives output 0 and the error.
func (c *Consideration) Evaluate(a *Action, st State, s *Schema) (input, output float64, err error) {
	return c.eval(a, st, s)
}

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

// pickMemo remembers a re-score of an agent's running pick (see
// Agent.invalidated) that kept the running action, and the settings it
// was made with. A later re-score from a state equal to that one on every
// slot the scores read, with the same settings, would find the same; the
// agent skips it (see holds).
type pickMemo struct {
	agent   *Agent
	running *Action
	reads   uint64
	cons    []Consideration
	dom     *Domain
	mode    string
	clamp   bool
	commit  float64
	// scores is per action of dom what that re-score found; empty when
	// not known (see repick).
	scores []actionScore
}

// holds reports whether the memo stands for a re-score by agent a of
// running, after the slots in changed may have changed: the same agent,
// action and settings, and no slot the scores read changed.
func (m *pickMemo) holds(a *Agent, running *Action, changed uint64) bool {
	return changed&m.reads == 0 && m.sameSettings(a, running)
}

// sameSettings reports whether the memo is of a re-score by agent a of
// running with the settings it has now (see holds).
func (m *pickMemo) sameSettings(a *Agent, running *Action) bool {
	u := a.utility
	return m.agent == a && m.running == running && !u.Explain &&
		m.dom == u.Domain && m.mode == u.Mode && m.clamp == u.Clamp && m.commit == u.Commitment &&
		sameConsiderations(m.cons, u.Considerations)
}

// keep remembers a re-score by agent a that kept running, when every
// consideration reads state variables only (else it forgets), with the
// per-action findings of the repick that made it.
func (m *pickMemo) keep(a *Agent, running *Action) {
	u := a.utility
	reads, ok := u.pickReads()
	if !ok || u.Explain {
		m.forget()
		u.reOK = false
		return
	}
	scores := m.scores[:0]
	if u.reOK && u.Domain != nil && len(u.re) == len(u.Domain.Actions) {
		scores, u.re = u.re, scores // the buffers swap
	}
	u.reOK = false
	*m = pickMemo{agent: a, running: running, reads: reads, cons: u.Considerations, dom: u.Domain,
		mode: u.Mode, clamp: u.Clamp, commit: u.Commitment, scores: scores}
}

// forget drops the memo (keeping its buffer).
func (m *pickMemo) forget() { *m = pickMemo{scores: m.scores[:0]} }

// repick is Pick for the re-score of agent a's running pick, running,
// from st: changed is the slots that may differ from the state of the
// last re-score that kept running (the memo's, see Agent.invalidated).
// An action that reads none of them (its precondition and the inputs of
// its considerations, see pickReads) has the precondition and score it had
// then, and the memo's are taken instead of working them out again: the
// same, since every consideration reads state variables only when the
// memo is kept. What it finds per action is kept for pickMemo.keep.
func (u *UtilityPlanner) repick(a *Agent, st State, running *Action, changed uint64) *Action {
	u.reOK = false
	if u.Explain || u.Domain == nil {
		next, _ := u.Pick(st, running)
		return next
	}
	acts := u.Domain.Actions
	_, pure := u.pickReads()
	m := &u.memo
	reuse := pure && len(m.scores) == len(acts) && len(u.actReads) == len(acts) && m.sameSettings(a, running)
	re := u.re[:0]
	if n := len(acts); cap(re) < n {
		buf := make([]actionScore, 2*n) // one allocation for both buffers
		re = buf[:0:n]
		if cap(m.scores) < n {
			m.scores = buf[n : n : 2*n] // still empty: the memo knows no scores
		}
	}
	t := newTally()
	for i, x := range acts {
		var r actionScore
		if reuse && changed&u.actReads[i] == 0 {
			r = m.scores[i]
		} else if r.ok = x.Pre.Eval(st); r.ok {
			r.score = u.score(x, st, false)
		}
		re = append(re, r)
		if r.ok {
			t.add(x, running, r.score)
		}
	}
	u.re, u.reOK = re, true
	next, _ := u.commit(t.best, t.bestScore, running, t.runScore, t.runOK)
	return next
}

func sameConsiderations(x, y []Consideration) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// pickReads returns the slots that Pick's scores read, as bits (see
// expr.SlotMask): every action's precondition and the inputs of its
// considerations. ok is false when a consideration may read something
// else (a Go or Lua function): its score can change while the state does
// not.
func (u *UtilityPlanner) pickReads() (reads uint64, ok bool) {
	if u.readsDom == u.Domain && u.readsDom != nil && sameConsiderations(u.readsCons, u.Considerations) {
		return u.reads, u.readsOK
	}
	ok = u.Domain != nil
	u.actReads = u.actReads[:0]
	if ok && cap(u.actReads) < len(u.Domain.Actions) {
		u.actReads = make([]uint64, 0, len(u.Domain.Actions))
	}
	if ok {
		for _, a := range u.Domain.Actions {
			r := a.Pre.ReadMask()
			cs := u.considerationsFor(a)
			for i := range cs {
				m, pure := considerationReads(&cs[i], a)
				r |= m
				ok = ok && pure
			}
			reads |= r
			u.actReads = append(u.actReads, r)
		}
	}
	u.reads, u.readsOK, u.readsCons, u.readsDom = reads, ok, u.Considerations, u.Domain
	return reads, ok
}

// considerationReads returns the slots consideration c of action a
// reads, and whether it reads nothing but those (and a's read-only data).
func considerationReads(c *Consideration, a *Action) (uint64, bool) {
	switch c.Kind {
	case ConsiderCost, ConsiderValue, ConsiderUtility, ConsiderHasTag:
		return 0, true
	case ConsiderPrecondition:
		return a.Pre.ReadMask(), true
	case ConsiderInput:
		switch {
		case c.Slot < 0:
			return 0, true // out of range: the input is NaN
		case c.Slot >= 64:
			return ^uint64(0), true
		}
		return 1 << uint(c.Slot), true
	case ConsiderCombine:
		var m uint64
		for i := range c.Of {
			sm, ok := considerationReads(&c.Of[i], a)
			if !ok {
				return 0, false
			}
			m |= sm
		}
		return m, true
	}
	return 0, false // a function
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
func (u *UtilityPlanner) Score(a *Action, st State) float64 {
	return u.score(a, st, false)
}

// score computes a's score; with explain it appends one row per
// consideration to u.rows.
func (u *UtilityPlanner) score(a *Action, st State, explain bool) float64 {
	cs := u.considerationsFor(a)
	var s *Schema
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
func (u *UtilityPlanner) ActionsByUtility(st State) []ScoredAction {
	return u.byUtility(st, nil)
}

// ActionsForGoal returns the applicable candidate actions for goal (see
// Goal.Candidate: they list it in fulfills or assign a variable it reads),
// best first (declaration order among equal scores); none for a nil goal.
// The slice is valid until the next call.
func (u *UtilityPlanner) ActionsForGoal(goal *Goal, st State) []ScoredAction {
	if goal == nil {
		return u.scored[:0]
	}
	return u.byUtility(st, goal)
}

func (u *UtilityPlanner) byUtility(st State, goal *Goal) []ScoredAction {
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
func (u *UtilityPlanner) SelectBestAction(st State) *Action {
	best, _, _, _ := u.best(st, nil)
	return best
}

// Plan returns at most one action, the best applicable one; none when no
// action applies. The slice is valid until the next call.
func (u *UtilityPlanner) Plan(st State) []*Action {
	u.plan = u.plan[:0]
	if best := u.SelectBestAction(st); best != nil {
		u.plan = append(u.plan, best)
	}
	return u.plan
}

// best returns the best applicable action and its score, and running's
// score and whether running applies.
func (u *UtilityPlanner) best(st State, running *Action) (best *Action, bestScore, runScore float64, runOK bool) {
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
func (u *UtilityPlanner) Pick(st State, running *Action) (*Action, *Explanation) {
	if u.Explain {
		e := u.explain(st, running)
		return e.Picked, e
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

// Explanation says why a pick was made: every applicable action's score
// and each of its considerations, as the flight recorder and the debug
// overlay show them.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Explanation struct {
	Mode       string  // UtilityAverage or UtilityMultiply
	Commitment float64 // the margin in force
	Running    *Action // the running action given to Pick, or nil
	Picked     *Action // the pick, or nil when no action applies
	// Kept is true when Picked is Running although another action scored
	// higher, by no more than the margin.
	Kept bool
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
func (u *UtilityPlanner) explain(st State, running *Action) *Explanation {
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
	e.Picked, e.Kept = u.commit(best, bestScore, running, runScore, runOK)
	return e
}

// ConsiderationSpec declares a consideration by name, as a role declares
// it; CompileConsideration binds it to a domain's schema. Kind may be left
// empty when Input (ConsiderInput), Of (ConsiderCombine), Tag
// (ConsiderHasTag) or a function (ConsiderFunc) says it.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ConsiderationSpec struct {
	Kind ConsiderationKind
	// Name is shown in explanations; empty means the kind's name, the
	// input's name, or "hasTag(tag)".
	Name string
	// Weight must be a finite number ≥ 0. The default (zero) value is 1.
	Weight float64
	Tag    string  // ConsiderHasTag
	Input  string  // ConsiderInput: a state variable of the domain
	Min    float64 // ConsiderInput: the raw value that maps to 0
	Max    float64 // ConsiderInput: the raw value that maps to 1; ≠ Min
	Curve  *Curve  // optional response curve (see Consideration)
	Of     []ConsiderationSpec
	Score  func(a *Action, st State) float64
	Func   func(a *Action, st State, s *Schema) (float64, error)
	Pos    Pos // where it is declared, for errors
}

func (sp *ConsiderationSpec) kind() ConsiderationKind {
	switch {
	case sp.Kind != "":
		return sp.Kind
	case sp.Input != "":
		return ConsiderInput
	case sp.Of != nil:
		return ConsiderCombine
	case sp.Tag != "":
		return ConsiderHasTag
	}
	return ConsiderFunc
}

// CompileConsideration checks spec and binds its input to a slot of s. The
// error is a *ConsiderationError naming the first problem: an unknown kind or
// curve, an input no state variable has (with a suggestion), Min == Max,
// a weight or bound that is negative or not finite, hasTag without a tag,
// combine without considerations, func without a function.
func CompileConsideration(spec ConsiderationSpec, s *Schema) (Consideration, error) {
	k := spec.kind()
	c := Consideration{Name: spec.Name, Kind: k, Weight: orOne(spec.Weight), Tag: spec.Tag, Input: spec.Input,
		Slot: -1, Min: spec.Min, Max: spec.Max, Score: spec.Score, Func: spec.Func}
	if c.Name == "" {
		switch k {
		case ConsiderHasTag:
			c.Name = "hasTag(" + spec.Tag + ")"
		case ConsiderInput:
			c.Name = spec.Input
		}
	}
	if c.Name == "" {
		c.Name = string(k)
	}
	fail := func(msg string) (Consideration, error) {
		return Consideration{}, &ConsiderationError{Consideration: c.Name, Msg: msg}
	}
	if math.IsNaN(spec.Weight) || math.IsInf(spec.Weight, 0) || spec.Weight < 0 {
		return fail("weight must be a finite number >= 0, not " + expr.FormatNumber(spec.Weight))
	}
	if spec.Curve != nil {
		if err := spec.Curve.Validate(); err != nil {
			return Consideration{}, &ConsiderationError{Consideration: c.Name, Msg: messageOf(err), Err: err}
		}
		cv := *spec.Curve
		c.Curve = &cv
	}
	switch k {
	case ConsiderCost, ConsiderValue, ConsiderUtility, ConsiderPrecondition:
	case ConsiderHasTag:
		if spec.Tag == "" {
			return fail("hasTag needs a tag")
		}
	case ConsiderCombine:
		if len(spec.Of) == 0 {
			return fail("combine needs the considerations it averages")
		}
		for _, sub := range spec.Of {
			sc, err := CompileConsideration(sub, s)
			if err != nil {
				return Consideration{}, err
			}
			c.Of = append(c.Of, sc)
		}
	case ConsiderInput:
		if spec.Input == "" {
			return fail("input needs a state variable name")
		}
		slot, ok := s.Lookup(spec.Input)
		if !ok {
			return fail("input \"" + spec.Input + "\" is no state variable" + DidYouMean(spec.Input, s.Names()))
		}
		c.Slot = slot
		for _, b := range []float64{spec.Min, spec.Max} {
			if math.IsNaN(b) || math.IsInf(b, 0) {
				return fail("min and max must be finite numbers, not " + expr.FormatNumber(b))
			}
		}
		if spec.Min == spec.Max {
			return fail("min and max must differ (both are " + expr.FormatNumber(spec.Min) + ")")
		}
	case ConsiderFunc:
		if spec.Score == nil && spec.Func == nil {
			return fail("func needs a function")
		}
	default:
		return fail("unknown kind \"" + string(k) + "\"" + DidYouMean(string(k), considerationNames()))
	}
	return c, nil
}

func considerationNames() []string {
	out := make([]string, len(considerationKinds))
	for i, k := range considerationKinds {
		out[i] = string(k)
	}
	return out
}

// UtilityField marks a field of UtilitySpec as given explicitly.
// Its values are immutable and safe to share between goroutines.
type UtilityField uint8

// The fields of UtilitySpec that UtilitySpec.Set can mark.
const (
	UtilityCost UtilityField = 1 << iota
	UtilityValue
	UtilityWeight
)

// withDefaults applies the defaults (cost 1, value 1, weight 1)
// to the fields that are zero and not marked in Set.
func (u UtilitySpec) withDefaults() UtilitySpec {
	if u.Cost == 0 && u.Set&UtilityCost == 0 {
		u.Cost = 1
	}
	if u.Value == 0 && u.Set&UtilityValue == 0 {
		u.Value = 1
	}
	if u.Weight == 0 && u.Set&UtilityWeight == 0 {
		u.Weight = 1
	}
	return u
}

// compileUtility checks the utility data, the utility mode and every
// consideration of the merged roles, once the schema is complete; d.Actions
// line up with actions.
func (c *compiler) compileUtility(mode string, role []ConsiderationSpec, actions []ActionSpec) {
	d := c.d
	switch mode {
	case "", UtilityAverage, UtilityMultiply:
		d.UtilityMode = mode
		if mode == "" {
			d.UtilityMode = UtilityAverage
		}
	default:
		c.add(Pos{}, "utility mode must be \"average\" or \"multiply\", not \""+mode+"\""+
			DidYouMean(mode, []string{UtilityAverage, UtilityMultiply}), nil)
	}
	d.Considerations = c.considerations(role, "role")
	for i, as := range actions {
		what := "action \"" + as.Name + "\""
		for _, f := range []struct {
			name string
			v    float64
		}{{"cost", as.Utility.Cost}, {"value", as.Utility.Value}, {"weight", as.Utility.Weight}} {
			if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
				c.add(as.Pos, what+" utility "+f.name+" must be a finite number, not "+expr.FormatNumber(f.v), nil)
			}
		}
		if as.Utility.Weight < 0 {
			c.add(as.Pos, what+" utility weight must be >= 0 (a negative weight would rank the action by how bad it is), not "+expr.FormatNumber(as.Utility.Weight), nil)
		}
		if i < len(d.Actions) {
			d.Actions[i].Considerations = c.considerations(as.Considerations, what)
		}
	}
}

func (c *compiler) considerations(specs []ConsiderationSpec, what string) []Consideration {
	var out []Consideration
	for _, sp := range specs {
		cs, err := CompileConsideration(sp, c.d.Schema)
		if err != nil {
			c.add(sp.Pos, what+" "+messageOf(err), err)
			continue
		}
		out = append(out, cs)
	}
	return out
}

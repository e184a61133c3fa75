package engine

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
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
	tag    string          // ConsiderHasTag
	input  string          // ConsiderInput: the variable's name
	Slot   int             // ConsiderInput: the variable's slot
	Min    float64         // ConsiderInput: the raw value that normalises to 0
	Max    float64         // ConsiderInput: the raw value that normalises to 1
	Curve  *curve.Curve    // optional; see above
	Of     []Consideration // ConsiderCombine
	// Score is a custom consideration in Go, (action, state) → score.
	Score func(a *Action, st expr.State) float64
	// Func is a custom consideration that reads state by name through the
	// schema and may fail; an error scores 0 and is recorded (see
	// UtilityPlanner.LastError). Lua considerations use it. Used when
	// Score is nil.
	Func func(a *Action, st expr.State, s *expr.Schema) (float64, error)
}

// CostConsideration is cost(weight), see ConsiderCost; weight 0 means 1.
func CostConsideration(weight float64) Consideration {
	return Consideration{Name: "cost", Kind: ConsiderCost, Weight: orOne(weight)}
}

// ValueConsideration is value(weight), see ConsiderValue; weight 0 means 1.
func ValueConsideration(weight float64) Consideration {
	return Consideration{Name: "value", Kind: ConsiderValue, Weight: orOne(weight)}
}

// utilityConsideration is utility(weight), see ConsiderUtility; weight 0
// means 1.
func utilityConsideration(weight float64) Consideration {
	return Consideration{Name: "utility", Kind: ConsiderUtility, Weight: orOne(weight)}
}

// PreconditionConsideration is preconditionSatisfied(), weight 1: see
// ConsiderPrecondition.
func PreconditionConsideration() Consideration {
	return Consideration{Name: "preconditionSatisfied", Kind: ConsiderPrecondition, Weight: 1}
}

// hasTagConsideration is hasTag(tag), weight 1: see ConsiderHasTag.
func hasTagConsideration(tag string) Consideration {
	return Consideration{Name: "hasTag(" + tag + ")", Kind: ConsiderHasTag, Weight: 1, tag: tag}
}

// combineConsideration is combine(...): the weighted average of
// cs, with weight 1 in its parent.
func combineConsideration(cs ...Consideration) Consideration {
	return Consideration{Name: "combine", Kind: ConsiderCombine, Weight: 1, Of: cs}
}

// FuncConsideration is a custom consideration: fn's result, clamped to
// [0, 1] (NaN is 0). weight 0 means 1.
func FuncConsideration(name string, weight float64, fn func(a *Action, st expr.State) float64) Consideration {
	return Consideration{Name: name, Kind: ConsiderFunc, Weight: orOne(weight), Score: fn}
}

// withCurve returns a copy of c whose output goes through curve.
func (c Consideration) withCurve(cv curve.Curve) Consideration {
	c.Curve = &cv
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

// eval returns the consideration's raw input and its output in [0, 1]
// for action a in state st; s is the state's schema, which only Func and
// Lua considerations read. A Func error gives output 0 and the error. It
// does not allocate unless a custom function does.
func (c *Consideration) eval(a *Action, st expr.State, s *expr.Schema) (in, out float64, err error) {
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
			if t == c.tag {
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
			case expr.Number:
				in, _ = v.AsNumber()
			case expr.Bool:
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

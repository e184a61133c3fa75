package engine

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

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
	Tag    string       // ConsiderHasTag
	Input  string       // ConsiderInput: a state variable of the domain
	Min    float64      // ConsiderInput: the raw value that maps to 0
	Max    float64      // ConsiderInput: the raw value that maps to 1; ≠ Min
	Curve  *curve.Curve // optional response curve (see Consideration)
	Of     []ConsiderationSpec
	Score  func(a *Action, st expr.State) float64
	Func   func(a *Action, st expr.State, s *expr.Schema) (float64, error)
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
func CompileConsideration(spec ConsiderationSpec, s *expr.Schema) (Consideration, error) {
	k := spec.kind()
	c := Consideration{Name: spec.Name, Kind: k, Weight: orOne(spec.Weight), tag: spec.Tag, input: spec.Input,
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
		return Consideration{}, &ConsiderationError{Consideration: c.Name, msg: msg}
	}
	if math.IsNaN(spec.Weight) || math.IsInf(spec.Weight, 0) || spec.Weight < 0 {
		return fail("weight must be a finite number >= 0, not " + expr.FormatNumber(spec.Weight))
	}
	if spec.Curve != nil {
		if err := validateCurve(*spec.Curve); err != nil {
			return Consideration{}, &ConsiderationError{Consideration: c.Name, msg: messageOf(err), Err: err}
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
		if f, ok := s.FamilyOf(spec.Input); ok {
			if p := f.Check(spec.Input); p != nil {
				return fail("input \"" + spec.Input + "\": expected " + p.Expected + ", found " + p.Found)
			}
			s.Intern(spec.Input)
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

package engine

import "math"

// Effect is a compiled effect (postcondition): what an action promises to
// change in the world state.
//
// The language (from the TnsAI seed, "Effects"):
//
//	effects = [ assign { "," assign } ]
//	assign  = name "=" term { ("+" | "-") term }
//	term    = number | "-" number | string | "true" | "false" | "nil" | "null" | word
//
// A quoted string is text. A word that names a variable of the schema (a
// declared state variable, or one that some effect assigns) reads that
// variable; any other word is stored as a string, so enum-like state matches
// by constant name ("mode = ATTACK"). "+" and "-" do float64 arithmetic and
// store a number; every operand of an arithmetic expression must be a
// number or a variable holding a number, else Apply returns an
// *EffectError naming the variable and the effect.
//
// Assignment is simultaneous: every right-hand side reads the state as it
// was before the effect, so "a = b, b = a" swaps a and b. When a variable is
// assigned twice, the last assignment wins.
//
// An Effect is immutable once compiled and safe for concurrent use; Apply
// does not allocate unless it fails.
type Effect struct {
	src     string
	assigns []assign
	names   []string // target names, by assignment
	writes  []int
	reads   []int
}

type assign struct {
	slot  int
	col   int // 1-based column of the target, for errors
	terms []eterm
}

type eterm struct {
	sub   bool // subtract this term (it follows a "-")
	isVar bool
	slot  int
	lit   Value
	name  string // the variable's name, for errors
}

// EffectError is an effect that cannot be applied to a state: an operand of
// "+" or "-" is not a number.
type EffectError struct {
	Effect   string // the effect's source text
	Variable string // the operand variable that is not a number
	Target   string // the variable being assigned
	Got      Kind   // what the variable held
}

func (e *EffectError) Error() string {
	return "engine: effect \"" + e.Effect + "\": " + e.Target + " = ...: operand " + e.Variable +
		" is " + e.Got.String() + ", not a number"
}

// Source returns the text the effect was compiled from.
func (e *Effect) Source() string {
	if e == nil {
		return ""
	}
	return e.src
}

// Writes returns the slots the effect assigns. Shared: do not modify.
func (e *Effect) Writes() []int {
	if e == nil {
		return nil
	}
	return e.writes
}

// Reads returns the slots the right-hand sides read. Shared: do not modify.
func (e *Effect) Reads() []int {
	if e == nil {
		return nil
	}
	return e.reads
}

// IsEmpty reports whether the effect changes nothing.
func (e *Effect) IsEmpty() bool { return e == nil || len(e.assigns) == 0 }

// Apply computes the effect from src and writes the results into dst. dst
// must be a copy of src (or src itself only when no right-hand side reads a
// variable that the effect assigns earlier; use ApplyInPlace otherwise).
// On error dst may be partly written.
func (e *Effect) Apply(dst, src State) error {
	if e == nil {
		return nil
	}
	if i, t := e.apply(dst, src); i >= 0 {
		a := e.assigns[i]
		return &EffectError{Effect: e.src, Variable: a.terms[t].name, Target: e.targetName(i), Got: src[a.terms[t].slot].k}
	}
	return nil
}

// ApplyInPlace applies the effect to st itself, still with simultaneous
// assignment. It allocates a scratch copy only when the effect has more than
// 8 assignments.
func (e *Effect) ApplyInPlace(st State) error {
	if e == nil {
		return nil
	}
	var buf [8]Value
	vals := buf[:0]
	if len(e.assigns) > len(buf) {
		vals = make([]Value, 0, len(e.assigns))
	}
	for i := range e.assigns {
		v, t := e.assigns[i].eval(st)
		if t >= 0 {
			a := e.assigns[i]
			return &EffectError{Effect: e.src, Variable: a.terms[t].name, Target: e.targetName(i), Got: st[a.terms[t].slot].k}
		}
		vals = append(vals, v)
	}
	for i, a := range e.assigns {
		st[a.slot] = vals[i]
	}
	return nil
}

func (e *Effect) targetName(i int) string { return e.names[i] }

// apply returns (-1, -1) on success, else the failing assignment and term.
func (e *Effect) apply(dst, src State) (int, int) {
	for i := range e.assigns {
		v, t := e.assigns[i].eval(src)
		if t >= 0 {
			return i, t
		}
		dst[e.assigns[i].slot] = v
	}
	return -1, -1
}

func (a *assign) eval(st State) (Value, int) {
	if len(a.terms) == 1 && !a.terms[0].sub {
		t := &a.terms[0]
		if t.isVar {
			return st[t.slot], -1
		}
		return t.lit, -1
	}
	sum := 0.0
	for i := range a.terms {
		t := &a.terms[i]
		var x float64
		if t.isVar {
			v := st[t.slot]
			if v.k != Number {
				return Value{}, i
			}
			x = v.n
		} else {
			x = t.lit.n
		}
		if t.sub {
			sum -= x
		} else {
			sum += x
		}
	}
	if sum == 0 {
		sum = math.Abs(sum) // no negative zero in state
	}
	return NumberValue(sum), -1
}

package expr

import (
	"errors"
	"math"
)

// Effect is a compiled effect (postcondition): what an action promises to
// change in the world state, bound to the slots of one Schema.
//
// # Grammar
//
//	effects = [ assign { "," assign } ]
//	assign  = name "=" term { ("+" | "-") term }
//	term    = number | "-" number | "-" name | string | "true" | "false" | "nil" | "null" | name
//
// # Right-hand sides
//
// A number is an integer or a decimal; a quoted string (double or single
// quotes, escapes \n \t \r \\ \" \') is text; true, false, nil and null
// are the literals. A bare word that names a variable of the schema (a
// declared state variable, or one that some effect of the domain assigns)
// reads that variable; any other bare word is stored as a string, so
// enum-like state matches by constant name: "mode = ATTACK" stores the
// string "ATTACK", which the condition "mode == 'ATTACK'" accepts. Copying
// a variable that is missing from the state ("x = y" with y Unknown) makes
// the target missing too.
//
// # Arithmetic
//
// "+" and "-" do float64 arithmetic, evaluated left to right, and store a
// number: "x = x + 15.1" from x = 0 stores exactly 15.1 (no truncation to
// an integer). Every operand must be a number literal or a variable;
// anything else ("x = x + 'a'", "x = x + true", or a word naming no
// variable) is a *ParseError when the effect compiles. A variable operand
// that does not hold a number when the effect is applied (a string, a bool,
// nil, or missing) makes Apply return an *EffectError naming the variable,
// the target and the effect. A result that is no number (an infinity minus
// itself) leaves the target missing, so no condition reading it holds.
//
// # Simultaneous assignment
//
// Every right-hand side reads the state as it was before the effect, so
// "a = b, b = a" swaps a and b and "x = x + 1, y = x" sets y to the old x.
// When a variable is assigned twice, the last assignment wins.
//
// An Effect is immutable once compiled and safe for concurrent use. Apply
// does not allocate unless it fails; ApplyInPlace does not allocate for up
// to 8 assignments.
type Effect struct {
	src     string
	assigns []assign
	names   []string // target names, by assignment
	writes  []int
	reads   []int
	mask    uint64 // reads as bits (see ReadMask)
	need    int    // 1 + the highest slot the effect touches
	direct  bool   // no right-hand side reads a target of an earlier assignment
}

type assign struct {
	slot  int
	col   int // 1-based column of the target, for errors
	terms []eterm
}

type eterm struct {
	Term
	name string // the variable's name, for errors
}

// EffectError is an effect that cannot be applied to a state: an operand
// of "+" or "-" does not hold a number.
type EffectError struct {
	Effect   string // the effect's source text
	Variable string // the operand variable that is not a number
	Target   string // the variable being assigned
	Got      Kind   // what the variable held (Unknown when it is missing)
}

// Message is the error without the package prefix: `effect "E": in T =
// ..., operand V is K, not a number`, where E is the effect cut to its
// first 60 characters when it is longer.
func (e *EffectError) Message() string {
	return "effect \"" + excerpt(e.Effect) + "\": in " + e.Target + " = ..., operand " + e.Variable +
		" is " + e.Got.String() + ", not a number"
}

func (e *EffectError) Error() string { return "expr: " + e.Message() }

// Source returns the text the effect was compiled from.
func (e *Effect) Source() string {
	if e == nil {
		return ""
	}
	return e.src
}

// String returns the text the effect was compiled from, as Source does,
// so that printing an effect shows "ammo = 30" and not its assignments.
func (e *Effect) String() string { return e.Source() }

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

// ReadMask returns the slots the right-hand sides read as bits, as
// Condition.ReadMask does; 0 for a nil effect.
func (e *Effect) ReadMask() uint64 {
	if e == nil {
		return 0
	}
	return e.mask
}

// IsEmpty reports whether the effect changes nothing.
func (e *Effect) IsEmpty() bool { return e == nil || len(e.assigns) == 0 }

// Apply computes the effect from src and writes the results into dst,
// which is usually a copy of src: variables the effect does not assign are
// left as they are in dst. dst may be src itself only when no right-hand
// side reads a variable that an earlier assignment of the effect writes;
// use ApplyInPlace otherwise. Both states must have a slot for every
// variable of the effect (states of the schema it was compiled with), else
// Apply returns an error and writes nothing. On an *EffectError dst may be
// partly written. Apply does not allocate unless it fails.
func (e *Effect) Apply(dst, src State) error {
	if e == nil {
		return nil
	}
	if len(dst) < e.need || len(src) < e.need {
		return e.shortState(min(len(dst), len(src)))
	}
	if i, t := e.apply(dst, src); i >= 0 {
		return e.operandError(i, t, src)
	}
	return nil
}

// ApplyInPlace applies the effect to st itself, still with simultaneous
// assignment: on error st is unchanged. When no right-hand side reads a
// variable that an earlier assignment writes, it writes st directly;
// otherwise it computes every value first, in a scratch array that is
// allocated only when the effect has more than 8 assignments.
func (e *Effect) ApplyInPlace(st State) error {
	if e == nil {
		return nil
	}
	if len(st) < e.need {
		return e.shortState(len(st))
	}
	if e.direct {
		// Writing in order reads no value already written: check the
		// operands first so that a failure still changes nothing.
		for i := range e.assigns {
			if t := e.assigns[i].check(st); t >= 0 {
				return e.operandError(i, t, st)
			}
		}
		for i := range e.assigns {
			st[e.assigns[i].slot], _ = e.assigns[i].eval(st)
		}
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
			return e.operandError(i, t, st)
		}
		vals = append(vals, v)
	}
	for i, a := range e.assigns {
		st[a.slot] = vals[i]
	}
	return nil
}

func (e *Effect) operandError(i, t int, st State) error {
	a := &e.assigns[i]
	return &EffectError{Effect: e.src, Variable: a.terms[t].name, Target: e.targetName(i), Got: st[a.terms[t].Slot].Kind()}
}

func (e *Effect) shortState(n int) error {
	return errors.New("expr: effect \"" + excerpt(e.src) + "\": the state has " + itoa(n) +
		" variables, the effect needs " + itoa(e.need) + " (a state of another schema?)")
}

func (e *Effect) targetName(i int) string { return e.names[i] }

// apply returns (-1, -1) on success, else the failing assignment and term.
// TryApply and Apply call it once the states are known to be long enough.
func (e *Effect) apply(dst, src State) (int, int) {
	if e == nil {
		return -1, -1
	}
	for i := range e.assigns {
		v, t := e.assigns[i].eval(src)
		if t >= 0 {
			return i, t
		}
		dst[e.assigns[i].slot] = v
	}
	return -1, -1
}

// check returns the index of the first arithmetic operand of a that does
// not hold a number in st, or -1.
func (a *assign) check(st State) int {
	if len(a.terms) == 1 && !a.terms[0].Sub {
		return -1
	}
	for i := range a.terms {
		if t := &a.terms[i]; t.IsVar && !st[t.Slot].isNumber() {
			return i
		}
	}
	return -1
}

func (a *assign) eval(st State) (Value, int) {
	if len(a.terms) == 1 && !a.terms[0].Sub {
		t := &a.terms[0]
		if t.IsVar {
			return st[t.Slot], -1
		}
		return t.Lit, -1
	}
	sum := 0.0
	for i := range a.terms {
		t := &a.terms[i]
		var x float64
		if t.IsVar {
			v := st[t.Slot]
			if !v.isNumber() {
				return Value{}, i
			}
			x = v.num()
		} else {
			x = t.Lit.num()
		}
		if t.Sub {
			sum -= x
		} else {
			sum += x
		}
	}
	if sum == 0 {
		sum = math.Abs(sum) // no negative zero in state
	}
	if sum != sum {
		// ∞ − ∞: no number. The target becomes unknown, so no condition
		// reading it holds (NaN would make "x != x" true).
		return Value{}, -1
	}
	return NumberValue(sum), -1
}

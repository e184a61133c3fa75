package expr

import (
	"math"
	"strconv"
	"unique"
)

// Kind is the type of a Value.
type Kind uint8

// The kinds of Value. Unknown is the zero Kind: it marks a state variable
// that is missing, which is different from a variable holding nil.
const (
	Unknown Kind = iota
	Nil
	Bool
	Number
	String
)

var kindNames = [...]string{"unknown", "nil", "bool", "number", "string"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one state value: nil, a bool, a number (float64) or a string.
// The zero Value is Unknown: the variable is missing from the state.
// Values are small (16 bytes on 64-bit machines: a handle and a word)
// and safe to copy and to share between goroutines.
//
// Values are comparable: == (and so a map keyed by Value, and
// reflect.DeepEqual or testify's assert.Equal) holds exactly when two
// Values have the same kind and the same content, a string's text
// compared byte for byte wherever it was built, a number's float64 bits
// compared as bits: so with == 0 and -0 differ and a NaN equals itself.
// Equal is the condition and effect languages' equality (numbers compare
// as float64: 0 equals -0, NaN equals nothing); use it for game logic.
type Value struct {
	// h is the zero handle for Unknown; hNil, hBool or hNumber for nil, a
	// bool (n is 0 or 1) and a number (n is its float64 bits); else the
	// canonical handle of a string's text (n is 0). Equal texts have the
	// same handle, so h and n are canonical and == compares contents.
	h unique.Handle[text]
	n uint64
}

// text is what a handle stands for: a string's text (kind String), or
// no text and the kind Nil, Bool or Number, so no string's handle is
// ever one of the three tags.
type text struct {
	s    string
	kind Kind
}

// The handles of the kinds that hold no text, and of the empty string.
var (
	hNil    = unique.Make(text{kind: Nil})
	hBool   = unique.Make(text{kind: Bool})
	hNumber = unique.Make(text{kind: Number})
	hEmpty  = unique.Make(text{kind: String})
)

// isNumber reports whether v is a number (the common test, kept cheap).
func (v Value) isNumber() bool { return v.h == hNumber }

// num returns v's number; meaningful only for a number.
func (v Value) num() float64 { return math.Float64frombits(v.n) }

// isString reports whether v is a string, empty or not.
func (v Value) isString() bool { return v.IsKnown() && v.h.Value().kind == String }

// str returns v's text; meaningful only for a string (else "").
func (v Value) str() string { return v.h.Value().s }

// NilValue returns the nil value (a known variable holding nothing).
func NilValue() Value { return Value{h: hNil} }

// BoolValue returns a bool value.
func BoolValue(b bool) Value {
	if b {
		return Value{h: hBool, n: 1}
	}
	return Value{h: hBool}
}

// NumberValue returns a number value.
func NumberValue(f float64) Value { return Value{h: hNumber, n: math.Float64bits(f)} }

// StringValue returns a string value. It interns s's text (package
// unique: a hash and a look-up in a concurrent map, and a copy of the
// text the first time it is seen), so that equal texts give equal
// Values; the text stays alive while a Value holds it. StringValue is
// safe for concurrent use.
func StringValue(s string) Value {
	if len(s) == 0 {
		return Value{h: hEmpty}
	}
	return Value{h: unique.Make(text{s: s, kind: String})}
}

// Kind reports the value's kind.
func (v Value) Kind() Kind {
	if !v.IsKnown() {
		return Unknown
	}
	return v.h.Value().kind
}

// IsKnown reports whether the value is not Unknown.
func (v Value) IsKnown() bool { return v.h != unique.Handle[text]{} }

// AsBool returns the bool and whether the value is a bool (false when it
// is not).
func (v Value) AsBool() (bool, bool) {
	if v.h != hBool {
		return false, false
	}
	return v.n != 0, true
}

// AsNumber returns the number and whether the value is a number (0 when
// it is not).
func (v Value) AsNumber() (float64, bool) {
	ok, bits := v.isNumber(), v.n
	if !ok {
		bits = 0 // a select, not a branch
	}
	return math.Float64frombits(bits), ok
}

// AsString returns the string and whether the value is a string ("" when
// it is not).
func (v Value) AsString() (string, bool) {
	if !v.isString() {
		return "", false
	}
	return v.str(), true
}

// Truthy reports whether the value is the bool true, the only value a bare
// variable in a condition accepts.
func (v Value) Truthy() bool { return v.h == hBool && v.n != 0 }

// Equal reports whether two values are equal: same kind and same content;
// numbers compare as float64, so 1 and 1.0 are equal, 0 and -0 too, and
// NaN equals nothing; strings compare by their bytes. It differs from ==
// only for numbers: == compares their bits (0 and -0 differ, a NaN
// equals itself).
func (v Value) Equal(o Value) bool {
	if v.isNumber() && o.isNumber() {
		return v.num() == o.num()
	}
	return v == o // canonical handles: the same text has the same one
}

// String formats the value as an effect literal would write it: numbers in
// the shortest form that round-trips, strings double-quoted with only the
// escapes the languages know (\n \t \r \\ \"), so ParseLiteral(v.String())
// gives v back for every known value except NaN, infinities and numbers
// beyond MaxSafeInteger, which no literal may write. Unknown
// formats as "unknown".
func (v Value) String() string {
	switch v.Kind() {
	case Nil:
		return "nil"
	case Bool:
		if v.n != 0 {
			return "true"
		}
		return "false"
	case Number:
		return FormatNumber(v.num())
	case String:
		return quote(v.str())
	}
	return "unknown"
}

// GoString formats the value as Go source that makes it, for %#v and
// test failure messages: expr.StringValue("x"), expr.NumberValue(1),
// expr.BoolValue(true), expr.NilValue() or expr.Value{} for Unknown.
func (v Value) GoString() string {
	switch v.Kind() {
	case Nil:
		return "expr.NilValue()"
	case Bool:
		return "expr.BoolValue(" + strconv.FormatBool(v.n != 0) + ")"
	case Number:
		f := v.num()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return "expr.NumberValue(" + strconv.FormatFloat(f, 'g', -1, 64) + ")"
		}
		return "expr.NumberValue(" + FormatNumber(f) + ")"
	case String:
		return "expr.StringValue(" + strconv.Quote(v.str()) + ")"
	}
	return "expr.Value{}"
}

// Interface returns the value as a Go value: nil, bool, float64 or string.
// Unknown also returns nil.
func (v Value) Interface() any {
	switch v.Kind() {
	case Bool:
		return v.n != 0
	case Number:
		return v.num()
	case String:
		return v.str()
	}
	return nil
}

// ShortNumber formats f for a message or a trace in its shortest form at
// 12 significant digits, so the rounding noise of float64 arithmetic does
// not reach a designer: 48.699999999999996 reads 48.7, 4.999999999999998
// reads 5, 0.1 + 0.2 reads 0.3. Integers print without a decimal point.
// Use FormatNumber where a number must read back exactly.
func ShortNumber(f float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	if err != nil { // ±Inf, NaN
		return FormatNumber(f)
	}
	return FormatNumber(r)
}

// FormatNumber formats a float64 in the shortest form that parses back to
// the same number, without an exponent for integers below 1e21.
func FormatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// quote double-quotes s using only the escapes of the condition and effect
// languages; every other byte is written as it is.
func quote(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}

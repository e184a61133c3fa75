package expr

import (
	"math"
	"strconv"
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
// Values are small, comparable and safe to copy.
type Value struct {
	s string
	n float64
	k Kind
}

// NilValue returns the nil value (a known variable holding nothing).
func NilValue() Value { return Value{k: Nil} }

// BoolValue returns a bool value.
func BoolValue(b bool) Value {
	if b {
		return Value{k: Bool, n: 1}
	}
	return Value{k: Bool}
}

// NumberValue returns a number value.
func NumberValue(f float64) Value { return Value{k: Number, n: f} }

// StringValue returns a string value.
func StringValue(s string) Value { return Value{k: String, s: s} }

// Kind reports the value's kind.
func (v Value) Kind() Kind { return v.k }

// IsKnown reports whether the value is not Unknown.
func (v Value) IsKnown() bool { return v.k != Unknown }

// AsBool returns the bool and whether the value is a bool.
func (v Value) AsBool() (bool, bool) { return v.n != 0, v.k == Bool }

// AsNumber returns the number and whether the value is a number.
func (v Value) AsNumber() (float64, bool) { return v.n, v.k == Number }

// AsString returns the string and whether the value is a string.
func (v Value) AsString() (string, bool) { return v.s, v.k == String }

// Truthy reports whether the value is the bool true, the only value a bare
// variable in a condition accepts.
func (v Value) Truthy() bool { return v.k == Bool && v.n != 0 }

// Equal reports whether two values are equal: same kind and same content;
// numbers compare as float64, so 1 and 1.0 are equal.
func (v Value) Equal(o Value) bool {
	if v.k != o.k {
		return false
	}
	switch v.k {
	case String:
		return v.s == o.s
	case Number, Bool:
		return v.n == o.n
	}
	return true
}

// String formats the value as an effect literal would write it: numbers in
// the shortest form that round-trips, strings double-quoted with only the
// escapes the languages know (\n \t \r \\ \"), so ParseLiteral(v.String())
// gives v back for every known value except NaN, infinities and numbers
// beyond MaxSafeInteger, which no literal may write. Unknown
// formats as "unknown".
func (v Value) String() string {
	switch v.k {
	case Nil:
		return "nil"
	case Bool:
		if v.n != 0 {
			return "true"
		}
		return "false"
	case Number:
		return FormatNumber(v.n)
	case String:
		return quote(v.s)
	}
	return "unknown"
}

// Interface returns the value as a Go value: nil, bool, float64 or string.
// Unknown also returns nil.
func (v Value) Interface() any {
	switch v.k {
	case Bool:
		return v.n != 0
	case Number:
		return v.n
	case String:
		return v.s
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

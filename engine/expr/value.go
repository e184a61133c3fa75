package expr

import (
	"math"
	"strconv"
	"unsafe"
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
// Values are small (16 bytes on 64-bit machines: a pointer and a word)
// and safe to copy; a string Value shares the string's bytes.
//
// Values are not comparable with == (the compiler refuses it, and a
// Value in a map key or an interface compared with == panics): compare
// them with Equal, which compares strings by their text and numbers as
// float64. To key a map by a Value, use its Key (a ValueKey). Beware that
// reflect.DeepEqual (and so testify's assert.Equal) on Values compares
// a string's storage, not its text: compare Values with Equal or their
// String forms instead.
type Value struct {
	_ [0]func() // not comparable: see above
	// p is nil for Unknown; &tags[tagNil], &tags[tagBool] or
	// &tags[tagNumber] for nil, a bool (n is 0 or 1) and a number (n is
	// its float64 bits); &tags[tagEmpty] for the empty string; else the
	// first byte of a string's text, n bytes long. It points at the start
	// of live data or at a tag, never past either, so the collector keeps
	// the text alive and checkptr accepts it.
	p unsafe.Pointer
	n uint64
}

// tags are the bytes p points at for the kinds that hold no text. No
// string's text lies in them (no string is made from them but the empty
// one), so p tells the kinds apart.
var tags [4]byte

// The indexes of tags. The first three follow the order of their kinds,
// so the tag of kind k (Nil, Bool or Number) is at tagNil + (k - Nil).
const (
	tagNil = iota
	tagBool
	tagNumber
	tagEmpty
)

// tag returns the pointer of the tag at index i.
func tag(i int) unsafe.Pointer { return unsafe.Pointer(&tags[i]) }

// tagIndex is v.p's offset from the first tag: below len(tags) when v.p
// is a tag, else any other number.
func (v Value) tagIndex() uintptr { return uintptr(v.p) - uintptr(unsafe.Pointer(&tags)) }

// isNumber reports whether v is a number (the common test, kept cheap).
func (v Value) isNumber() bool { return v.p == tag(tagNumber) }

// num returns v's number; meaningful only for a number.
func (v Value) num() float64 { return math.Float64frombits(v.n) }

// isString reports whether v is a string, empty or not.
func (v Value) isString() bool { return v.p != nil && v.tagIndex() >= tagEmpty }

// str returns v's text; meaningful only for a string.
func (v Value) str() string { return unsafe.String((*byte)(v.p), int(v.n)) }

// text is str for a Value in memory (compare's operands): where a uint64
// is an int, p and n are laid out as a string's header is (a pointer to
// the text, then its length), so the text is read as one, without the
// checks of unsafe.String.
func (v *Value) text() string {
	if unsafe.Sizeof(int(0)) == unsafe.Sizeof(v.n) && unsafe.Offsetof(v.n) == unsafe.Sizeof(v.p) {
		return *(*string)(unsafe.Pointer(&v.p))
	}
	return v.str()
}

// NilValue returns the nil value (a known variable holding nothing).
func NilValue() Value { return Value{p: tag(tagNil)} }

// BoolValue returns a bool value.
func BoolValue(b bool) Value {
	if b {
		return Value{p: tag(tagBool), n: 1}
	}
	return Value{p: tag(tagBool)}
}

// NumberValue returns a number value.
func NumberValue(f float64) Value { return Value{p: tag(tagNumber), n: math.Float64bits(f)} }

// StringValue returns a string value. It shares s's bytes (strings are
// immutable, so that is safe).
func StringValue(s string) Value {
	if len(s) == 0 {
		return Value{p: tag(tagEmpty)}
	}
	return Value{p: unsafe.Pointer(unsafe.StringData(s)), n: uint64(len(s))}
}

// Kind reports the value's kind.
func (v Value) Kind() Kind {
	if i := v.tagIndex(); i < tagEmpty {
		return Nil + Kind(i)
	}
	if v.p == nil {
		return Unknown
	}
	return String
}

// IsKnown reports whether the value is not Unknown.
func (v Value) IsKnown() bool { return v.p != nil }

// AsBool returns the bool and whether the value is a bool (false when it
// is not).
func (v Value) AsBool() (bool, bool) {
	if v.p != tag(tagBool) {
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
func (v Value) Truthy() bool { return v.p == tag(tagBool) && v.n != 0 }

// Equal reports whether two values are equal: same kind and same content;
// numbers compare as float64, so 1 and 1.0 are equal, 0 and -0 too, and
// NaN equals nothing; strings compare by their bytes.
func (v Value) Equal(o Value) bool {
	if v.p == o.p { // the same kind but a string, or the same text's start
		if v.isNumber() {
			return v.num() == o.num()
		}
		return v.n == o.n
	}
	// Different kinds, or two strings whose texts lie apart (both not
	// empty: the empty string has one tag).
	return v.n == o.n && v.isString() && o.isString() && v.str() == o.str()
}

// ValueKey is a comparable form of a Value, to key a map by a Value: two
// Values have the same key exactly when they have the same kind, the same
// float64 bits and the same text (wherever the text lies), so 0 and -0
// have different keys, and NaN's key equals itself although NaN is not
// Equal to NaN. A ValueKey is a plain value, safe to copy and share.
type ValueKey struct {
	Kind Kind
	Bits uint64 // a number's float64 bits; 1 for true; else 0
	Text string // a string's text; else ""
}

// Key returns v's ValueKey.
func (v Value) Key() ValueKey {
	k := ValueKey{Kind: v.Kind()}
	switch k.Kind {
	case String:
		k.Text = v.str()
	case Bool, Number:
		k.Bits = v.n
	}
	return k
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

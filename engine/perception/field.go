package perception

import (
	"slices"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/internal/suggest"
)

// Prefix begins the names by which conditions, considerations and effects
// read the memory: memory.<source>.<field>, such as memory.enemy.age.
const Prefix = "memory."

// Field is a field of a remembered thing as conditions read it
// (memory.<source>.<field>). The zero Field is no field.
// Its values are immutable and safe to share between goroutines.
type Field uint8

// The fields, by the name a condition gives them.
const (
	_               Field = iota
	FieldKnown            // known: true when the thing is remembered, false when not
	FieldLost             // lost: true when it is remembered and lost (Remembered.Lost)
	FieldAge              // age: seconds since it was last perceived
	FieldConfidence       // confidence: how sure the agent still is of it, 0 to 1
	FieldX                // x: its last known position
	FieldY                // y
	FieldSense            // sense: how it was last perceived ("sight", ...)
)

var fieldNames = [...]string{"", "known", "lost", "age", "confidence", "x", "y", "sense"}

// String returns the field's name in a condition, such as "age".
func (f Field) String() string {
	if int(f) < len(fieldNames) && f != 0 {
		return fieldNames[f]
	}
	return "field"
}

// ParseName splits a memory name, memory.<source>.<field>, into its
// source and field; ok is false for any other name. The source is
// everything between the prefix and the last ".", so it may hold dots.
func ParseName(name string) (source string, f Field, ok bool) {
	rest, found := strings.CutPrefix(name, Prefix)
	i := strings.LastIndexByte(rest, '.')
	if !found || i <= 0 {
		return "", 0, false
	}
	for k, n := range fieldNames {
		if k > 0 && n == rest[i+1:] {
			return rest[:i], Field(k), true
		}
	}
	return "", 0, false
}

// CheckName checks a name that begins with Prefix, as the expression
// language's Family.Check does: nil when it is memory.<source>.<field>
// with a field of Field, else where it goes wrong and what was expected
// there, with the closest field when one is near.
func CheckName(name string) *expr.NameProblem {
	rest := strings.TrimPrefix(name, Prefix)
	fields := strings.Join(fieldNames[1:], ", ")
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return &expr.NameProblem{Off: len(name), Expected: "memory.<source>.<field>, a field of a remembered thing (" + fields + ")",
			Found: "\"" + name + "\""}
	}
	if _, _, ok := ParseName(name); ok {
		return nil
	}
	got := rest[i+1:]
	found := "\"" + got + "\""
	if s := suggest.Closest(got, fieldNames[1:]); s != "" {
		found += " (did you mean \"" + s + "\"?)"
	}
	return &expr.NameProblem{Off: len(Prefix) + i + 1, Expected: "a field of remembered \"" + rest[:i] + "\" (" + fields + ")", Found: found}
}

// Family is the memory's family of names for a schema (expr.Schema.AddFamily):
// conditions and considerations read them, effects may not assign them.
func Family() expr.Family { return expr.Family{Prefix: Prefix, Check: CheckName} }

// Value returns field f of source at time now as a condition reads it:
// FieldKnown is a bool whether or not the memory holds source; every other
// field of a thing it does not hold is the Unknown value, so a condition
// that reads it does not hold (test memory.<source>.known first). Value
// brings the memory to now, as Update does, and does not allocate.
func (m *Memory) Value(source string, f Field, now float64) expr.Value {
	m.update(now)
	return m.ValueNow(source, f, now)
}

// ValueNow is Value without bringing the memory to now first: for a
// caller that reads several fields at one time, after one Update at that
// time.
func (m *Memory) ValueNow(source string, f Field, now float64) expr.Value {
	i := slices.IndexFunc(m.things, func(r Remembered) bool { return r.Source == source })
	if f == FieldKnown {
		return expr.BoolValue(i >= 0)
	}
	if i < 0 {
		return expr.Value{}
	}
	r := m.at(m.things[i], now)
	switch f {
	case FieldLost:
		return expr.BoolValue(r.Lost)
	case FieldAge:
		return expr.NumberValue(r.Age)
	case FieldConfidence:
		return expr.NumberValue(r.Confidence)
	case FieldX:
		return expr.NumberValue(r.X)
	case FieldY:
		return expr.NumberValue(r.Y)
	case FieldSense:
		return expr.StringValue(r.Sense.String())
	}
	return expr.Value{}
}

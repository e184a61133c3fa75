package engine

import "github.com/moonmind-ai/moonmind/engine/expr"

// The expression language lives in package engine/expr. The names below
// keep the engine's API as it was, so code written against engine.Value,
// engine.CompileCondition and the rest keeps compiling; they are the same
// types and functions, documented in engine/expr.

// Kind is expr.Kind, the type of a Value.
// Its values are immutable and safe to share between goroutines.
type Kind = expr.Kind

// The kinds of Value; see expr.Kind.
const (
	Unknown = expr.Unknown
	Nil     = expr.Nil
	Bool    = expr.Bool
	Number  = expr.Number
	String  = expr.String
)

// Value is expr.Value, one state value.
// Values are immutable and safe to share between goroutines.
type Value = expr.Value

// ValueKey is expr.ValueKey, a comparable form of a Value (Value.Key), to
// key a map by a Value. Values themselves are not comparable with ==.
type ValueKey = expr.ValueKey

// Schema is expr.Schema, the names and slots of a domain's state variables.
// A Schema is read-only once its domain is compiled: safe to share between
// goroutines.
type Schema = expr.Schema

// State is expr.State, a world state with one Value per schema slot.
// A State is not safe for concurrent writes; each agent owns its own.
type State = expr.State

// Condition is expr.Condition, a compiled precondition or goal condition.
// A compiled Condition is read-only: safe to evaluate from many goroutines at
// once, each on its own State.
type Condition = expr.Condition

// Effect is expr.Effect, a compiled effect.
// A compiled Effect is read-only: safe to apply from many goroutines at once,
// each to its own State.
type Effect = expr.Effect

// ParseError is expr.ParseError, a condition, effect or literal that does
// not parse.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type ParseError = expr.ParseError

// EffectError is expr.EffectError, an effect that cannot be applied to a
// state.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type EffectError = expr.EffectError

// NilValue returns the nil value; see expr.NilValue.
func NilValue() Value { return expr.NilValue() }

// BoolValue returns a bool value; see expr.BoolValue.
func BoolValue(b bool) Value { return expr.BoolValue(b) }

// NumberValue returns a number value; see expr.NumberValue.
func NumberValue(f float64) Value { return expr.NumberValue(f) }

// StringValue returns a string value; see expr.StringValue.
func StringValue(s string) Value { return expr.StringValue(s) }

// NewSchema returns a schema holding the given names, in order; see
// expr.NewSchema.
func NewSchema(names ...string) *Schema { return expr.NewSchema(names...) }

// CompileCondition parses and binds a condition; see expr.CompileCondition.
func CompileCondition(src string, s *Schema) (*Condition, error) {
	return expr.CompileCondition(src, s)
}

// CompileEffect parses and binds an effect; see expr.CompileEffect.
func CompileEffect(src string, s *Schema) (*Effect, error) { return expr.CompileEffect(src, s) }

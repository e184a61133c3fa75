package engine

import "github.com/moonmind-ai/moonmind/engine/expr"

// The expression language lives in package engine/expr. The names below
// keep the engine's API as it was, so code written against engine.Value,
// engine.CompileCondition and the rest keeps compiling; they are the same
// types and functions, documented in engine/expr.

// Kind is expr.Kind, the type of a Value.
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
type Value = expr.Value

// Schema is expr.Schema, the names and slots of a domain's state variables.
type Schema = expr.Schema

// State is expr.State, a world state with one Value per schema slot.
type State = expr.State

// Condition is expr.Condition, a compiled precondition or goal condition.
type Condition = expr.Condition

// Effect is expr.Effect, a compiled effect.
type Effect = expr.Effect

// EffectSyntax is expr.EffectSyntax, an effect parsed but not yet bound to
// a schema.
type EffectSyntax = expr.EffectSyntax

// ParseError is expr.ParseError, a condition, effect or literal that does
// not parse.
type ParseError = expr.ParseError

// EffectError is expr.EffectError, an effect that cannot be applied to a
// state.
type EffectError = expr.EffectError

// NilValue returns the nil value; see expr.NilValue.
func NilValue() Value { return expr.NilValue() }

// BoolValue returns a bool value; see expr.BoolValue.
func BoolValue(b bool) Value { return expr.BoolValue(b) }

// NumberValue returns a number value; see expr.NumberValue.
func NumberValue(f float64) Value { return expr.NumberValue(f) }

// StringValue returns a string value; see expr.StringValue.
func StringValue(s string) Value { return expr.StringValue(s) }

// FormatNumber formats a float64 as the expression language writes it;
// see expr.FormatNumber.
func FormatNumber(f float64) string { return expr.FormatNumber(f) }

// NewSchema returns a schema holding the given names, in order; see
// expr.NewSchema.
func NewSchema(names ...string) *Schema { return expr.NewSchema(names...) }

// CompileCondition parses and binds a condition; see expr.CompileCondition.
func CompileCondition(src string, s *Schema) (*Condition, error) {
	return expr.CompileCondition(src, s)
}

// CompileEffect parses and binds an effect; see expr.CompileEffect.
func CompileEffect(src string, s *Schema) (*Effect, error) { return expr.CompileEffect(src, s) }

// ParseEffect parses an effect without binding it; see expr.ParseEffect.
func ParseEffect(src string) (*EffectSyntax, error) { return expr.ParseEffect(src) }

// ParseLiteral parses one value as an effect's right-hand side writes it;
// see expr.ParseLiteral.
func ParseLiteral(text string) (Value, error) { return expr.ParseLiteral(text) }

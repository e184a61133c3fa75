// Package expr is moonmind's expression language: the values a state
// variable holds, the schema that gives each variable a slot, the state
// itself, and the two small languages over it, conditions (preconditions
// and goal conditions) and effects (what an action changes). It imports
// only the standard library; package engine builds goals, actions and the
// planners on it.
//
// The stages read one way, each over the output of the one before:
//
//   - lexer.go splits a text into tokens, with byte offsets;
//   - condition.go and effect_parse.go parse tokens, effect_parse.go
//     first into an EffectSyntax whose words are not yet bound, so that a
//     role can intern every effect's targets before any word is resolved;
//   - CompileCondition and EffectSyntax.Compile bind names to the slots of
//     a Schema and give an immutable Condition or Effect that evaluates on
//     a State without allocating;
//   - view.go is the read-only view (Node, Term) that other stages, such as
//     the planner's flattened forms, read instead of the syntax tree.
//
// Errors are values with fields: a text that does not parse is a
// *ParseError (column, what was expected, what was found, a caret line);
// an effect applied to a state where an arithmetic operand is not a number
// is an *EffectError naming the variable. Both print with the "expr: "
// prefix; their Message method gives the text without it.
//
// Numbers are float64. A number literal of magnitude 2^53 or more is
// refused, because above MaxSafeInteger (2^53 - 1) two integers can read as
// the same float64 (2^53 + 1 reads as 2^53); SafeNumber and CheckNumber
// give the same rule to numbers that enter from Lua or a command line.
//
// The rules of the languages, and where they come from, are written out
// in docs/semantics.md.
package expr

package engine_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

func TestValueConstructorsAndAccessors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		v      engine.Value
		kind   engine.Kind
		known  bool
		truthy bool
		iface  any
	}{
		{"zero", "the zero Value marks a missing variable", engine.Value{}, engine.Unknown, false, false, nil},
		{"nil", "nil is a known value holding nothing", engine.NilValue(), engine.Nil, true, false, nil},
		{"true", "only the bool true is truthy", engine.BoolValue(true), engine.Bool, true, true, true},
		{"false", "false is a known bool", engine.BoolValue(false), engine.Bool, true, false, false},
		{"number", "numbers are float64", engine.NumberValue(15.1), engine.Number, true, false, 15.1},
		{"one", "a number 1 is not true", engine.NumberValue(1), engine.Number, true, false, 1.0},
		{"string", "strings are text", engine.StringValue("true"), engine.String, true, false, "true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.kind, tc.v.Kind(), tc.reason)
			assert.Equal(t, tc.known, tc.v.IsKnown(), tc.reason)
			assert.Equal(t, tc.truthy, tc.v.Truthy(), tc.reason)
			assert.Equal(t, tc.iface, tc.v.Interface(), tc.reason)
		})
	}
	b, ok := engine.BoolValue(true).AsBool()
	assert.True(t, b)
	assert.True(t, ok)
	_, ok = engine.NumberValue(1).AsBool()
	assert.False(t, ok, "a number is not a bool")
	n, ok := engine.NumberValue(-2.5).AsNumber()
	assert.Equal(t, -2.5, n)
	assert.True(t, ok)
	_, ok = engine.StringValue("3").AsNumber()
	assert.False(t, ok, "a numeric string is not a number")
	s, ok := engine.StringValue("ATTACK").AsString()
	assert.Equal(t, "ATTACK", s)
	assert.True(t, ok)
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "unknown", engine.Unknown.String())
	assert.Equal(t, "nil", engine.Nil.String())
	assert.Equal(t, "bool", engine.Bool.String())
	assert.Equal(t, "number", engine.Number.String())
	assert.Equal(t, "string", engine.String.String())
	assert.Equal(t, "kind(9)", engine.Kind(9).String())
}

func TestValueEqual(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		a, b   engine.Value
		want   bool
	}{
		{"int and decimal", "1 and 1.0 are the same float64", engine.NumberValue(1), engine.NumberValue(1.0), true},
		{"different numbers", "", engine.NumberValue(1), engine.NumberValue(1.5), false},
		{"NaN", "NaN equals nothing, itself included", engine.NumberValue(math.NaN()), engine.NumberValue(math.NaN()), false},
		{"number and string", "kinds differ", engine.NumberValue(1), engine.StringValue("1"), false},
		{"bool and number", "true is not 1", engine.BoolValue(true), engine.NumberValue(1), false},
		{"nil and nil", "", engine.NilValue(), engine.NilValue(), true},
		{"nil and unknown", "a variable holding nil is not a missing one", engine.NilValue(), engine.Value{}, false},
		{"unknown and unknown", "", engine.Value{}, engine.Value{}, true},
		{"strings", "strings compare by bytes", engine.StringValue("é"), engine.StringValue("é"), true},
		{"string case", "", engine.StringValue("a"), engine.StringValue("A"), false},
		{"bools", "", engine.BoolValue(false), engine.BoolValue(false), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.a.Equal(tc.b), tc.reason)
			assert.Equal(t, tc.want, tc.b.Equal(tc.a), "Equal is symmetric")
		})
	}
}

func TestValueString(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		v      engine.Value
		want   string
	}{
		{"unknown", "", engine.Value{}, "unknown"},
		{"nil", "", engine.NilValue(), "nil"},
		{"true", "", engine.BoolValue(true), "true"},
		{"false", "", engine.BoolValue(false), "false"},
		{"integer", "integers have no decimal point", engine.NumberValue(30), "30"},
		{"decimal", "shortest form that round-trips", engine.NumberValue(15.1), "15.1"},
		{"negative", "", engine.NumberValue(-0.25), "-0.25"},
		{"huge", "an exponent from 1e21 on", engine.NumberValue(1e21), "1e+21"},
		{"big integer", "no exponent below 1e21", engine.NumberValue(1e20), "100000000000000000000"},
		{"tiny", "", engine.NumberValue(1e-7), "1e-07"},
		{"string", "double-quoted", engine.StringValue("patrol"), `"patrol"`},
		{"escapes", "only the escapes the languages know", engine.StringValue("a\"b\\c\nd\te\rf"), `"a\"b\\c\nd\te\rf"`},
		{"unicode", "printable text is kept as it is", engine.StringValue("héllo"), `"héllo"`},
		{"control", "other bytes are written raw, the lexer accepts them", engine.StringValue("a\x01b"), "\"a\x01b\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.v.String(), tc.reason)
		})
	}
}

func TestFormatNumber(t *testing.T) {
	assert.Equal(t, "0", engine.FormatNumber(0))
	assert.Equal(t, "3", engine.FormatNumber(3))
	assert.Equal(t, "15.1", engine.FormatNumber(15.1))
	a, b := 0.1, 0.2 // variables, so the sum is float64 arithmetic, not an exact constant
	assert.Equal(t, "0.30000000000000004", engine.FormatNumber(a+b), "float64 arithmetic is shown exactly")
	assert.Equal(t, "NaN", engine.FormatNumber(math.NaN()))
	assert.Equal(t, "+Inf", engine.FormatNumber(math.Inf(1)))
}

func TestParseLiteral(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		text   string
		want   engine.Value
	}{
		{"integer", "", "3", engine.NumberValue(3)},
		{"negative decimal", "", "-2.5", engine.NumberValue(-2.5)},
		{"exponent", "", "1e3", engine.NumberValue(1000)},
		{"leading dot", "", ".5", engine.NumberValue(0.5)},
		{"blanks", "surrounding blanks are ignored", "  15.1\t", engine.NumberValue(15.1)},
		{"true", "", "true", engine.BoolValue(true)},
		{"false", "", "false", engine.BoolValue(false)},
		{"nil", "", "nil", engine.NilValue()},
		{"null", "null is nil too", "null", engine.NilValue()},
		{"double quoted", "", `"a b"`, engine.StringValue("a b")},
		{"single quoted", "", `'it\'s'`, engine.StringValue("it's")},
		{"quoted number", "quotes make text", `"3"`, engine.StringValue("3")},
		{"empty string", "", `""`, engine.StringValue("")},
		{"bare word", "a bare word is the string it spells", "ATTACK", engine.StringValue("ATTACK")},
		{"dotted word", "", "enemy.visible", engine.StringValue("enemy.visible")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := engine.ParseLiteral(tc.text)
			require.NoError(t, err)
			assert.Equal(t, tc.want, v, tc.reason)
		})
	}
}

func TestParseLiteralErrors(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		text     string
		col      int
		expected string
		found    string
	}{
		{"empty", "a literal needs a value", "", 1, "a value (a number, a string, true, false, nil or a word)", "end of text"},
		{"two words", "blanks need quotes", "a b", 3, "end of text (quote a string that holds blanks or symbols)", `"b"`},
		{"minus word", "only numbers are negated", "-x", 2, `a number after "-"`, `"x"`},
		{"unterminated", "", `"abc`, 5, "a closing quote", "end of text"},
		{"symbol", "", "@", 1, "an operator, a name, a number or a string", `"@"`},
		{"expression", "a literal is not an effect", "1 + 2", 3, "end of text (quote a string that holds blanks or symbols)", `"+"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.ParseLiteral(tc.text)
			var pe *engine.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.text, pe.Source)
			assert.Equal(t, tc.col, pe.Col, tc.reason)
			assert.Equal(t, tc.expected, pe.Expected, tc.reason)
			assert.Equal(t, tc.found, pe.Found, tc.reason)
		})
	}
}

func TestParseLiteralRoundTrip(t *testing.T) {
	a, b := 0.1, 0.2
	values := []engine.Value{
		engine.NilValue(), engine.BoolValue(true), engine.BoolValue(false),
		engine.NumberValue(0), engine.NumberValue(-3), engine.NumberValue(15.1), engine.NumberValue(1e300),
		engine.NumberValue(-1e-300), engine.NumberValue(a + b),
		engine.StringValue(""), engine.StringValue("ATTACK"), engine.StringValue(`q"u'o\te`),
		engine.StringValue("tab\tnew\nline\r"), engine.StringValue("héllo wörld"), engine.StringValue("\x00\x7f"),
	}
	for _, v := range values {
		got, err := engine.ParseLiteral(v.String())
		require.NoError(t, err, v.String())
		assert.True(t, v.Equal(got), "ParseLiteral(%s) = %s", v.String(), got.String())
	}
}

func TestStateJSONSorted(t *testing.T) {
	s := engine.NewSchema("zeta", "alpha", "mid", "gone", "none")
	st := s.NewState()
	require.True(t, st.Set(s, "zeta", engine.NumberValue(15.1)))
	require.True(t, st.Set(s, "alpha", engine.StringValue("a\"b")))
	require.True(t, st.Set(s, "mid", engine.BoolValue(true)))
	require.True(t, st.Set(s, "none", engine.NilValue()))
	assert.False(t, st.Set(s, "other", engine.NumberValue(1)), "a name the schema lacks is not set")
	assert.Equal(t, `{"alpha":"a\"b","mid":true,"none":null,"zeta":15.1}`, string(st.JSON(s)),
		"known variables only, sorted by name; missing ones are left out")
	assert.Equal(t, engine.Value{}, st.Get(s, "gone"))
	assert.Equal(t, engine.Value{}, st.Get(s, "other"))
}

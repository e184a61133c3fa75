package expr_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestValueConstructorsAndAccessors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		v      expr.Value
		kind   expr.Kind
		known  bool
		truthy bool
		iface  any
	}{
		{"zero", "the zero Value marks a missing variable", expr.Value{}, expr.Unknown, false, false, nil},
		{"nil", "nil is a known value holding nothing", expr.NilValue(), expr.Nil, true, false, nil},
		{"true", "only the bool true is truthy", expr.BoolValue(true), expr.Bool, true, true, true},
		{"false", "false is a known bool", expr.BoolValue(false), expr.Bool, true, false, false},
		{"number", "numbers are float64", expr.NumberValue(15.1), expr.Number, true, false, 15.1},
		{"one", "a number 1 is not true", expr.NumberValue(1), expr.Number, true, false, 1.0},
		{"string", "strings are text", expr.StringValue("true"), expr.String, true, false, "true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.kind, tc.v.Kind(), tc.reason)
			assert.Equal(t, tc.known, tc.v.IsKnown(), tc.reason)
			assert.Equal(t, tc.truthy, tc.v.Truthy(), tc.reason)
			assert.Equal(t, tc.iface, tc.v.Interface(), tc.reason)
		})
	}
	b, ok := expr.BoolValue(true).AsBool()
	assert.True(t, b)
	assert.True(t, ok)
	_, ok = expr.NumberValue(1).AsBool()
	assert.False(t, ok, "a number is not a bool")
	n, ok := expr.NumberValue(-2.5).AsNumber()
	assert.Equal(t, -2.5, n)
	assert.True(t, ok)
	_, ok = expr.StringValue("3").AsNumber()
	assert.False(t, ok, "a numeric string is not a number")
	s, ok := expr.StringValue("ATTACK").AsString()
	assert.Equal(t, "ATTACK", s)
	assert.True(t, ok)
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "unknown", expr.Unknown.String())
	assert.Equal(t, "nil", expr.Nil.String())
	assert.Equal(t, "bool", expr.Bool.String())
	assert.Equal(t, "number", expr.Number.String())
	assert.Equal(t, "string", expr.String.String())
	assert.Equal(t, "kind(9)", expr.Kind(9).String())
}

func TestValueEqual(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		a, b   expr.Value
		want   bool
	}{
		{"int and decimal", "1 and 1.0 are the same float64", expr.NumberValue(1), expr.NumberValue(1.0), true},
		{"different numbers", "", expr.NumberValue(1), expr.NumberValue(1.5), false},
		{"NaN", "NaN equals nothing, itself included", expr.NumberValue(math.NaN()), expr.NumberValue(math.NaN()), false},
		{"number and string", "kinds differ", expr.NumberValue(1), expr.StringValue("1"), false},
		{"bool and number", "true is not 1", expr.BoolValue(true), expr.NumberValue(1), false},
		{"nil and nil", "", expr.NilValue(), expr.NilValue(), true},
		{"nil and unknown", "a variable holding nil is not a missing one", expr.NilValue(), expr.Value{}, false},
		{"unknown and unknown", "", expr.Value{}, expr.Value{}, true},
		{"strings", "strings compare by bytes", expr.StringValue("é"), expr.StringValue("é"), true},
		{"string case", "", expr.StringValue("a"), expr.StringValue("A"), false},
		{"bools", "", expr.BoolValue(false), expr.BoolValue(false), true},
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
		v      expr.Value
		want   string
	}{
		{"unknown", "", expr.Value{}, "unknown"},
		{"nil", "", expr.NilValue(), "nil"},
		{"true", "", expr.BoolValue(true), "true"},
		{"false", "", expr.BoolValue(false), "false"},
		{"integer", "integers have no decimal point", expr.NumberValue(30), "30"},
		{"decimal", "shortest form that round-trips", expr.NumberValue(15.1), "15.1"},
		{"negative", "", expr.NumberValue(-0.25), "-0.25"},
		{"huge", "an exponent from 1e21 on", expr.NumberValue(1e21), "1e+21"},
		{"big integer", "no exponent below 1e21", expr.NumberValue(1e20), "100000000000000000000"},
		{"tiny", "", expr.NumberValue(1e-7), "1e-07"},
		{"string", "double-quoted", expr.StringValue("patrol"), `"patrol"`},
		{"escapes", "only the escapes the languages know", expr.StringValue("a\"b\\c\nd\te\rf"), `"a\"b\\c\nd\te\rf"`},
		{"unicode", "printable text is kept as it is", expr.StringValue("héllo"), `"héllo"`},
		{"control", "other bytes are written raw, the lexer accepts them", expr.StringValue("a\x01b"), "\"a\x01b\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.v.String(), tc.reason)
		})
	}
}

func TestFormatNumber(t *testing.T) {
	assert.Equal(t, "0", expr.FormatNumber(0))
	assert.Equal(t, "3", expr.FormatNumber(3))
	assert.Equal(t, "15.1", expr.FormatNumber(15.1))
	a, b := 0.1, 0.2 // variables, so the sum is float64 arithmetic, not an exact constant
	assert.Equal(t, "0.30000000000000004", expr.FormatNumber(a+b), "float64 arithmetic is shown exactly")
	assert.Equal(t, "NaN", expr.FormatNumber(math.NaN()))
	assert.Equal(t, "+Inf", expr.FormatNumber(math.Inf(1)))
}

func TestParseLiteral(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		text   string
		want   expr.Value
	}{
		{"integer", "", "3", expr.NumberValue(3)},
		{"negative decimal", "", "-2.5", expr.NumberValue(-2.5)},
		{"exponent", "", "1e3", expr.NumberValue(1000)},
		{"leading dot", "", ".5", expr.NumberValue(0.5)},
		{"blanks", "surrounding blanks are ignored", "  15.1\t", expr.NumberValue(15.1)},
		{"true", "", "true", expr.BoolValue(true)},
		{"false", "", "false", expr.BoolValue(false)},
		{"nil", "", "nil", expr.NilValue()},
		{"null", "null is nil too", "null", expr.NilValue()},
		{"double quoted", "", `"a b"`, expr.StringValue("a b")},
		{"single quoted", "", `'it\'s'`, expr.StringValue("it's")},
		{"quoted number", "quotes make text", `"3"`, expr.StringValue("3")},
		{"empty string", "", `""`, expr.StringValue("")},
		{"bare word", "a bare word is the string it spells", "ATTACK", expr.StringValue("ATTACK")},
		{"dotted word", "", "enemy.visible", expr.StringValue("enemy.visible")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := expr.ParseLiteral(tc.text)
			require.NoError(t, err)
			assert.Equal(t, tc.want.Kind(), v.Kind(), tc.reason)
			assert.True(t, tc.want.Equal(v), "%s: got %s, want %s", tc.reason, v, tc.want)
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
			_, err := expr.ParseLiteral(tc.text)
			var pe *expr.ParseError
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
	values := []expr.Value{
		expr.NilValue(), expr.BoolValue(true), expr.BoolValue(false),
		expr.NumberValue(0), expr.NumberValue(-3), expr.NumberValue(15.1), expr.NumberValue(expr.MaxSafeInteger), expr.NumberValue(-expr.MaxSafeInteger),
		expr.NumberValue(-1e-300), expr.NumberValue(a + b),
		expr.StringValue(""), expr.StringValue("ATTACK"), expr.StringValue(`q"u'o\te`),
		expr.StringValue("tab\tnew\nline\r"), expr.StringValue("héllo wörld"), expr.StringValue("\x00\x7f"),
	}
	for _, v := range values {
		got, err := expr.ParseLiteral(v.String())
		require.NoError(t, err, v.String())
		assert.True(t, v.Equal(got), "ParseLiteral(%s) = %s", v.String(), got.String())
	}
}

func TestStateJSONSorted(t *testing.T) {
	s := expr.NewSchema("zeta", "alpha", "mid", "gone", "none")
	st := s.NewState()
	require.True(t, st.Set(s, "zeta", expr.NumberValue(15.1)))
	require.True(t, st.Set(s, "alpha", expr.StringValue("a\"b")))
	require.True(t, st.Set(s, "mid", expr.BoolValue(true)))
	require.True(t, st.Set(s, "none", expr.NilValue()))
	assert.False(t, st.Set(s, "other", expr.NumberValue(1)), "a name the schema lacks is not set")
	assert.Equal(t, `{"alpha":"a\"b","mid":true,"none":null,"zeta":15.1}`, string(st.JSON(s)),
		"known variables only, sorted by name; missing ones are left out")
	assert.Equal(t, expr.Value{}, st.Get(s, "gone"))
	assert.Equal(t, expr.Value{}, st.Get(s, "other"))
}

func TestShortNumber(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: a constant 0.1 + 0.2 is exact in Go
	tests := []struct {
		in   float64
		want string
	}{
		{48.699999999999996, "48.7"}, {4.999999999999998, "5"}, {tenth + fifth, "0.3"}, {30, "30"},
		{1.0 / 3, "0.333333333333"}, {-2.5, "-2.5"}, {1e21, "1e+21"}, {math.Inf(1), "+Inf"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, expr.ShortNumber(tc.in), "%v", tc.in)
	}
	assert.Equal(t, "0.30000000000000004", expr.FormatNumber(tenth+fifth), "FormatNumber reads back exactly; ShortNumber is for messages")
}

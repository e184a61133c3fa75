package expr_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestSafeNumber(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		f      float64
		safe   bool
	}{
		{"zero", "small integers are exact", 0, true},
		{"fraction", "the rule is about magnitude, not integrality", 15.1, true},
		{"max safe", "2^53 - 1 and its neighbours are exact", expr.MaxSafeInteger, true},
		{"-max safe", "the rule is symmetric", -expr.MaxSafeInteger, true},
		{"2^53", "2^53 is what 2^53 + 1 rounds to, so it is refused as well", 1 << 53, false},
		{"-2^53", "the rule is symmetric", -(1 << 53), false},
		{"1e16", "a float beyond the range is refused even when it is exact", 1e16, false},
		{"+inf", "math.huge is kept", math.Inf(1), true},
		{"-inf", "-math.huge is kept", math.Inf(-1), true},
		{"NaN", "NaN is never a value of state", math.NaN(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.safe, expr.SafeNumber(tc.f), tc.reason)
			err := expr.CheckNumber(tc.f)
			if tc.safe {
				assert.NoError(t, err, tc.reason)
				return
			}
			var ne *expr.NumberError
			require.True(t, errors.As(err, &ne), "%v is a *NumberError", err)
			assert.Equal(t, "expr: "+ne.Message(), err.Error())
		})
	}
	assert.EqualError(t, expr.CheckNumber(1<<53),
		"expr: 9007199254740992 is beyond 2^53 - 1 (9007199254740991), so it may not be exact in a float64; keep big ids as strings")
	assert.EqualError(t, expr.CheckNumber(math.NaN()), "expr: NaN cannot be stored in state")
}

// TestBigIntegerLiterals checks the one rule for numbers beyond 2^53 - 1 in
// every text the language reads: conditions, effects and literals.
func TestBigIntegerLiterals(t *testing.T) {
	const want = "a number of magnitude at most 2^53 - 1 = 9007199254740991 (larger ones may lose digits in a float64; keep big ids as strings)"
	refused := []struct {
		name   string
		reason string
		text   string // the number as written
	}{
		{"2^53", "what 2^53 + 1 rounds to", "9007199254740992"},
		{"2^53 + 1", "would round to 2^53 silently", "9007199254740993"},
		{"19 digits", "a big id reads as another number", "1234567890123456789"},
		{"exponent", "1e16 is beyond the range however it is written", "1e16"},
		{"decimal", "a fraction that rounds to 2^53", "9007199254740992.5"},
		{"huge", "far beyond", "1e300"},
	}
	forms := []struct {
		name  string
		text  func(n string) string
		col   int
		parse func(string) error
	}{
		{"condition", func(n string) string { return "id == " + n }, 7, func(s string) error {
			_, err := expr.CompileCondition(s, expr.NewSchema())
			return err
		}},
		{"negative condition", func(n string) string { return "id > -" + n }, 7, func(s string) error {
			_, err := expr.CompileCondition(s, expr.NewSchema())
			return err
		}},
		{"effect", func(n string) string { return "id = " + n }, 6, func(s string) error {
			_, err := expr.CompileEffect(s, expr.NewSchema())
			return err
		}},
		{"effect sum", func(n string) string { return "id = id + " + n }, 11, func(s string) error {
			_, err := expr.CompileEffect(s, expr.NewSchema())
			return err
		}},
		{"literal", func(n string) string { return n }, 1, func(s string) error {
			_, err := expr.ParseLiteral(s)
			return err
		}},
		{"negative literal", func(n string) string { return "-" + n }, 2, func(s string) error {
			_, err := expr.ParseLiteral(s)
			return err
		}},
	}
	for _, f := range forms {
		for _, tc := range refused {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				src := f.text(tc.text)
				err := f.parse(src)
				var pe *expr.ParseError
				require.True(t, errors.As(err, &pe), "%q: %v is a *ParseError (%s)", src, err, tc.reason)
				assert.Equal(t, want, pe.Expected, tc.reason)
				assert.Equal(t, `"`+tc.text+`"`, pe.Found)
				assert.Equal(t, f.col, pe.Col, "the column of the number in %q", src)
			})
		}
		t.Run(f.name+"/max safe", func(t *testing.T) {
			assert.NoError(t, f.parse(f.text("9007199254740991")), "2^53 - 1 is the largest number accepted")
		})
	}
	v, err := expr.ParseLiteral("-9007199254740991")
	require.NoError(t, err)
	assert.Equal(t, expr.NumberValue(-expr.MaxSafeInteger), v)
}

package engine

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name        string
		reason      string
		raw, lo, hi float64
		want        float64
		wantNaN     bool
	}{
		{"middle", "40 of 0..100", 40, 0, 100, 0.4, false},
		{"below", "clamped to 0", -5, 0, 100, 0, false},
		{"above", "clamped to 1", 150, 0, 100, 1, false},
		{"offset range", "15 of 10..20", 15, 10, 20, 0.5, false},
		{"reversed", "lo > hi reverses: 25 of 100..0 is 0.75", 25, 100, 0, 0.75, false},
		{"empty range", "lo == hi has no answer", 5, 5, 5, 0, true},
		{"NaN", "NaN stays NaN (scored 0 later)", math.NaN(), 0, 1, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := normalize(tc.raw, tc.lo, tc.hi)
			if tc.wantNaN {
				assert.True(t, math.IsNaN(got), tc.reason)
				return
			}
			assert.InDelta(t, tc.want, got, 1e-12, tc.reason)
		})
	}
}

// A reversed range read at its start is 0, not -0 (0 / -100), which JSON
// would print as "-0": no score is ever -0.
func TestAReversedRangeAtItsStartIsZeroNotMinusZero(t *testing.T) {
	x := normalize(100, 100, 0)
	assert.Equal(t, 0.0, x)
	assert.False(t, math.Signbit(x), "normalize(100, 100, 0) is -0")
	assert.False(t, math.Signbit(clampScore(math.Copysign(0, -1))))
	d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"health", expr.NumberValue(100)}}, Actions: []ActionSpec{{Name: "a"}}})
	c, err := CompileConsideration(ConsiderationSpec{Input: "health", Min: 100, Max: 0}, d.Schema)
	require.NoError(t, err)
	_, out, err := c.eval(d.Actions[0], d.NewState(), d.Schema)
	require.NoError(t, err)
	assert.False(t, math.Signbit(out), "the output %v", out)
}

func TestCurveValidate(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		curve  curve.Curve
		err    string
	}{
		{"ok", "every default curve is valid", curve.New(curve.Logit), ""},
		{"unknown", "a typo gets a suggestion", curve.Curve{Kind: "logistc"}, `engine: unknown curve "logistc"; want linear, polynomial, logistic, logit or step (did you mean "logistic"?)`},
		{"NaN slope", "parameters must be finite", curve.Curve{Slope: math.NaN()}, "engine: curve slope must be a finite number, not NaN"},
		{"Inf offset", "parameters must be finite", curve.Curve{Offset: math.Inf(1)}, "engine: curve offset must be a finite number, not +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := validateCurve(tc.curve)
			if tc.err == "" {
				assert.NoError(t, err, tc.reason)
				return
			}
			require.Error(t, err, tc.reason)
			assert.Equal(t, tc.err, err.Error(), tc.reason)
		})
	}
}

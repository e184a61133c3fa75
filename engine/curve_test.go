package engine

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCurveEval(t *testing.T) {
	logistic := func(x float64) float64 { return 1 / (1 + math.Exp(-10*(x-0.5))) }
	tests := []struct {
		name   string
		reason string
		curve  Curve
		x      float64
		want   float64
	}{
		{"zero curve", "the zero Curve is the identity", Curve{}, 0.3, 0.3},
		{"linear default", "NewCurve(linear) is y = x", NewCurve(CurveLinear), 0.75, 0.75},
		{"linear descending", "slope -1 with offset 1 is 1 - x", Curve{Kind: CurveLinear, Slope: -1, Offset: 1}, 0.25, 0.75},
		{"linear steep clamps", "2x at 0.8 is 1.6, clamped to 1", Curve{Kind: CurveLinear, Slope: 2}, 0.8, 1},
		{"linear below clamps", "x - 0.5 at 0.2 is -0.3, clamped to 0", Curve{Kind: CurveLinear, Offset: 0.5}, 0.2, 0},
		{"linear shift", "x + 0.25 at 0.5", Curve{Kind: CurveLinear, Shift: 0.25}, 0.5, 0.75},
		{"quadratic", "0.5² = 0.25", NewCurve(CurvePolynomial), 0.5, 0.25},
		{"cubic", "0.5³ = 0.125", Curve{Kind: CurvePolynomial, Exponent: 3}, 0.5, 0.125},
		{"square root", "0.25^0.5 = 0.5", Curve{Kind: CurvePolynomial, Exponent: 0.5}, 0.25, 0.5},
		{"fractional power of a negative", "(0.2 - 0.5)^0.5 has no real value: 0", Curve{Kind: CurvePolynomial, Exponent: 0.5, Offset: 0.5}, 0.2, 0},
		{"odd power of a negative", "(0 - 0.5)³ is negative: clamped to 0", Curve{Kind: CurvePolynomial, Exponent: 3, Offset: 0.5}, 0, 0},
		{"logistic centre", "the S curve crosses 0.5 at its offset", NewCurve(CurveLogistic), 0.5, 0.5},
		{"logistic top", "1/(1+e^-5)", NewCurve(CurveLogistic), 1, logistic(1)},
		{"logistic bottom", "1/(1+e^5)", NewCurve(CurveLogistic), 0, logistic(0)},
		{"logistic zero slope", "slope 0 means the default 10", Curve{Kind: CurveLogistic, Offset: 0.5}, 1, logistic(1)},
		{"logistic moved", "offset 0.8 moves the centre", Curve{Kind: CurveLogistic, Slope: 10, Offset: 0.8}, 0.8, 0.5},
		{"logit centre", "the logit crosses 0.5 at its offset", NewCurve(CurveLogit), 0.5, 0.5},
		{"logit zero", "ln(0) is -Inf: clamped to 0", NewCurve(CurveLogit), 0, 0},
		{"logit one", "ln(+Inf) is +Inf: clamped to 1", NewCurve(CurveLogit), 1, 1},
		{"logit inverts logistic", "logit(logistic(0.3)) = 0.3", NewCurve(CurveLogit), logistic(0.3), 0.3},
		{"step below", "under the threshold", NewCurve(CurveStep), 0.49, 0},
		{"step at", "at the threshold", NewCurve(CurveStep), 0.5, 1},
		{"step inverted", "invert makes a descending step", Curve{Kind: CurveStep, Offset: 0.5, Invert: true}, 0.7, 0},
		{"invert linear", "1 - x", Curve{Invert: true}, 0.2, 0.8},
		{"x above 1", "the input is clamped to 1 first", Curve{}, 7, 1},
		{"x below 0", "the input is clamped to 0 first", Curve{}, -3, 0},
		{"NaN input", "a NaN input scores 0", Curve{Invert: true}, math.NaN(), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.curve.eval(tc.x)
			assert.InDelta(t, tc.want, got, 1e-9, tc.reason)
			assert.True(t, got >= 0 && got <= 1, "output %v outside [0, 1]", got)
		})
	}
}

func TestCurveOutputAlwaysInUnitRange(t *testing.T) {
	for _, k := range curveKinds {
		for _, slope := range []float64{-20, -1, 0, 0.5, 30} {
			for _, off := range []float64{-1, 0, 0.5, 2} {
				c := Curve{Kind: k, Slope: slope, Offset: off, Exponent: 1.5, Shift: 0.1}
				for x := -0.5; x <= 1.5; x += 0.05 {
					y := c.eval(x)
					require.False(t, math.IsNaN(y), "%+v at %v", c, x)
					require.True(t, y >= 0 && y <= 1, "%+v at %v gave %v", c, x, y)
				}
			}
		}
	}
}

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

func TestCurveValidate(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		curve  Curve
		err    string
	}{
		{"ok", "every default curve is valid", NewCurve(CurveLogit), ""},
		{"unknown", "a typo gets a suggestion", Curve{Kind: "logistc"}, `engine: unknown curve "logistc"; want linear, polynomial, logistic, logit or step (did you mean "logistic"?)`},
		{"NaN slope", "parameters must be finite", Curve{Slope: math.NaN()}, "engine: curve slope must be a finite number, not NaN"},
		{"Inf offset", "parameters must be finite", Curve{Offset: math.Inf(1)}, "engine: curve offset must be a finite number, not +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.curve.validate()
			if tc.err == "" {
				assert.NoError(t, err, tc.reason)
				return
			}
			require.Error(t, err, tc.reason)
			assert.Equal(t, tc.err, err.Error(), tc.reason)
		})
	}
}

package curve

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
		{"linear default", "New(linear) is y = x", New(Linear), 0.75, 0.75},
		{"linear descending", "slope -1 with offset 1 is 1 - x", Curve{Kind: Linear, Slope: -1, Offset: 1}, 0.25, 0.75},
		{"linear steep clamps", "2x at 0.8 is 1.6, clamped to 1", Curve{Kind: Linear, Slope: 2}, 0.8, 1},
		{"linear below clamps", "x - 0.5 at 0.2 is -0.3, clamped to 0", Curve{Kind: Linear, Offset: 0.5}, 0.2, 0},
		{"linear shift", "x + 0.25 at 0.5", Curve{Kind: Linear, Shift: 0.25}, 0.5, 0.75},
		{"quadratic", "0.5² = 0.25", New(Polynomial), 0.5, 0.25},
		{"power one", "a polynomial of power 1 is m·(x - c): 2·0.3", Curve{Kind: Polynomial, Slope: 2, Exponent: 1}, 0.3, 0.6},
		{"cubic", "0.5³ = 0.125", Curve{Kind: Polynomial, Exponent: 3}, 0.5, 0.125},
		{"square root", "0.25^0.5 = 0.5", Curve{Kind: Polynomial, Exponent: 0.5}, 0.25, 0.5},
		{"fractional power of a negative", "(0.2 - 0.5)^0.5 has no real value: 0", Curve{Kind: Polynomial, Exponent: 0.5, Offset: 0.5}, 0.2, 0},
		{"odd power of a negative", "(0 - 0.5)³ is negative: clamped to 0", Curve{Kind: Polynomial, Exponent: 3, Offset: 0.5}, 0, 0},
		{"logistic centre", "the S curve crosses 0.5 at its offset", New(Logistic), 0.5, 0.5},
		{"logistic top", "1/(1+e^-5)", New(Logistic), 1, logistic(1)},
		{"logistic bottom", "1/(1+e^5)", New(Logistic), 0, logistic(0)},
		{"logistic zero slope", "slope 0 means the default 10", Curve{Kind: Logistic, Offset: 0.5}, 1, logistic(1)},
		{"logistic moved", "offset 0.8 moves the centre", Curve{Kind: Logistic, Slope: 10, Offset: 0.8}, 0.8, 0.5},
		{"logit centre", "the logit crosses 0.5 at its offset", New(Logit), 0.5, 0.5},
		{"logit zero", "ln(0) is -Inf: clamped to 0", New(Logit), 0, 0},
		{"logit one", "ln(+Inf) is +Inf: clamped to 1", New(Logit), 1, 1},
		{"logit inverts logistic", "logit(logistic(0.3)) = 0.3", New(Logit), logistic(0.3), 0.3},
		{"logit slope", "slope 5 halves the default's steepness: 0.5 + ln(0.7/0.3)/5", Curve{Kind: Logit, Slope: 5, Offset: 0.5}, 0.7, 0.5 + math.Log(0.7/0.3)/5},
		{"logit zero slope", "slope 0 means the default 10", Curve{Kind: Logit, Offset: 0.5}, 0.7, 0.5 + math.Log(0.7/0.3)/10},
		{"step below", "under the threshold", New(Step), 0.49, 0},
		{"step at", "at the threshold", New(Step), 0.5, 1},
		{"step inverted", "invert makes a descending step", Curve{Kind: Step, Offset: 0.5, Invert: true}, 0.7, 0},
		{"invert linear", "1 - x", Curve{Invert: true}, 0.2, 0.8},
		{"x above 1", "the input is clamped to 1 first", Curve{}, 7, 1},
		{"x below 0", "the input is clamped to 0 first", Curve{}, -3, 0},
		{"NaN input", "a NaN input scores 0", Curve{Invert: true}, math.NaN(), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.curve.Eval(tc.x)
			assert.InDelta(t, tc.want, got, 1e-9, tc.reason)
			assert.True(t, got >= 0 && got <= 1, "output %v outside [0, 1]", got)
		})
	}
}

// No input or setting gives the output -0, which JSON prints as "-0":
// here a linear curve at -0 with a Shift of -0, whose sum keeps the sign.
func TestCurveOutputIsNeverMinusZero(t *testing.T) {
	minusZero := math.Copysign(0, -1)
	c := Curve{Shift: minusZero}
	for _, x := range []float64{minusZero, 0} {
		y := c.Eval(x)
		assert.Equal(t, 0.0, y)
		assert.False(t, math.Signbit(y), "Eval(%v) is -0", x)
	}
}

func TestCurveOutputAlwaysInUnitRange(t *testing.T) {
	for _, k := range kinds {
		for _, slope := range []float64{-20, -1, 0, 0.5, 30} {
			for _, off := range []float64{-1, 0, 0.5, 2} {
				c := Curve{Kind: k, Slope: slope, Offset: off, Exponent: 1.5, Shift: 0.1}
				for x := -0.5; x <= 1.5; x += 0.05 {
					y := c.Eval(x)
					require.False(t, math.IsNaN(y), "%+v at %v", c, x)
					require.True(t, y >= 0 && y <= 1, "%+v at %v gave %v", c, x, y)
				}
			}
		}
	}
}

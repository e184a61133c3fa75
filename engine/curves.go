package engine

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// validateCurve reports an unknown kind or a parameter that is not a finite
// number, as an error starting "engine: ".
func validateCurve(c curve.Curve) error {
	switch c.Kind {
	case "", curve.Linear, curve.Polynomial, curve.Logistic, curve.Logit, curve.Step:
	default:
		return newError("unknown curve \"" + string(c.Kind) + "\"; want linear, polynomial, logistic, logit or step" +
			DidYouMean(string(c.Kind), curveNames()))
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"slope", c.Slope}, {"exponent", c.Exponent}, {"offset", c.Offset}, {"shift", c.Shift}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) {
			return newError("curve " + p.name + " must be a finite number, not " + expr.FormatNumber(p.v))
		}
	}
	return nil
}

func curveNames() []string {
	kinds := curve.Kinds()
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}

// normalize maps raw from [lo, hi] onto [0, 1], clamped: lo gives 0 and hi
// gives 1. lo > hi reverses the range (a bigger raw gives a smaller x).
// lo == hi, or a NaN raw, gives NaN.
func normalize(raw, lo, hi float64) float64 {
	if lo == hi {
		return math.NaN()
	}
	x := (raw - lo) / (hi - lo)
	if math.IsNaN(x) {
		return x
	}
	return clamp01(x)
}

// clampScore clamps v to [0, 1]; NaN gives 0. It is how every consideration
// score is bounded.
func clampScore(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return clamp01(v)
}

// clamp01 clamps v to [0, 1]; -0 gives 0 (a reversed range read at its
// start is 0 / -n), so no score prints as "-0".
func clamp01(v float64) float64 {
	if v <= 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

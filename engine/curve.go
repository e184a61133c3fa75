package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"math"
)

// CurveKind names the shape of a response curve.
// Its values are immutable and safe to share between goroutines.
type CurveKind string

// The response curves of the Infinite Axis Utility System. Each maps an
// input x in [0, 1] to an output y, clamped to [0, 1]; m is Slope, k is
// Exponent, c is Offset and b is Shift.
const (
	// CurveLinear is y = m·(x − c) + b. The zero Curve is linear with
	// m = 1, c = 0, b = 0: the identity.
	CurveLinear CurveKind = "linear"
	// CurvePolynomial is y = m·(x − c)^k + b (k = 2: a quadratic). A
	// negative x − c with a fractional k has no real power: the output is 0.
	CurvePolynomial CurveKind = "polynomial"
	// CurveLogistic is the S curve y = 1 / (1 + e^(−m·(x − c))) + b,
	// centred on x = c.
	CurveLogistic CurveKind = "logistic"
	// CurveLogit is the inverse of the logistic curve:
	// y = 0.5 + ln(u / (1 − u)) / m + b with u = x − c + 0.5 clamped to
	// [0, 1], so it is steep at both ends and crosses 0.5 at x = c. With
	// the default m = 10 it undoes the default logistic curve.
	CurveLogit CurveKind = "logit"
	// CurveStep is y = 1 when x ≥ c, else 0, plus b.
	CurveStep CurveKind = "step"
)

// curveKinds lists the curve kinds, in the order the docs give them.
var curveKinds = []CurveKind{CurveLinear, CurvePolynomial, CurveLogistic, CurveLogit, CurveStep}

// Curve is a response curve: it maps a consideration's input, normalised
// to [0, 1], to a score in [0, 1]. The zero Curve is the linear identity.
//
// Slope 0 means the kind's default slope (1 for linear and polynomial, 10
// for logistic and logit), since a flat curve is better written as a
// constant; Exponent 0 means 2. Offset is used as given: NewCurve returns
// a kind's usual centre (0.5 for logistic, logit and step). A Curve is a
// plain value, safe to share.
type Curve struct {
	Kind     CurveKind // the default (empty) value is CurveLinear
	Slope    float64   // m: steepness; negative slopes descend
	Exponent float64   // k: the power of a polynomial curve
	Offset   float64   // c: the horizontal shift (the centre or threshold)
	Shift    float64   // b: added to the output
	Invert   bool      // output 1 − y (after Shift, before clamping)
}

// NewCurve returns a curve of that kind with its usual parameters: linear
// y = x, the quadratic y = x², logistic and logit with slope 10 centred on
// 0.5, a step at 0.5.
func NewCurve(kind CurveKind) Curve {
	c := Curve{Kind: kind, Slope: 1}
	switch kind {
	case CurvePolynomial:
		c.Exponent = 2
	case CurveLogistic, CurveLogit:
		c.Slope, c.Offset = 10, 0.5
	case CurveStep:
		c.Offset = 0.5
	}
	return c
}

// validate reports an unknown kind or a parameter that is not a finite
// number, as an error starting "engine: ".
func (c Curve) validate() error {
	switch c.Kind {
	case "", CurveLinear, CurvePolynomial, CurveLogistic, CurveLogit, CurveStep:
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
	out := make([]string, len(curveKinds))
	for i, k := range curveKinds {
		out[i] = string(k)
	}
	return out
}

// At is the curve's output in [0, 1] at x, which is clamped to [0, 1]
// first (a NaN x gives 0), as the utility planner computes it: for a tool
// that plots the curve. It does not allocate and is safe for concurrent use.
func (c Curve) At(x float64) float64 { return c.eval(x) }

// eval maps x to the curve's output in [0, 1]. x is clamped to [0, 1]
// first; a NaN x, or a NaN output (a fractional power of a negative
// number), gives 0. It does not allocate and is safe for concurrent use.
func (c *Curve) eval(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	x = clamp01(x)
	m := c.Slope
	var y float64
	switch c.Kind {
	case CurvePolynomial:
		if m == 0 {
			m = 1
		}
		k := c.Exponent
		if k == 0 {
			k = 2
		}
		d := x - c.Offset
		switch k {
		case 1:
			y = m * d
		case 2:
			y = m * d * d
		case 3:
			y = m * d * d * d
		default:
			y = m * math.Pow(d, k)
		}
	case CurveLogistic:
		if m == 0 {
			m = 10
		}
		y = 1 / (1 + math.Exp(-m*(x-c.Offset)))
	case CurveLogit:
		if m == 0 {
			m = 10
		}
		u := clamp01(x - c.Offset + 0.5)
		y = 0.5 + math.Log(u/(1-u))/m // u = 0 gives −Inf, u = 1 gives +Inf: clamped below
	case CurveStep:
		if x >= c.Offset {
			y = 1
		}
	default: // linear
		if m == 0 {
			m = 1
		}
		y = m * (x - c.Offset)
	}
	y += c.Shift
	if c.Invert {
		y = 1 - y
	}
	return clampScore(y)
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

func clamp01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

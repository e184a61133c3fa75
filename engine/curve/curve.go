// Package curve holds the response curves of the utility planner: the
// functions that map a consideration's input, normalised to [0, 1], to a
// score in [0, 1].
package curve

import "math"

// Kind names the shape of a response curve.
// Its values are immutable and safe to share between goroutines.
type Kind string

// The response curves of the Infinite Axis Utility System. Each maps an
// input x in [0, 1] to an output y, clamped to [0, 1]; m is Slope, k is
// Exponent, c is Offset and b is Shift.
const (
	// Linear is y = m·(x − c) + b. The zero Curve is linear with
	// m = 1, c = 0, b = 0: the identity.
	Linear Kind = "linear"
	// Polynomial is y = m·(x − c)^k + b (k = 2: a quadratic). A
	// negative x − c with a fractional k has no real power: the output is 0.
	Polynomial Kind = "polynomial"
	// Logistic is the S curve y = 1 / (1 + e^(−m·(x − c))) + b,
	// centred on x = c.
	Logistic Kind = "logistic"
	// Logit is the inverse of the logistic curve:
	// y = 0.5 + ln(u / (1 − u)) / m + b with u = x − c + 0.5 clamped to
	// [0, 1], so it is steep at both ends and crosses 0.5 at x = c. With
	// the default m = 10 it undoes the default logistic curve.
	Logit Kind = "logit"
	// Step is y = 1 when x ≥ c, else 0, plus b.
	Step Kind = "step"
)

// kinds lists the curve kinds, in the order the docs give them.
var kinds = [...]Kind{Linear, Polynomial, Logistic, Logit, Step}

// Kinds returns the curve kinds, in the order the docs give them.
func Kinds() []Kind { return append([]Kind(nil), kinds[:]...) }

// Curve is a response curve: it maps a consideration's input, normalised
// to [0, 1], to a score in [0, 1]. The zero Curve is the linear identity.
//
// Slope 0 means the kind's default slope (1 for linear and polynomial, 10
// for logistic and logit), since a flat curve is better written as a
// constant; Exponent 0 means 2. Offset is used as given: New returns
// a kind's usual centre (0.5 for logistic, logit and step). A Curve is a
// plain value, safe to share.
type Curve struct {
	Kind     Kind    // the default (empty) value is Linear
	Slope    float64 // m: steepness; negative slopes descend
	Exponent float64 // k: the power of a polynomial curve
	Offset   float64 // c: the horizontal shift (the centre or threshold)
	Shift    float64 // b: added to the output
	Invert   bool    // output 1 − y (after Shift, before clamping)
}

// New returns a curve of that kind with its usual parameters: linear
// y = x, the quadratic y = x², logistic and logit with slope 10 centred on
// 0.5, a step at 0.5.
func New(kind Kind) Curve {
	c := Curve{Kind: kind, Slope: 1}
	switch kind {
	case Polynomial:
		c.Exponent = 2
	case Logistic, Logit:
		c.Slope, c.Offset = 10, 0.5
	case Step:
		c.Offset = 0.5
	}
	return c
}

// Eval maps x to the curve's output in [0, 1]. x is clamped to [0, 1]
// first; a NaN x, or a NaN output (a fractional power of a negative
// number), gives 0. It does not allocate and is safe for concurrent use.
func (c *Curve) Eval(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	x = clamp01(x)
	m := c.Slope
	var y float64
	switch c.Kind {
	case Polynomial:
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
	case Logistic:
		if m == 0 {
			m = 10
		}
		y = 1 / (1 + math.Exp(-m*(x-c.Offset)))
	case Logit:
		if m == 0 {
			m = 10
		}
		u := clamp01(x - c.Offset + 0.5)
		y = 0.5 + math.Log(u/(1-u))/m // u = 0 gives −Inf, u = 1 gives +Inf: clamped below
	case Step:
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
	if math.IsNaN(y) {
		return 0
	}
	return clamp01(y)
}

// clamp01 clamps v to [0, 1]; -0 gives 0, so no output is -0 (a Shift
// of -0 added to a -0 keeps the sign).
func clamp01(v float64) float64 {
	if v <= 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

package expr

import (
	"math"
	"strconv"
)

// MaxSafeInteger is 2^53 - 1 (9007199254740991), the largest number that
// may enter state. Every integer up to it in magnitude is held exactly by a
// float64, and so is its successor, so no two integers in the range round
// to the same number: 2^53 + 1 rounds to 2^53, which is why 2^53 itself is
// refused too.
const MaxSafeInteger = 1<<53 - 1

// NumberError is a number that cannot enter state: NaN, or a finite number
// whose magnitude is above MaxSafeInteger, which may already have lost
// digits (a 19-digit id such as 1234567890123456789 reads as
// 1234567890123456768). Text is the number as written when it came from a
// text (a literal, a command line), else the number formatted.
type NumberError struct {
	Text  string
	Value float64
}

// Message is the error without the package prefix.
func (e *NumberError) Message() string {
	if math.IsNaN(e.Value) {
		return "NaN cannot be stored in state"
	}
	return e.Text + " is beyond 2^53 - 1 (" + strconv.FormatInt(MaxSafeInteger, 10) +
		"), so it may not be exact in a float64; keep big ids as strings"
}

func (e *NumberError) Error() string { return "expr: " + e.Message() }

// SafeNumber reports whether f may be stored in state: a number of
// magnitude at most MaxSafeInteger, or an infinity. NaN is not safe.
// SafeNumber is the one rule for every number that enters state or the
// expression language: condition and effect literals, ParseLiteral (and so
// command lines), and values written from Lua.
func SafeNumber(f float64) bool {
	return math.Abs(f) <= MaxSafeInteger || math.IsInf(f, 0)
}

// CheckNumber returns nil when SafeNumber(f), else a *NumberError whose
// Text is f formatted without an exponent (for magnitudes below 1e21).
func CheckNumber(f float64) error {
	if SafeNumber(f) {
		return nil
	}
	return &NumberError{Text: FormatNumber(f), Value: f}
}

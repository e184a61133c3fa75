package engine

import "github.com/moonmind-ai/moonmind/engine/expr"

// shortNumber is expr.ShortNumber: a number for a message, without the
// rounding noise of float64 arithmetic.
func shortNumber(f float64) string { return expr.ShortNumber(f) }

// shortValue is Value.String with numbers in shortNumber form.
func shortValue(v expr.Value) string {
	if n, ok := v.AsNumber(); ok {
		return shortNumber(n)
	}
	return v.String()
}

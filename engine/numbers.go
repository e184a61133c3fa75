package engine

import (
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// shortNumber formats f for a message in its shortest form at 12
// significant digits, so the rounding noise of float64 arithmetic does not
// reach a designer: 48.699999999999996 reads 48.7, 4.999999999999998 reads
// 5, 0.1 + 0.2 reads 0.3. Integers print without a decimal point (see
// expr.FormatNumber). Use expr.FormatNumber where a number must read back exactly.
func shortNumber(f float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	if err != nil { // ±Inf, NaN
		return expr.FormatNumber(f)
	}
	return expr.FormatNumber(r)
}

// shortValue is Value.String with numbers in shortNumber form.
func shortValue(v Value) string {
	if n, ok := v.AsNumber(); ok {
		return shortNumber(n)
	}
	return v.String()
}

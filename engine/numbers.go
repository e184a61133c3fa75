package engine

import "strconv"

// ShortNumber formats f for a message in its shortest form at 12
// significant digits, so the rounding noise of float64 arithmetic does not
// reach a designer: 48.699999999999996 reads 48.7, 4.999999999999998 reads
// 5, 0.1 + 0.2 reads 0.3. Integers print without a decimal point (see
// FormatNumber). Use FormatNumber where a number must read back exactly.
func ShortNumber(f float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	if err != nil { // ±Inf, NaN
		return FormatNumber(f)
	}
	return FormatNumber(r)
}

// ShortValue formats v for a message or a record: as Value.String, but a
// number in ShortNumber form (a belief of 48.699999999999996 reads 48.7).
func ShortValue(v Value) string { return shortValue(v) }

// shortValue is Value.String with numbers in ShortNumber form.
func shortValue(v Value) string {
	if n, ok := v.AsNumber(); ok {
		return ShortNumber(n)
	}
	return v.String()
}

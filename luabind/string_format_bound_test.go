package luabind

import (
	"testing"
)

// TestStringFormatBoundsItsResultBeforeFormatting: string.format adds up
// what each conversion could write (512 bytes for a number, a boolean or
// nil, plus its width; a string's length for %s, %d and %i; five bytes a
// byte and two for %q and %x of a string) on top of the format's own
// length, and refuses the call when that passes Options.MaxStringBytes,
// naming the sum; a sum of exactly the limit is formatted.
func TestStringFormatBoundsItsResultBeforeFormatting(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		limit  int
		src    string
		want   string // the result, or the error when it starts "strings.lua:"
	}{
		{"one number at the limit", "2 + 512 bytes", 514, `return string.format("%d", 7)`, "7"},
		{"one number past the limit", "2 + 512 bytes", 513, `return string.format("%d", 7)`,
			"strings.lua:1: string too long: string.format could build up to 514 bytes, more than the sandbox allows (513, luabind.Options.MaxStringBytes)"},
		{"two numbers", "5 + 2 x 512 bytes", 1000, `return string.format("%d %d", 1, 2)`,
			"strings.lua:1: string too long: string.format could build up to 1029 bytes"},
		{"a width", "4 + 12 + 512 bytes", 500, `return string.format("%12d", 1)`,
			"strings.lua:1: string too long: string.format could build up to 528 bytes"},
		{"a precision", "it counts as a width: 4 + 5 + 512 bytes", 500, `return string.format("%.5f", 1)`,
			"strings.lua:1: string too long: string.format could build up to 521 bytes"},
		{"flags", "five flags are allowed: 7 + 512 bytes", 500, `return string.format("%-+ #0d", 1)`,
			"strings.lua:1: string too long: string.format could build up to 519 bytes"},
		{"six flags", "as in Lua 5.1", 500, `return string.format("%-+ #0-d", 1)`, "strings.lua:1: invalid format (repeated flags)"},
		{"three digits", "as in Lua 5.1", 5000, `return string.format("%100d", 1)`, "strings.lua:1: invalid format (width or precision too long)"},
		{"a format ending in its width", "no conversion after the width", 5000, `return string.format("%5")`,
			"strings.lua:1: invalid option '%' to 'format' (the format ends after %)"},
		{"a format ending in its precision", "no conversion after the precision", 5000, `return string.format("%5.")`,
			"strings.lua:1: invalid option '%' to 'format' (the format ends after %)"},
		{"a format ending in %", "no conversion after it", 5000, `return string.format("a%")`,
			"strings.lua:1: invalid option '%' to 'format' (the format ends after %)"},
		{"%s of a string", "2 + 512 + 600 bytes", 1000, `return string.format("%s", string.rep("a", 600))`,
			"strings.lua:1: string too long: string.format could build up to 1114 bytes"},
		{"%d of a string", "a string as %d counts its length: 2 + 512 + 600 bytes", 1000, `return string.format("%d", string.rep("1", 600))`,
			"strings.lua:1: string too long: string.format could build up to 1114 bytes"},
		{"%q of a string", "2 + 512 + 5 x 100 + 2 bytes", 1000, `return string.format("%q", string.rep("a", 100))`,
			"strings.lua:1: string too long: string.format could build up to 1016 bytes"},
		{"%x of a string", "2 + 512 + 5 x 100 + 2 bytes", 1000, `return string.format("%x", string.rep("a", 100))`,
			"strings.lua:1: string too long: string.format could build up to 1016 bytes"},
		{"%c", "a conversion of its own", 2000, `return string.format("%c%c", 72, 105)`, "Hi"},
		{"%s of a table", "written as tostring writes it", 2000,
			`return string.format("%s|%d", setmetatable({}, { __tostring = function() return "T" end }), 5)`, "T|5"},
		{"%% is no conversion", "10 bytes of text, one conversion", 600, `return string.format("%%%% %d %%", 5)`, "%% 5 %"},
		{"a 9 in a width", "9 is a digit: 8 + 2 x (9 + 512) bytes", 600, `return string.format("%9d|%09d", 5, 5)`,
			"strings.lua:1: string too long: string.format could build up to 1050 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{MaxStringBytes: tc.limit})
			defer rt.Close()
			assertChunkGives(t, rt, tc.src, tc.want, tc.reason)
		})
	}
}

package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScrubAddressesAtTheEdges: a heap address is dropped wherever it is
// in the message (its mark at the very start, or right after another
// mark), with every hex digit (9 and f included), and only after a whole
// type word: a digit, a letter of either case at either end of its range,
// or _ before the word makes it part of another word.
func TestScrubAddressesAtTheEdges(t *testing.T) {
	for _, c := range []struct{ in, want, reason string }{
		{": 0x1 table: 0x2", ": 0x1 table", "a mark at the start with no type"},
		{": 0x table: 0xab", ": 0x table", "a mark at the start with no digits"},
		{"x: 0x: 0x table: 0x1", "x: 0x: 0x table", "a mark right after another"},
		{"table: 0x9", "table", "9 is a hex digit"},
		{"table: 0xc0009 end", "table end", "9 at the end of an address"},
		{"table: 0xf0", "table", "f is a hex digit"},
		{"table: 0xa", "table", "a is a hex digit"},
		{"table: 0x0", "table", "0 is a hex digit"},
		{" table: 0x1", " table", "a space before the word"},
		{"/table: 0x1", "/table", "the byte before 0 is no word byte"},
		{":table: 0x1", ":table", "the byte after 9 is no word byte"},
		{"@table: 0x1", "@table", "the byte before A is no word byte"},
		{"[table: 0x1", "[table", "the byte after Z is no word byte"},
		{"`table: 0x1", "`table", "the byte before a is no word byte"},
		{"{table: 0x1", "{table", "the byte after z is no word byte"},
		{"0table: 0x1", "0table: 0x1", "0 is a word byte"},
		{"5table: 0x1", "5table: 0x1", "5 is a word byte"},
		{"9table: 0x1", "9table: 0x1", "9 is a word byte"},
		{"Atable: 0x1", "Atable: 0x1", "A is a word byte"},
		{"Mtable: 0x1", "Mtable: 0x1", "M is a word byte"},
		{"Ztable: 0x1", "Ztable: 0x1", "Z is a word byte"},
		{"atable: 0x1", "atable: 0x1", "a is a word byte"},
		{"mtable: 0x1", "mtable: 0x1", "m is a word byte"},
		{"ztable: 0x1", "ztable: 0x1", "z is a word byte"},
		{"_table: 0x1", "_table: 0x1", "_ is a word byte"},
	} {
		assert.Equal(t, c.want, scrubAddresses(c.in), "%q: %s", c.in, c.reason)
	}
}

// TestTostringIDsStartOverAfterTheirBound: tostring names the values it
// has not named before #1, #2, ... up to maxTostringIDs; the next new
// value starts the ids over at #1, so the names a script holds on to
// stay bounded.
func TestTostringIDsStartOverAfterTheirBound(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	fn, err := rt.compile(strings.NewReader(`local keep, names = {}, {}
for i = 1, 4098 do
  keep[i] = {}
  names[i] = tostring(keep[i])
end
return names[1] .. " " .. names[4096] .. " " .. names[4097] .. " " .. names[4098] .. " " .. tostring(keep[1])`), "ids.lua")
	require.NoError(t, err)
	require.Equal(t, 4096, maxTostringIDs)
	out, err := rt.call(nil, modeLoad, fn, 1)
	require.NoError(t, err)
	assert.Equal(t, "table: #1 table: #4096 table: #1 table: #2 table: #3", out[0].String())
}

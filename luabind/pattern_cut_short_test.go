package luabind

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPatternCutShortIsLeftToTheMatcher: a pattern that ends inside an
// item (a %b without its two bytes, a set without its ], a set ending in
// a lone %) is read by the guard as far as it goes, never past its end,
// and string.find then gives what gopher-lua's matcher gives.
func TestAPatternCutShortIsLeftToTheMatcher(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for _, tc := range []struct {
		pat, want, reason string
	}{
		{"%b", "nil", "a %b at the pattern's end"},
		{"a%b", "nil", "a %b at the end after an item"},
		{"%b(", "nil", "a %b with one byte of its two"},
		{"[", "strings.lua:1: unexpected EOS at 0", "a set that is only its ["},
		{"a[", "strings.lua:1: unexpected EOS at 1", "a [ at the pattern's end"},
		{"[%", "strings.lua:1: unexpected EOS at EOS", "a set ending in a lone %"},
		{"a[^%", "strings.lua:1: unexpected EOS at EOS", "a negated set ending in a lone %"},
	} {
		got, err := evalChunk(t, rt, "return string.find(\"a(b)\", "+strconv.Quote(tc.pat)+")")
		if strings.HasPrefix(tc.want, "strings.lua:") {
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
			continue
		}
		require.NoError(t, err, tc.reason)
		assert.Equal(t, []string{tc.want}, got, tc.reason)
	}
}

// TestACaptureReferenceTakesNoQuantifier: in a pattern, %1 to %9 stand for
// the text of a capture, and a *, +, - or ? after one is a byte to match,
// as gopher-lua's matcher reads them; the guard reads them so too, so a
// pattern of many references is not estimated as nested repetitions and
// refused. %0 is no capture: the matcher refuses it.
func TestACaptureReferenceTakesNoQuantifier(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for d := '1'; d <= '9'; d++ {
		pat := strings.Repeat("(a)", 9) + strings.Repeat("%"+string(d)+"*", 4)
		got, err := evalChunk(t, rt, "return string.find(string.rep('a', 300), "+strconv.Quote(pat)+")")
		require.NoError(t, err, pat)
		assert.Equal(t, []string{"nil"}, got, "%s: no * in the subject", pat)
		items, _ := scanPattern("%" + string(d) + "*")
		require.Len(t, items, 2, "%%%c*: the reference, then a literal *", d)
		assert.Equal(t, allBytes(), items[0].set, "%%%c may match any byte", d)
		assert.Zero(t, items[0].quant, "%%%c takes no quantifier", d)
		assert.Zero(t, items[1].quant)
	}
	got, err := evalChunk(t, rt, "return string.find(string.rep('a', 300), "+strconv.Quote(strings.Repeat("%0*", 4))+")")
	require.Error(t, err, "%%0 is no capture")
	assert.Contains(t, err.Error(), "strings.lua:1: invalid capture index", "%v", got)
	for _, c := range []byte{'/', ':'} {
		items, _ := scanPattern("%" + string(c) + "*")
		require.Len(t, items, 1, "%%%c* is the byte %c repeated", c, c)
		assert.Equal(t, byte('*'), items[0].quant)
	}
}

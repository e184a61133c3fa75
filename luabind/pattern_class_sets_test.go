package luabind

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/pm"
)

// TestClassSetsHoldWhatTheMatcherMatches: the byte set the pattern guard
// gives each class %c (its estimate of how far a repetition may run) is
// what gopher-lua's matcher matches with %c below 0x80; from 0x80 up the
// letter classes (and %s, %p, %c) hold every byte and their upper-case
// complements none, an over-estimate that only makes the guard stricter;
// %d and %x hold no byte from 0x80 up but what the matcher takes; %z is
// the zero byte, and %g (a class of later Luas) the letter g, as the
// matcher takes them.
func TestClassSetsHoldWhatTheMatcherMatches(t *testing.T) {
	for _, c := range []byte("adlspuwxczgADLSPUWXCZG.%") {
		set := classSet(c)
		for b := 0; b < 256; b++ {
			mds, err := pm.Find("^%"+string(c)+"$", []byte{byte(b)}, 0, 1)
			if err != nil {
				t.Fatalf("%%%c: %v", c, err)
			}
			want := len(mds) == 1
			if lower := c | 0x20; b >= 0x80 && strings.IndexByte("alsuwpc", lower) >= 0 {
				want = c == lower
			}
			assert.Equal(t, want, set[b>>6]&(1<<(b&63)) != 0, "%%%c and byte %#x", c, b)
		}
	}
}

// TestSetsHoldWhatTheMatcherMatches: the byte set the pattern guard reads
// from a [...] set (ranges with both ends, classes, a negation, a ] or a
// - taken literally, an empty range) is what gopher-lua's matcher matches
// with it, byte by byte.
func TestSetsHoldWhatTheMatcherMatches(t *testing.T) {
	for _, p := range []string{"[a-c]", "[^a-c]", "[%d.]", "[%a_]", "[]a]", "[^]a]", "[a-]", "[z-a]", "[a%-z]", "[0-9a-fA-F]", "[%]]", "[a-a]"} {
		set, end := scanSet(p, 0)
		assert.Equal(t, len(p), end, "%s ends where the set does", p)
		for b := 0; b < 0x80; b++ {
			mds, err := pm.Find("^"+p+"$", []byte{byte(b)}, 0, 1)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			assert.Equal(t, len(mds) == 1, set[b>>6]&(1<<(b&63)) != 0, "%s and byte %#x", p, b)
		}
	}
}

// TestAMalformedPatternIsLeftToTheMatcher: the guard reads what it can of
// a malformed pattern and leaves the error to gopher-lua's matcher (whose
// message for a set without its ] is "unexpected EOS at" the set's end).
func TestAMalformedPatternIsLeftToTheMatcher(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for pat, want := range map[string]string{
		"[a-": "unexpected EOS at 2",
		"[a":  "unexpected EOS at 1",
	} {
		_, err := evalChunk(t, rt, "return string.find(\"abc\", "+strconv.Quote(pat)+")")
		require.Error(t, err, pat)
		assert.Contains(t, err.Error(), "strings.lua:1: "+want, pat)
	}
	got, err := evalChunk(t, rt, `return string.find("abc", "a%")`)
	require.NoError(t, err, "a lone % at the end matches nothing in gopher-lua")
	assert.Equal(t, []string{"nil"}, got)
}

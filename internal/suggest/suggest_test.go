package suggest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullEditDistance is the textbook edit distance, the reference for
// editDistanceWithin.
func fullEditDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// TestEditDistanceWithinMatchesTheFullTable: the banded distance equals
// the full one when it is at most k, and says k+1 otherwise.
func TestEditDistanceWithinMatchesTheFullTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() []rune {
		r := make([]rune, rng.IntN(9))
		for i := range r {
			r[i] = rune('a' + rng.IntN(3))
		}
		return r
	}
	for range 20000 {
		a, b := word(), word()
		k := rng.IntN(4)
		want := min(fullEditDistance(a, b), k+1)
		require.Equal(t, want, editDistanceWithin(a, b, k), "%q %q k=%d", string(a), string(b), k)
	}
}

// TestDidYouMeanOnAHugeName: a script can ask for a name of any length;
// the suggestion costs a pass over it, not its length squared (three
// lookups of a 256 KiB name took 7.3 s), and still finds near names.
func TestDidYouMeanOnAHugeName(t *testing.T) {
	const n = 1 << 18
	names := []string{"ammo", "health", strings.Repeat("x", n)}
	huge := strings.Repeat("x", n-1) + "y"
	// fastest returns the fastest of five runs of f.
	fastest := func(f func()) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			f()
			best = min(best, time.Since(start))
		}
		return best
	}
	lookups := fastest(func() {
		assert.Equal(t, ` (did you mean "`+names[2]+`"?)`, DidYouMean(huge, names), "one edit away")
		assert.Empty(t, DidYouMean(huge+"zzz", names[:2]), "nothing near")
	})
	// One pass over the name's runes, measured in the same run: linear
	// lookups cost a fixed multiple of it (a few dozen), quadratic ones
	// a multiple that grows with the name (tens of thousands here), on
	// any machine.
	sum := 0
	pass := fastest(func() {
		rs := []rune(huge) // as the lookups convert it
		for i := range rs {
			sum += int(rs[i])
		}
	})
	require.Positive(t, sum)
	t.Logf("lookups %v, one pass %v", lookups, pass)
	assert.Less(t, float64(lookups)/float64(max(pass, time.Microsecond)), 1000.0,
		"linear, not quadratic: lookups %v, one pass %v", lookups, pass)
	assert.Equal(t, ` (did you mean "Ammo"?)`, DidYouMean("amo", []string{"Ammo", "health"}), "case is ignored")
	assert.Empty(t, DidYouMean("amxyz", []string{"Ammo"}), "three edits are too many")
}

package plantest

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestReachesAgreesWithBruteForce: on small random domains, a plan of at
// most depth steps exists for Reaches exactly when BruteForce finds one.
func TestReachesAgreesWithBruteForce(t *testing.T) {
	found, missed := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		pr, err := Lower(Prop(t))
		require.NoError(t, err)
		depth := rapid.IntRange(0, 4).Draw(t, "depth")
		var skip []bool
		if rapid.Bool().Draw(t, "skip") {
			skip = make([]bool, len(pr.Actions))
			skip[rapid.IntRange(0, len(pr.Actions)-1).Draw(t, "left out")] = true
		}
		for _, g := range pr.Goals {
			_, _, want := BruteForce(pr, g, pr.Initial, depth, skip)
			require.Equal(t, want, Reaches(pr, g, pr.Initial, depth, skip), "goal %s, depth %d, skip %v", g.Name, depth, skip)
			if want {
				found++
			} else {
				missed++
			}
		}
	})
	require.Positive(t, found, "some goals have a plan")
	require.Positive(t, missed, "some have none within the depth")
}

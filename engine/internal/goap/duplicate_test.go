package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestACheaperButDeeperDuplicateKeepsTheShallowerPath: p = 3 is reached
// first by three cheap steps (A A A, cost 3, depth 3), then by a jump and
// a step (D A, cost 5, depth 2). From p = 3 the goal needs two more steps,
// so within a depth of 4 only the shallower, costlier path fits: the
// search must keep both nodes of the same state, or it fails with
// MaxDepthExceeded. Both searches (general and word) follow the rule.
func TestACheaperButDeeperDuplicateKeepsTheShallowerPath(t *testing.T) {
	pr := lower(t, []tVar{{"p", num(0)}}, "p >= 5",
		tAct{name: "A", pre: "p < 3", eff: "p = p + 1"},
		tAct{name: "D", pre: "p == 0", eff: "p = 2", cost: 4},
		tAct{name: "E", pre: "p >= 3", eff: "p = p + 1"})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 4)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"D", "A", "E", "E"}, names, "general only: %v", general)
		assert.Equal(t, 7.0, cost, "general only: %v", general)

		// With room for the cheap path, it wins.
		names, cost, res, _ = planOf(p, pr.Initial, 5)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"A", "A", "A", "E", "E"}, names, "general only: %v", general)
		assert.Equal(t, 5.0, cost, "general only: %v", general)
	}
}

package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryStateIsExpandedOnceAcrossTheDuplicateTablesGrowth: a walk on
// a 30 by 30 grid toward a goal no step reaches expands each of the 900
// states exactly once, in both loops, although the duplicate table grows
// (from 1,024 slots) several times on the way: every state recorded
// before a growth is still found after it.
func TestEveryStateIsExpandedOnceAcrossTheDuplicateTablesGrowth(t *testing.T) {
	pr := lower(t, []tVar{{"x", num(0)}, {"y", num(0)}}, "x == 100",
		tAct{name: "right", pre: "x < 29 && y >= 0", eff: "x = x + 1"},
		tAct{name: "left", pre: "x > 0 && y >= 0", eff: "x = x - 1"},
		tAct{name: "up", pre: "y < 29", eff: "y = y + 1"},
		tAct{name: "down", pre: "y > 0", eff: "y = y - 1"})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		_, _, res, expansions := planOf(p, pr.Initial, 100)
		require.Equal(t, Exhausted, res, "general loop %v", general)
		assert.Equal(t, !general, p.wmode)
		assert.Equal(t, 900, expansions, "general loop %v", general)
		assert.Greater(t, len(p.table), 2048, "general loop %v", general)
	}
}

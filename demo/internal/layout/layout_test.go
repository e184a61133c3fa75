package layout_test

import (
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/internal/layout"
)

func soldierAt(x, y int) layout.Label {
	return layout.Label{X: x, Y: y, W: 60, H: 14, Avoid: image.Rect(x-9, y-18, x+9, y+10)}
}

func TestPlacedLabelsNeverOverlap(t *testing.T) {
	bounds := image.Rect(0, 0, 864, 720)
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var ls []layout.Label
		for range 16 { // two squads of 8, bunched in a corner to force clashes
			ls = append(ls, soldierAt(30+r.IntN(200), 30+r.IntN(150)))
		}
		got := layout.Place(ls, bounds)
		require.Len(t, got, len(ls))
		for i, a := range got {
			if a.Faint {
				continue
			}
			assert.True(t, a.Rect.In(bounds), "round %d: label %d inside the field", round, i)
			for j, b := range got {
				if j != i && !b.Faint {
					assert.False(t, a.Rect.Overlaps(b.Rect), "round %d: labels %d and %d overlap", round, i, j)
				}
				if j != i {
					assert.False(t, a.Rect.Overlaps(ls[j].Avoid), "round %d: label %d covers soldier %d", round, i, j)
				}
			}
		}
	}
}

func TestPlaceTakesAboveWhenFree(t *testing.T) {
	got := layout.Place([]layout.Label{soldierAt(100, 100), soldierAt(100, 106)}, image.Rect(0, 0, 864, 720))
	assert.Equal(t, image.Rect(70, 67, 130, 81), got[0].Rect, "above the first soldier")
	assert.False(t, got[0].Faint)
	assert.NotEqual(t, got[0].Rect, got[1].Rect, "the second goes elsewhere")
}

func TestWrapNeverCutsAWord(t *testing.T) {
	text := `last replan at 9.6s: precondition "enemy_visible && enemy_health > 0" of retreat no longer holds`
	for n := 14; n <= 60; n++ { // the longest word has 14 characters
		lines := layout.Wrap(text, n)
		assert.Equal(t, strings.Fields(text), strings.Fields(strings.Join(lines, " ")), "width %d: every word, whole, in order", n)
		for _, l := range lines {
			assert.LessOrEqual(t, len(l), n, "width %d: %q fits", n, l)
		}
	}
	assert.Equal(t, []string{"abcde", "fgh x"}, layout.Wrap("abcdefgh x", 5), "only a word longer than the line is split")
}

package layout

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// TestTextMetricsAreGoMonos: CharW and TextH are the font's own advance
// and line height, so labels and panel lines are as wide as their text.
func TestTextMetricsAreGoMonos(t *testing.T) {
	f, err := sfnt.Parse(gomono.TTF)
	require.NoError(t, err)
	var buf sfnt.Buffer
	ppem := fixed.I(FontSize)
	for _, r := range "0Wi.:,;b3 atk" {
		g, err := f.GlyphIndex(&buf, r)
		require.NoError(t, err)
		adv, err := f.GlyphAdvance(&buf, g, ppem, font.HintingNone)
		require.NoError(t, err)
		assert.InDelta(t, CharW, float64(adv)/64, 1.0/64, "the advance of %q", r)
	}
	m, err := f.Metrics(&buf, ppem, font.HintingNone)
	require.NoError(t, err)
	h := float64(m.Ascent+m.Descent) / 64
	assert.Greater(t, h, TextH-2.0, "TextH is not far above a line")
	assert.LessOrEqual(t, h, float64(TextH), "a line of text fits in TextH")
	assert.InDelta(t, 64.8, TextWidth("b3 atk 24"), 0.02, "9 characters of 7.2 pixels")
}

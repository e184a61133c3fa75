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

// TestScreenScale: the screen has as many pixels as the window shows it
// with, in steps of 1/8, and never fewer than the logical ones.
func TestScreenScale(t *testing.T) {
	cases := []struct {
		name      string
		w, h, dsf float64
		want      float64
		reason    string
	}{
		{"desktop window", 1280, 720, 1, 1, "the window's own size on an ordinary screen"},
		{"high-density screen", 1280, 720, 2, 2, "two device pixels per pixel"},
		{"larger page", 1920, 1200, 1, 1.5, "1920/1280 = 1.5 is the narrower fit (1200/720 = 1.67)"},
		{"larger page, high density", 1920, 1080, 2, 3, "1.5 times 2"},
		{"odd size", 1400, 900, 1, 1.125, "1400/1280 = 1.09, rounded to 1/8"},
		{"smaller window", 640, 360, 1, 1, "never below 1: ebiten scales the screen down"},
		{"no size yet", 0, 0, 2, 2, "a zero window counts as fitting"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ScreenScale(c.w, c.h, 1280, 720, c.dsf), c.reason)
		})
	}
}

package main

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/internal/layout"
)

// paint draws a screen as the demo lays it out on sc: the margin, the
// field in a tile's grey, the panel's ground with its rule at the left.
func paint(sc layout.Screen) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, sc.W, sc.H))
	fill := func(r image.Rectangle, c color.RGBA) { draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src) }
	fill(img.Bounds(), margin)
	fill(sc.Field, color.RGBA{0x7c, 0x7a, 0x74, 0xff})
	fill(sc.Panel, panelBack)
	fill(image.Rect(sc.Panel.Min.X, 0, sc.Panel.Min.X+int(2*sc.TextScale), sc.H), panelRule)
	return img
}

func TestPixelProblems(t *testing.T) {
	wide, tall := layout.Fit(2800, 1280, 2), layout.Fit(1600, 1800, 2)
	require.Positive(t, tall.Field.Min.Y, "the tall page has margins above and below the field")

	assert.Empty(t, pixelProblems(paint(wide), wide), "a wide page laid out as Fit says")
	assert.Empty(t, pixelProblems(paint(tall), tall), "a tall page laid out as Fit says")

	// A letterboxed screen: the 16:9 layout scaled to the page's height,
	// centred, black at the sides.
	boxed := image.NewRGBA(image.Rect(0, 0, 2800, 1280))
	old := paint(layout.Fit(2276, 1280, 2))
	draw.Draw(boxed, old.Bounds().Add(image.Pt(262, 0)), old, image.Point{}, draw.Src)
	got := pixelProblems(boxed, wide)
	require.NotEmpty(t, got, "a letterboxed page fails")
	assert.Contains(t, got[0], "the panel's ground at the right edge: pixel (2798, 2) is {0 0 0 0}")

	// A field drawn at the top of a tall page instead of centred.
	top := paint(tall)
	draw.Draw(top, tall.Field.Sub(tall.Field.Min), image.NewUniform(color.RGBA{0x7c, 0x7a, 0x74, 0xff}), image.Point{}, draw.Src)
	draw.Draw(top, image.Rect(0, tall.Field.Dy(), tall.Field.Max.X, tall.H), image.NewUniform(margin), image.Point{}, draw.Src)
	got = pixelProblems(top, tall)
	require.NotEmpty(t, got, "a field off its place fails")
	assert.Equal(t, []string{
		"the field's bottom right: pixel (1077, 1347) is {16 20 16 255}, the panel's or the margin's colour, not the field's",
		"the margin above the field: pixel (2, 447) is {124 122 116 255}, want {16 20 16 255}",
	}, got)

	assert.Equal(t, []string{"the screenshot is (1280,720), want 2800x1280"}, pixelProblems(image.NewRGBA(image.Rect(0, 0, 1280, 720)), wide))
}

func TestSizeProblems(t *testing.T) {
	assert.Empty(t, sizeProblems(canvasSize{CSSW: 1400, CSSH: 640, InnerW: 1400, InnerH: 640, W: 2800, H: 1280, DPR: 2}))
	assert.Equal(t, []string{"the canvas has 1400x640 pixels for 1400x640 CSS pixels at 2 device pixels each: want 2800x1280"},
		sizeProblems(canvasSize{CSSW: 1400, CSSH: 640, InnerW: 1400, InnerH: 640, W: 1400, H: 640, DPR: 2}), "a blurry canvas: one pixel per CSS pixel")
	assert.Equal(t, []string{"the canvas is 1138x640 CSS pixels in a window of 1400x640: it does not cover the page"},
		sizeProblems(canvasSize{CSSW: 1138, CSSH: 640, InnerW: 1400, InnerH: 640, W: 2276, H: 1280, DPR: 2}))
}

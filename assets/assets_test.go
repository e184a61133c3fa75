package assets_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/assets"
	"github.com/moonmind-ai/moonmind/assets/sprites"
)

func TestSpritesPNGIsWhatTheCodeDraws(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(assets.SpritesPNG))
	require.NoError(t, err, "sprites.png is a PNG")
	want := sprites.Sheet()
	require.Equal(t, want.Bounds(), img.Bounds(), "one row of sprites.Count cells")
	got := image.NewNRGBA(img.Bounds())
	draw.Draw(got, got.Bounds(), img, image.Point{}, draw.Src)
	assert.True(t, bytes.Equal(want.Pix, got.Pix), "sprites.png is stale: run go generate ./assets")
}

func TestFieldIsARectangleOfKnownTiles(t *testing.T) {
	rows := strings.Split(strings.TrimRight(assets.Field, "\n"), "\n")
	require.Len(t, rows, 30)
	for i, r := range rows {
		assert.Len(t, r, 36, "row %d", i+1)
		for _, ch := range r {
			assert.Contains(t, "#=.aBRbr12", string(ch), "row %d", i+1)
		}
	}
	assert.Equal(t, 8, strings.Count(assets.Field, "b"), "eight blue spawn points")
	assert.Equal(t, 8, strings.Count(assets.Field, "r"), "eight red spawn points")
}

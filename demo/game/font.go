package game

import (
	"bytes"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomono"

	"github.com/moonmind-ai/moonmind/demo/internal/layout"
)

// The demo's text is Go Mono, the monospaced face of the Go fonts
// (golang.org/x/image/font/gofont, under the Go licence), drawn
// anti-aliased by ebiten's text package. Monospaced, so the panel's
// columns of names and scores line up. Its metrics, in logical pixels,
// are package layout's, tested without a display.
const (
	fontSize = layout.FontSize
	textH    = layout.TextH
)

// newFontSource parses Go Mono once.
func newFontSource() *text.GoTextFaceSource {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(gomono.TTF))
	if err != nil {
		panic("game: the built-in Go Mono font does not parse: " + err.Error()) // the font is compiled in
	}
	return src
}

// textWidth is the width of s in logical pixels.
func textWidth(s string) float64 { return layout.TextWidth(s) }

// textImageAt returns s drawn in white at size logical pixels (times the
// view's scale), from the cache: an image textWidth wide (scaled) and
// textH high (scaled by size/fontSize).
func (g *gfx) textImageAt(s string, size float64) *ebiten.Image {
	key := textKey{s, size, g.scale}
	g.used[key] = true
	if img, ok := g.text[key]; ok {
		return img
	}
	k := size / fontSize * g.scale
	w := int(math.Ceil(textWidth(s)*k)) + 1
	h := int(math.Ceil(textH * k))
	img := ebiten.NewImage(max(w, 1), max(h, 1))
	face := &text.GoTextFace{Source: g.font, Size: size * g.scale}
	text.Draw(img, s, face, &text.DrawOptions{})
	g.text[key] = img
	return img
}

// textKey names a cached text image: its text, its size in logical
// pixels and the device pixels per logical pixel it was drawn at.
type textKey struct {
	s     string
	size  float64
	scale float64
}

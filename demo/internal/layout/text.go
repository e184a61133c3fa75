package layout

// The metrics of the demo's text, in logical pixels: Go Mono (the
// monospaced face of the Go fonts, golang.org/x/image/font/gofont/gomono)
// at FontSize. Every glyph of Go Mono advances 1229 of its 2048 font
// units, 0.6 em, so a text of n characters is n*CharW wide.
const (
	FontSize = 12
	CharW    = FontSize * 1229.0 / 2048
	// TextH is the height of a line of text: the face's ascent plus
	// descent (13.9 pixels at FontSize), rounded up with a pixel to spare.
	TextH = 15
)

// TextWidth is the width of s in logical pixels, at FontSize.
func TextWidth(s string) float64 { return float64(len(s)) * CharW }

package layout

import "math"

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

// ScreenScale is how many screen pixels a logical pixel gets in a window
// of w x h device-independent pixels showing a screen of width x height
// logical pixels, on a display with dsf device pixels per
// device-independent pixel: the smaller of w/width and h/height (the
// screen fits the window), times dsf, in steps of 1/8 (so that resizing
// a window draws the text anew only now and then), and never below 1 (a
// smaller window shows the screen scaled down). A window of no size yet
// counts as fitting.
func ScreenScale(w, h, width, height, dsf float64) float64 {
	fit := math.Min(w/width, h/height)
	if fit <= 0 || math.IsNaN(fit) || math.IsInf(fit, 0) {
		fit = 1
	}
	return math.Max(1, math.Round(fit*dsf*8)/8)
}

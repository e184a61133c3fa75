package layout

import (
	"image"
	"math"
)

// The demo's screen at its default size, in logical pixels: the field
// (36 x 30 tiles of 24 pixels) on the left, the side panel on the right.
const (
	FieldW = 864
	FieldH = 720
	PanelW = 416
	Width  = FieldW + PanelW
	Height = FieldH
)

// Screen says where the demo's parts go on a screen of W x H device
// pixels. The field keeps its aspect: it is as large as fits beside a
// panel of at least its default share of the width, and centred
// vertically in its column when the screen is taller than the field; the
// panel takes the rest of the width and the full height. Field and Panel
// are in device pixels and together cover the screen but for the bands
// above and below the field.
type Screen struct {
	W, H int
	// Field is where the field is drawn, FieldScale device pixels per
	// field pixel (Field is FieldW x FieldH times it, rounded).
	Field      image.Rectangle
	FieldScale float64
	// Panel is where the side panel is drawn; its text and lines are
	// TextScale device pixels per logical pixel, so the panel is
	// Panel.Dx()/TextScale x H/TextScale logical pixels (PanelSize).
	Panel     image.Rectangle
	TextScale float64
}

// Fit lays the demo out on a screen of w x h device pixels on a display
// with dsf device pixels per device-independent pixel (2 on a typical
// high-density screen).
//
// The text scale is the screen's fit to the default size (the smaller of
// w/Width and h/Height) in steps of 1/8, so that resizing draws the text
// anew only now and then, and never below dsf: the panel's text is never
// smaller than FontSize device-independent pixels. The panel is PanelW
// times that wide, but at most its default share (PanelW/Width) of w; the
// field gets the rest of the width and at most the full height. A screen
// with no size yet counts as the default size at dsf.
//
// At the default size (Width x Height times dsf) the field and the panel
// are where they are at scale dsf: the field FieldW x FieldH times dsf at
// the top left, the panel beside it.
func Fit(w, h int, dsf float64) Screen {
	if dsf <= 0 || math.IsNaN(dsf) || math.IsInf(dsf, 0) {
		dsf = 1
	}
	if w <= 0 || h <= 0 {
		w, h = int(math.Ceil(Width*dsf)), int(math.Ceil(Height*dsf))
	}
	fw, fh := float64(w), float64(h)
	fit := math.Min(fw/Width, fh/Height)
	t := math.Max(math.Max(dsf, 1), math.Round(fit*8)/8)
	minPanel := math.Min(PanelW*t, fw*PanelW/Width)
	// The field's width in whole device pixels, and its scale from it,
	// so that the field ends exactly where the panel starts.
	fieldW := math.Floor(math.Min(fh/FieldH*FieldW, fw-minPanel) + 1e-9)
	f := fieldW / FieldW
	fieldH := math.Min(math.Round(FieldH*f), float64(h))
	top := (h - int(fieldH)) / 2
	return Screen{
		W: w, H: h,
		Field:      image.Rect(0, top, int(fieldW), top+int(fieldH)),
		FieldScale: f,
		Panel:      image.Rect(int(fieldW), 0, w, h),
		TextScale:  t,
	}
}

// PanelSize is the panel's size in logical pixels: its device size over
// TextScale.
func (s Screen) PanelSize() (w, h float64) {
	return float64(s.Panel.Dx()) / s.TextScale, float64(s.H) / s.TextScale
}

// PanelChars is how many characters fit on a panel line of width w
// logical pixels with pad on each side, in whole characters.
func PanelChars(w, pad float64) int {
	return max(int((w-2*pad)/CharW), 1)
}

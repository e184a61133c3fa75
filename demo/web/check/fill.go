package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/moonmind-ai/moonmind/demo/internal/layout"
)

// pageSizes are the page sizes, in CSS pixels, the fill check sets after
// the battle check: one wider and one taller than the demo's 16:9.
var pageSizes = []struct {
	name string
	w, h int
}{
	{"wide", 1400, 640},
	{"tall", 800, 900},
}

// The demo's colours the fill check looks for (package game's panelBack,
// rule and margin).
var (
	panelBack = color.RGBA{0x14, 0x18, 0x14, 0xff}
	panelRule = color.RGBA{0x50, 0x58, 0x50, 0xff}
	margin    = color.RGBA{0x10, 0x14, 0x10, 0xff}
)

// canvasSize is what the page says of its canvas: its size on the page
// (CSS pixels), the window's inner size, the canvas's backing store (its
// pixels) and the device pixels per CSS pixel.
type canvasSize struct {
	CSSW   float64 `json:"cssW"`
	CSSH   float64 `json:"cssH"`
	InnerW float64 `json:"innerW"`
	InnerH float64 `json:"innerH"`
	W      int     `json:"w"`
	H      int     `json:"h"`
	DPR    float64 `json:"dpr"`
}

const canvasSizeJS = `(() => {
  const c = document.querySelector("canvas");
  const r = c.getBoundingClientRect();
  return {cssW: r.width, cssH: r.height, innerW: innerWidth, innerH: innerHeight, w: c.width, h: c.height, dpr: devicePixelRatio};
})()`

// sizeProblems says how the canvas fails to cover the window with one
// pixel per device pixel; nil when it does.
func sizeProblems(c canvasSize) []string {
	var p []string
	if c.CSSW != c.InnerW || c.CSSH != c.InnerH {
		p = append(p, fmt.Sprintf("the canvas is %gx%g CSS pixels in a window of %gx%g: it does not cover the page", c.CSSW, c.CSSH, c.InnerW, c.InnerH))
	}
	if float64(c.W) != c.CSSW*c.DPR || float64(c.H) != c.CSSH*c.DPR {
		p = append(p, fmt.Sprintf("the canvas has %dx%d pixels for %gx%g CSS pixels at %g device pixels each: want %gx%g", c.W, c.H, c.CSSW, c.CSSH, c.DPR, c.CSSW*c.DPR, c.CSSH*c.DPR))
	}
	return p
}

// pixelProblems says where a screenshot of the page differs from the
// layout the demo uses for it (layout.Fit): the panel's ground at the
// right edge, the panel's rule where the field ends, the field's tiles
// inside its corners, and the margin's colour above and below the field
// where it does not fill the height. nil when all hold.
func pixelProblems(img image.Image, sc layout.Screen) []string {
	var p []string
	if img.Bounds().Size() != image.Pt(sc.W, sc.H) {
		return []string{fmt.Sprintf("the screenshot is %v, want %dx%d", img.Bounds().Size(), sc.W, sc.H)}
	}
	want := func(what string, x, y int, c color.RGBA) {
		if got := rgba(img.At(x, y)); !near(got, c) {
			p = append(p, fmt.Sprintf("%s: pixel (%d, %d) is %v, want %v", what, x, y, got, c))
		}
	}
	notOf := func(what string, x, y int) {
		got := rgba(img.At(x, y))
		for _, c := range []color.RGBA{panelBack, panelRule, margin} {
			if near(got, c) {
				p = append(p, fmt.Sprintf("%s: pixel (%d, %d) is %v, the panel's or the margin's colour, not the field's", what, x, y, got))
			}
		}
	}
	f := sc.Field
	for _, y := range []int{2, sc.H / 2, sc.H - 3} {
		want("the panel's ground at the right edge", sc.W-2, y, panelBack)
		want("the panel's rule where the field ends", f.Max.X+1, y, panelRule)
	}
	notOf("the field's top left", f.Min.X+2, f.Min.Y+2)
	notOf("the field's bottom right", f.Max.X-3, f.Max.Y-3)
	if f.Min.Y >= 4 {
		want("the margin above the field", f.Min.X+2, f.Min.Y-3, margin)
		want("the margin below the field", f.Max.X-3, f.Max.Y+2, margin)
	}
	return p
}

// checkFill sets the page to each of pageSizes at dpr device pixels per
// CSS pixel and checks that the canvas covers it with one pixel per
// device pixel and that the demo lays itself out on all of it. The
// screenshots are saved to out as web-NAME.png when out is set.
func checkFill(ctx context.Context, dpr float64, out string, wait time.Duration) error {
	for _, ps := range pageSizes {
		if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(ps.w), int64(ps.h), chromedp.EmulateScale(dpr))); err != nil {
			return fmt.Errorf("setting the page to %dx%d: %w", ps.w, ps.h, err)
		}
		// The demo takes the new size at its next frame and draws the
		// panel anew a few frames later: the page is asked again every
		// half second until it holds or wait is over.
		deadline := time.Now().Add(wait)
		var c canvasSize
		var problems []string
		var shot []byte
		for {
			time.Sleep(500 * time.Millisecond)
			var err error
			if c, err = chromedp.Run(ctx, chromedp.Evaluate[canvasSize](canvasSizeJS)); err != nil {
				return fmt.Errorf("%s page: reading the canvas's size: %w", ps.name, err)
			}
			problems = sizeProblems(c)
			if problems == nil {
				if shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
					return fmt.Errorf("%s page: screenshot: %w", ps.name, err)
				}
				img, err := png.Decode(bytes.NewReader(shot))
				if err != nil {
					return fmt.Errorf("%s page: screenshot: %w", ps.name, err)
				}
				problems = pixelProblems(img, layout.Fit(c.W, c.H, c.DPR))
			}
			if problems == nil || time.Now().After(deadline) {
				break
			}
		}
		if out != "" && shot != nil {
			if err := os.WriteFile(filepath.Join(out, "web-"+ps.name+".png"), shot, 0o644); err != nil {
				return err
			}
		}
		if problems != nil {
			return fmt.Errorf("%s page (%dx%d at %g device pixels per pixel): %v", ps.name, ps.w, ps.h, dpr, problems)
		}
		sc := layout.Fit(c.W, c.H, c.DPR)
		fmt.Printf("web check: %s page %dx%d: the canvas covers it with %dx%d pixels; the field is %v, the panel %v\n",
			ps.name, ps.w, ps.h, c.W, c.H, sc.Field, sc.Panel)
	}
	return nil
}

func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// near says a and b differ by at most 3 in each channel (a browser's
// colour handling may move a flat colour by a step or two).
func near(a, b color.RGBA) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= 3 && int(y)-int(x) <= 3 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// Command check loads the demo's WebAssembly build in headless Chromium
// and exits 0 only when the page shows a battle that fills it: two
// screenshots taken a second apart differ, and each has many colours;
// then, on a page wider and one taller than 16:9, the canvas covers the
// page with one pixel per device pixel and the demo's panel and field are
// where its layout puts them (the panel's ground at the right edge, its
// rule where the field ends, the field's tiles inside its corners).
//
//	go run ./demo/web/check [-url http://127.0.0.1:8765/] [-chromium /usr/bin/chromium] [-out DIR] [-dpr 2]
//
// It waits (up to -wait) for the canvas to appear, lets the demo run for
// a few seconds, then takes the two screenshots, saving them to -out as
// web1.png and web2.png when -out is set, and the two of the other page
// sizes as web-wide.png (1400x640) and web-tall.png (800x900). The page
// is 1280 x 720 pixels on a display of -dpr device pixels per pixel (a
// high-density screen has 2, the default), so the screenshots are
// 1280*dpr x 720*dpr. Chromium runs with a fresh profile and without a
// GPU (WebGL through SwiftShader).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"
)

// minColours is how many distinct colours a screenshot of a battle has at
// least (a blank or an error page has a handful).
const minColours = 200

func main() {
	url := flag.String("url", "http://127.0.0.1:8765/", "the demo's `page`")
	exe := flag.String("chromium", "chromium", "the Chromium `binary`")
	out := flag.String("out", "", "save the screenshots in this `folder`")
	wait := flag.Duration("wait", 3*time.Minute, "how long to wait at most for the page to start (a loaded machine is slow)")
	dpr := flag.Float64("dpr", 2, "the display's device pixels per CSS pixel (2 for a high-density screen)")
	flag.Parse()
	if err := check(*url, *exe, *out, *wait, *dpr); err != nil {
		fmt.Fprintln(os.Stderr, "web check:", err)
		os.Exit(1)
	}
}

func check(url, exe, out string, wait time.Duration, dpr float64) error {
	profile, err := os.MkdirTemp("", "moonmind-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 720),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, wait+2*time.Minute) // the fill check has 30 s a page size
	defer cancel()

	start := time.Now()
	if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(1280, 720, chromedp.EmulateScale(dpr))); err != nil {
		return fmt.Errorf("setting the page to 1280x720 at %g device pixels per pixel: %w", dpr, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("loading %s: %w", url, err)
	}
	wctx, wcancel := context.WithTimeout(ctx, wait)
	defer wcancel()
	if _, err := chromedp.Run(wctx, chromedp.WaitVisible(chromedp.CSS("canvas"))); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
		return fmt.Errorf("no canvas on the page after %s (page text: %q): %w", wait, body, err)
	}
	fmt.Printf("web check: the canvas is up after %.1f s\n", time.Since(start).Seconds())
	// Let the battle start: the first frames need the scripts loaded and
	// the shaders compiled. On a loaded machine the page can be slower
	// still: the first screenshot is taken again every second until it
	// shows a battle, the second until it differs from the first, both
	// within wait of the start (ctx allows two minutes more, for this and the fill check); the checks
	// below then judge the last ones taken.
	time.Sleep(3 * time.Second)
	deadline := start.Add(wait)
	var shots [2][]byte
	var counts [2]int
	for i := range shots {
		for {
			if i > 0 {
				time.Sleep(time.Second)
			}
			if shots[i], err = chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
				return fmt.Errorf("screenshot %d: %w", i+1, err)
			}
			img, err := png.Decode(bytes.NewReader(shots[i]))
			if err != nil {
				return fmt.Errorf("screenshot %d: %w", i+1, err)
			}
			counts[i] = colours(img)
			ready := counts[i] >= minColours && (i == 0 || !bytes.Equal(shots[0], shots[1]))
			if ready || time.Now().After(deadline) {
				break
			}
			if i == 0 {
				time.Sleep(time.Second)
			}
		}
		if out != "" {
			if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("web%d.png", i+1)), shots[i], 0o644); err != nil {
				return err
			}
		}
	}
	fmt.Printf("web check: %d and %d colours; the two screenshots differ: %v\n", counts[0], counts[1], !bytes.Equal(shots[0], shots[1]))
	for i, n := range counts {
		if n < minColours {
			return fmt.Errorf("screenshot %d has %d colours, want at least %d: no battle on the canvas", i+1, n, minColours)
		}
	}
	if bytes.Equal(shots[0], shots[1]) {
		return fmt.Errorf("every screenshot a second after the first was the same as it: the battle does not move")
	}
	return checkFill(ctx, dpr, out, 30*time.Second)
}

func colours(img image.Image) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
		}
	}
	return len(seen)
}

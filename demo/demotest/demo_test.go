package demotest

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoRunsAndSavesAScreenshot builds the demo, runs it for 120 frames
// in a real window (under xvfb-run when it is installed, else on $DISPLAY)
// and checks the screenshot shows the battle.
func TestDemoRunsAndSavesAScreenshot(t *testing.T) {
	xvfb, _ := exec.LookPath("xvfb-run")
	if xvfb == "" && os.Getenv("DISPLAY") == "" {
		t.Skip("demo: neither DISPLAY nor xvfb-run is available, so no window can open; " +
			"`bash .ci/setup` installs xvfb")
	}
	readSources(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "demo")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/moonmind-ai/moonmind/demo").CombinedOutput()
	require.NoError(t, err, "go build ./demo:\n%s", out)
	scripts, err := filepath.Abs(filepath.Join("..", "..", "scripts"))
	require.NoError(t, err)

	shot := filepath.Join(dir, "last.png")
	args := []string{bin, "-frames", "120", "-screenshot", shot, "-seed", "1", "-scripts", scripts}
	if xvfb != "" {
		args = append([]string{xvfb, "-a", "-s", "-screen 0 1280x720x24"}, args...)
	}
	// A guard against a hung X server, not a speed test: 120 frames take a
	// few seconds even with software rendering.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	out, err = exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	require.NoError(t, err, "%v:\n%s", args, out)

	f, err := os.Open(shot)
	require.NoError(t, err, "the demo writes the screenshot")
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, "the screenshot is a PNG")

	tests := []struct {
		name   string
		check  func(t *testing.T)
		reason string
	}{
		{"size", func(t *testing.T) {
			assert.Equal(t, image.Rect(0, 0, 960, 540), img.Bounds())
		}, "the whole field is captured"},
		{"not one colour", func(t *testing.T) {
			assert.Greater(t, len(colours(img)), 10)
		}, "a blank or failed frame is one colour"},
		{"blue squad", func(t *testing.T) {
			assert.Positive(t, colours(img)[color.RGBA{0x3c, 0x8c, 0xf0, 0xff}], "pixels of the blue soldiers' colour")
		}, "the blue soldiers are drawn"},
		{"red squad", func(t *testing.T) {
			assert.Positive(t, colours(img)[color.RGBA{0xe8, 0x48, 0x40, 0xff}], "pixels of the red soldiers' colour")
		}, "the red soldiers are drawn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Log(tt.reason)
			tt.check(t)
		})
	}
}

// readSources reads every Go and Lua file of the module and go.mod and
// go.sum. The demo is built by a child process, so go test would not know
// that this test depends on them; files the test itself reads are part of
// its cache key, so a change to the demo, the engine or a script runs it
// again instead of reusing a cached pass.
func readSources(t *testing.T) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".lua", ".mod", ".sum":
			_, err = os.ReadFile(path)
		}
		return err
	})
	require.NoError(t, err, "reading the module's sources")
}

// colours counts the pixels of each colour in img.
func colours(img image.Image) map[color.RGBA]int {
	n := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			n[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	return n
}

package demotest

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.png from this run")

// binDir holds the demo binary that the tests share (see buildDemo).
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "demotest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var built struct {
	once sync.Once
	out  []byte
	err  error
}

// buildDemo builds the demo binary into a temporary folder, once for all
// the tests, and returns its path.
func buildDemo(t *testing.T) string {
	t.Helper()
	readSources(t)
	bin := filepath.Join(binDir, "demo")
	built.once.Do(func() {
		built.out, built.err = exec.Command("go", "build", "-o", bin, "github.com/moonmind-ai/moonmind/demo").CombinedOutput()
	})
	require.NoError(t, built.err, "go build ./demo:\n%s", built.out)
	return bin
}

// withoutDisplay is this process's environment without DISPLAY and
// WAYLAND_DISPLAY.
func withoutDisplay() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	return env
}

// onDisplay returns a command that runs args in a window: under xvfb-run
// at 1280x720 when it is installed, else on $DISPLAY. It skips the test
// when there is neither. The command is killed a little before the test
// binary's own deadline (go test -timeout), a guard against a hung X
// server rather than a speed test, so that a failure shows the demo's
// output.
func onDisplay(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	xvfb, _ := exec.LookPath("xvfb-run")
	if xvfb == "" && os.Getenv("DISPLAY") == "" {
		t.Skip("demo: neither DISPLAY nor xvfb-run is available, so no window can open; " +
			"`bash .ci/setup` installs xvfb")
	}
	if xvfb != "" {
		args = append([]string{xvfb, "-a", "-s", "-screen 0 1280x720x24"}, args...)
	}
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-15*time.Second))
		t.Cleanup(cancel)
	}
	return exec.CommandContext(ctx, args[0], args[1:]...)
}

// TestHelpWithoutADisplay runs `demo -h` with no DISPLAY: the flags are
// read before ebiten starts, so it prints the usage and exits 0.
func TestHelpWithoutADisplay(t *testing.T) {
	bin := buildDemo(t)
	cmd := exec.Command(bin, "-h")
	cmd.Env = withoutDisplay()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "demo -h exits 0:\n%s", out)
	assert.Contains(t, string(out), "usage: demo [flags]")
	assert.Contains(t, string(out), "docs/demo.md", "the usage points to the demo's page")
	assert.NotContains(t, string(out), "README")
	for _, f := range []string{"-frames N", "-screenshot FILE.png", "-seed seed", "-scripts folder", "-plan-budget N", "-inspect ADDR", "-inspect-control"} {
		assert.Contains(t, string(out), f)
	}
}

// TestDemoFrameMatchesTheGolden builds the demo, runs it for 120 frames
// with seed 1 and the panel's details shown, in a real window (under
// xvfb-run when it is installed, else on $DISPLAY), and compares the
// screenshot with testdata/golden.png: each frame is one tick, so the
// frame is the same on every run but for rendering noise. go test
// ./demo/demotest -run Golden -update rewrites the golden image.
func TestDemoFrameMatchesTheGolden(t *testing.T) {
	bin := buildDemo(t)
	scripts, err := filepath.Abs(filepath.Join("..", "..", "scripts"))
	require.NoError(t, err)

	shot := filepath.Join(t.TempDir(), "last.png")
	cmd := onDisplay(t, bin, "-frames", "120", "-screenshot", shot, "-seed", "1", "-overlay", "-scripts", scripts)
	args := cmd.Args
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%v:\n%s", args, out)
	assert.Regexp(t, `(?m)^frames 120 in [0-9.]+ s, [0-9.]+ fps$`, string(out), "the frame-rate line")

	img := readPNG(t, shot)
	golden := filepath.Join("testdata", "golden.png")
	if *update {
		data, err := os.ReadFile(shot)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(golden, data, 0o644))
	}
	want := readPNG(t, golden)

	tests := []struct {
		name   string
		check  func(t *testing.T)
		reason string
	}{
		{"size", func(t *testing.T) {
			assert.Equal(t, image.Rect(0, 0, 1280, 720), img.Bounds())
		}, "the field and the side panel are captured"},
		{"many colours", func(t *testing.T) {
			assert.Greater(t, len(colours(img)), 50) // seed 1 at frame 120 has 90: tiles, soldiers, text, tracers
		}, "a blank or failed frame has a handful"},
		{"blue squad", func(t *testing.T) {
			assert.Positive(t, colours(img)[color.RGBA{0x3c, 0x8c, 0xf0, 0xff}], "pixels of the blue soldiers' colour")
		}, "the blue soldiers are drawn"},
		{"red squad", func(t *testing.T) {
			assert.Positive(t, colours(img)[color.RGBA{0xe8, 0x48, 0x40, 0xff}], "pixels of the red soldiers' colour")
		}, "the red soldiers are drawn"},
		{"anti-aliased text", func(t *testing.T) {
			help := img.(interface {
				SubImage(image.Rectangle) image.Image
			}).SubImage(image.Rect(872, 680, 1272, 712)) // the panel's help line: grey text on a flat ground
			assert.Greater(t, len(colours(help)), 30, "shades between the text's colour and the ground")
		}, "a bitmap font draws the help line in 3 colours (ground, text, rule); Go Mono's anti-aliased edges in hundreds"},
		{"golden", func(t *testing.T) {
			require.Equal(t, want.Bounds(), img.Bounds())
			off := differing(want, img, 48)
			total := img.Bounds().Dx() * img.Bounds().Dy()
			t.Logf("%d of %d pixels differ from the golden image", off, total)
			assert.Less(t, float64(off)/float64(total), 0.01, "at most 1%% of the pixels differ (by more than 48 in a channel)")
		}, "seed 1 at frame 120 looks the same as when the golden image was made"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Log(tt.reason)
			tt.check(t)
		})
	}
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, "%s is a PNG", path)
	return img
}

// differing counts the pixels where a and b differ by more than tol in
// a colour channel (0-255).
func differing(a, b image.Image, tol int) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			for _, d := range []int{int(r1>>8) - int(r2>>8), int(g1>>8) - int(g2>>8), int(b1>>8) - int(b2>>8)} {
				if d > tol || d < -tol {
					n++
					break
				}
			}
		}
	}
	return n
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

package demotest

import (
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/internal/flags"
)

// exitCode is the exit status of a command that ran, 0 when err is nil.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the command ran")
	return exit.ExitCode()
}

// TestDemoRunsFromAnyFolder runs the binary, built in one temporary
// folder, from another for a few frames: it carries its scripts, map and
// sprites, and removes the copy of the scripts it reads from when it ends.
func TestDemoRunsFromAnyFolder(t *testing.T) {
	bin := buildDemo(t)
	work, tmp := t.TempDir(), t.TempDir()
	cmd := onDisplay(t, bin, "-frames", "10", "-screenshot", "shot.png", "-seed", "1")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%v in %s:\n%s", cmd.Args, work, out)
	assert.Regexp(t, `(?m)^frames 10 in [0-9.]+ s, [0-9.]+ fps$`, string(out), "the frame-rate line")

	img := readPNG(t, filepath.Join(work, "shot.png"))
	assert.Equal(t, image.Rect(0, 0, 1280, 720), img.Bounds())
	assert.Positive(t, colours(img)[color.RGBA{0x3c, 0x8c, 0xf0, 0xff}], "the blue soldiers are drawn")
	assert.Positive(t, colours(img)[color.RGBA{0xe8, 0x48, 0x40, 0xff}], "the red soldiers are drawn")

	left, err := filepath.Glob(filepath.Join(tmp, "moonmind-demo-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "the copy of the built-in scripts is removed at exit")
}

// TestWrongScriptsFolderNamesTheFile runs the demo with a -scripts folder
// that does not hold the soldiers' role: it exits 2 with one line that
// names the file it looked for.
func TestWrongScriptsFolderNamesTheFile(t *testing.T) {
	bin := buildDemo(t)
	work := t.TempDir()
	empty := t.TempDir()
	missing := filepath.Join(work, "nowhere")
	tests := []struct {
		name, dir, want, reason string
	}{
		{"missing folder", missing,
			"demo: -scripts " + missing + ": open " + filepath.Join(missing, "squad.lua") + ": no such file or directory\n",
			"a folder that does not exist"},
		{"folder without the role", empty,
			"demo: -scripts " + empty + ": open " + filepath.Join(empty, "squad.lua") + ": no such file or directory\n",
			"a folder that exists but holds no squad.lua"},
		{"relative folder", "scripts",
			"demo: -scripts scripts: open scripts/squad.lua: no such file or directory\n",
			"a relative folder is read from the working directory, and the path is named once (not scripts/scripts)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Log(tt.reason)
			cmd := onDisplay(t, bin, "-frames", "10", "-scripts", tt.dir)
			cmd.Dir = work
			out, err := cmd.CombinedOutput()
			assert.Equal(t, 2, exitCode(t, err), "the exit status:\n%s", out)
			assert.Equal(t, tt.want, string(out))
		})
	}
}

// TestNoDisplaySaysHowToRun runs the demo with no DISPLAY: instead of
// ebiten's panic it prints one line on how to run it under Xvfb or without
// a window, and exits 2.
func TestNoDisplaySaysHowToRun(t *testing.T) {
	bin := buildDemo(t)
	cmd := exec.Command(bin, "-frames", "10")
	cmd.Env = withoutDisplay()
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	assert.Equal(t, 2, exitCode(t, err), "the exit status:\n%s", out)
	assert.Equal(t, flags.NoDisplay+"\n", string(out), "one line, and nothing from ebiten")
	assert.Contains(t, flags.NoDisplay, "xvfb-run -a go run ./demo -frames 600 -screenshot out.png")
	assert.Contains(t, flags.NoDisplay, "go run ./cmd/moonmind run scripts/soldier.lua")
	assert.NotContains(t, string(out), "panic")
	assert.NotContains(t, string(out), "goroutine")
}

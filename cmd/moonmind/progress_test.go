package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walker runs 30 ticks without the weather its sensor asks for: a failed
// sensor and a failed plan, the records run paints red on a terminal.
var walker = filepath.Join("testdata", "replay", "weather.lua")

// walkerFaults is the last line of a 30-tick run of walker.
const walkerFaults = "moonmind run: the scripts raised 3 errors while the agents ran (each is a record above, with its file and line)\n"

func TestRunColoursAndShowsProgressOnlyOnATerminal(t *testing.T) {
	t.Setenv("TERM", "xterm")
	now := &progressTiming{}
	later := &progressTiming{after: time.Hour}
	for _, tc := range []struct {
		name     string
		terminal bool
		noColor  string
		timing   *progressTiming
		colour   bool
		bar      bool
	}{
		{name: "a terminal, a long run", terminal: true, timing: now, colour: true, bar: true},
		{name: "a terminal, NO_COLOR", terminal: true, noColor: "1", timing: now, colour: false, bar: true},
		{name: "a terminal, a run shorter than the delay", terminal: true, timing: later, colour: true, bar: false},
		{name: "no terminal", terminal: false, timing: now, colour: false, bar: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tc.noColor)
			var out, errOut bytes.Buffer
			hooks := runHooks{terminal: func(io.Writer) bool { return tc.terminal }, progress: tc.timing}
			code := runWith([]string{walker, "--ticks", "30"}, &out, &errOut, hooks)
			// The walker's sky sensor asks for a host method the training
			// ground lacks: a script error, the run's last line and status.
			require.Equal(t, 1, code, errOut.String())
			require.True(t, strings.HasSuffix(errOut.String(), walkerFaults), errOut.String())
			bar := strings.TrimSuffix(errOut.String(), walkerFaults)
			plain := "tick    1  t=  0.000s  Walker       sensor-failed action=sky"
			red := "tick    1  t=  0.000s  Walker       \x1b[31msensor-failed\x1b[0m action=sky"
			if tc.colour {
				assert.Contains(t, out.String(), red)
				assert.Contains(t, out.String(), "Walker       \x1b[31mplan-failed\x1b[0m goal=sheltered")
				assert.Contains(t, out.String(), "Walker       summary     [flight-recorder]", "a summary is not painted")
			} else {
				assert.Contains(t, out.String(), plain)
				assert.NotContains(t, out.String(), "\x1b[")
			}
			if tc.bar {
				assert.Contains(t, bar, "ticks")
				assert.Contains(t, bar, "| (29/30) [", "the bar advances tick by tick")
				assert.Regexp(t, `\r +\r$`, bar, "and is cleared at the end")
			} else {
				assert.Empty(t, bar)
			}
		})
	}
}

// TestRunOnAPseudoTerminal runs with stdout and stderr on a real terminal
// device: the operating system's answer, not a fake, turns colour and the
// bar on.
func TestRunOnAPseudoTerminal(t *testing.T) {
	t.Setenv("TERM", "xterm")
	for _, noColor := range []string{"", "1"} {
		t.Setenv("NO_COLOR", noColor)
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skip("no pseudo-terminal on this machine:", err)
		}
		got := make(chan string)
		go func() {
			var b bytes.Buffer
			_, _ = io.Copy(&b, ptmx) // ends with an error when tty closes
			got <- b.String()
		}()
		code := runWith([]string{walker, "--ticks", "30"}, tty, tty, runHooks{progress: &progressTiming{}})
		require.NoError(t, tty.Close())
		text := <-got
		require.NoError(t, ptmx.Close())
		require.Equal(t, 1, code, text)
		assert.Contains(t, text, walkerFaults[:len(walkerFaults)-1], "the sky sensor's errors fail the run")
		assert.Contains(t, text, "ticks", "the bar is drawn on the terminal")
		if noColor == "" {
			assert.Contains(t, text, "\x1b[31msensor-failed\x1b[0m")
		} else {
			assert.NotContains(t, text, "\x1b[31m", "NO_COLOR")
			assert.Contains(t, text, "Walker       sensor-failed action=sky")
		}
	}

	// A file is no terminal, whatever its name says.
	f, err := os.Create(filepath.Join(t.TempDir(), "tty"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f))
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	assert.False(t, isTerminal(null), "/dev/null is a character device, not a terminal")
}

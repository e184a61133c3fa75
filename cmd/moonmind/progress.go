package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (not a file, pipe or
// /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressTiming says when the progress bar shows and how often it is
// drawn again, in wall time.
type progressTiming struct {
	after time.Duration // a run shorter than this shows no bar
	every time.Duration // the least time between two drawings
}

// defaultProgress shows the bar after a second (shorter runs finish
// before a bar would help) and draws it at most ten times a second.
var defaultProgress = progressTiming{after: time.Second, every: 100 * time.Millisecond}

// progress is the progress bar of `moonmind run`, on stderr, shown only
// when stderr is a terminal and the run has gone on for longer than its
// delay (wall time: the bar is decoration, never part of the output the
// decisions make). It is cleared when the run ends. Not safe for
// concurrent use; run calls it between ticks and from OnEvent, which the
// world calls on the ticking goroutine.
type progress struct {
	w      io.Writer
	total  int
	on     bool // stderr is a terminal
	shared bool // stdout is a terminal too: clear the bar before a record is printed
	start  time.Time
	timing progressTiming
	now    func() time.Time
	bar    *progressbar.ProgressBar
}

func newProgress(stderr io.Writer, total int, on, shared bool, timing progressTiming, now func() time.Time) *progress {
	return &progress{w: stderr, total: total, on: on && total > 0, shared: shared, start: now(), timing: timing, now: now}
}

// done reports that n of the total ticks have run.
func (p *progress) done(n int) {
	if !p.on {
		return
	}
	if p.bar == nil {
		if p.now().Sub(p.start) < p.timing.after {
			return
		}
		p.bar = progressbar.NewOptions(p.total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("ticks"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(p.timing.every),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true))
	}
	_ = p.bar.Set(n)
}

// beforeLine clears the bar when the next line goes to the same terminal;
// the next tick draws it again.
func (p *progress) beforeLine() {
	if p.bar != nil && p.shared {
		_ = p.bar.Clear()
	}
}

// finish clears the bar, if one was shown.
func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

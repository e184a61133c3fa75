package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/inspect"
	"github.com/moonmind-ai/moonmind/luabind"
)

// tokenEnv names the environment variable that holds the inspector's token,
// which an address other machines can reach needs.
const tokenEnv = "MOONMIND_INSPECT_TOKEN"

// runLive is run's live side: the inspector (--inspect), real-time pacing
// (--realtime) and the interrupt that ends either.
type runLive struct {
	ins      *inspect.Inspector
	srv      *inspect.Server
	stop     <-chan struct{}
	realtime bool
	period   time.Duration
	next     time.Time
}

// startLive starts the inspector at addr (none when addr is empty) over w;
// with control, the page may pause, step, set breakpoints and state, and
// reload the role files in every runtime. It prints the page's address on
// stderr.
func startLive(addr string, control, realtime bool, dt float64, w *engine.World, rts []*luabind.Runtime,
	files []string, stop <-chan struct{}, stderr io.Writer) (*runLive, error) {
	l := &runLive{stop: stop, realtime: realtime, period: time.Duration(dt * float64(time.Second))}
	if addr != "" || realtime {
		l.stop = interrupted(stop)
	}
	if addr == "" {
		return l, nil
	}
	opts := inspect.Options{Control: control, Token: os.Getenv(tokenEnv)}
	if control {
		opts.Reload = func(_ string, w *engine.World) (string, error) {
			n := 0
			for _, rt := range rts {
				for _, f := range files {
					k, err := rt.Reload(f, w.Agents)
					if err != nil {
						return "", err
					}
					n += k
				}
			}
			return fmt.Sprintf("reloaded %s: %d agents updated", strings.Join(files, ", "), n), nil
		}
	}
	l.ins = inspect.New(opts)
	if err := l.ins.Attach("run", w); err != nil {
		return nil, err
	}
	srv, err := l.ins.Listen(addr)
	if err != nil {
		return nil, fmt.Errorf("%w (a token is read from %s)", err, tokenEnv)
	}
	l.srv = srv
	fmt.Fprintf(stderr, "moonmind run: inspector at %s\n", srv.URL)
	return l, nil
}

// interrupted returns stop when it is set (tests), else a channel closed
// at the first interrupt (Ctrl-C) or SIGTERM.
func interrupted(stop <-chan struct{}) <-chan struct{} {
	if stop != nil {
		return stop
	}
	ch := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		signal.Stop(sig)
		close(ch)
	}()
	return ch
}

// stopped reports whether the run was interrupted.
func (l *runLive) stopped() bool {
	select {
	case <-l.stop:
		return true
	default:
		return false
	}
}

// tick ticks w once, through the inspector when there is one, at real
// time with --realtime. It reports whether w ticked (a paused world does
// not: the loop then waits a little and answers the page).
func (l *runLive) tick(w *engine.World, dt float64) bool {
	if l.realtime {
		now := time.Now()
		if l.next.IsZero() {
			l.next = now
		}
		if d := l.next.Sub(now); d > 0 {
			time.Sleep(d)
		}
		l.next = l.next.Add(l.period)
	}
	if l.ins == nil {
		w.Tick(dt)
		return true
	}
	if l.ins.Tick(w, dt) {
		return true
	}
	l.next = time.Time{}
	time.Sleep(10 * time.Millisecond)
	return false
}

// linger keeps the inspector answering about the finished run until
// interrupted, then stops it.
func (l *runLive) linger(w *engine.World, stderr io.Writer) {
	if l.ins == nil {
		return
	}
	defer l.srv.Close()
	if !l.stopped() {
		fmt.Fprintln(stderr, "moonmind run: the run is over; the inspector shows it until interrupted (Ctrl-C)")
	}
	for !l.stopped() {
		l.ins.Idle(w)
		time.Sleep(10 * time.Millisecond)
	}
}

// specFiles lists the role files of a run, once each.
func specFiles(specs []runSpec) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range specs {
		if f := filepath.Clean(s.file); !seen[f] {
			seen[f] = true
			out = append(out, s.file)
		}
	}
	return out
}

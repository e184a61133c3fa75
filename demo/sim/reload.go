package sim

import (
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/moonmind-ai/moonmind/engine"
)

// ScriptPath returns the path of the soldiers' role file.
func (s *Sim) ScriptPath() string { return filepath.Join(s.Config.ScriptsDir, s.Config.Role) }

// Reload recompiles the role file (and the role it extends) and swaps it into every soldier of the
// round, keeping their state (luabind.Runtime.Reload); later rounds spawn
// with it too. It returns how many soldiers took the new script. When the
// file does not load, nothing changes: the old script keeps running and
// the error says why, as "file:line:col: message" lines.
func (s *Sim) Reload() (int, error) {
	agents := make([]*engine.Agent, 0, len(s.Soldiers)+1)
	for _, so := range s.Soldiers {
		agents = append(agents, so.Agent)
	}
	// A stand-in carries the domain over when no soldier is left to.
	probe := engine.NewAgent("probe", s.Domain)
	agents = append(agents, probe)
	n, err := s.rt.Reload(s.ScriptPath(), agents)
	if err != nil {
		return 0, err
	}
	s.Domain = probe.Domain
	s.explain = engine.NewUtilityPlanner(s.Domain)
	s.explain.Explain = true
	return n - 1, nil
}

// Watcher reports when a file, or another file of its folder with the
// same extension (the role a role extends), changes on disk: it watches
// the folder with fsnotify (so an editor that saves by renaming a new file
// over the old one is seen too) and, where fsnotify is not available (in
// the browser), falls back to comparing the file's modification time. The zero
// value is not usable; use NewWatcher. Changed and Close may be called
// from one goroutine at a time.
type Watcher struct {
	path string
	fsw  *fsnotify.Watcher // nil when falling back to polling
	last time.Time
	err  error // the first fsnotify error, reported once by Err
}

// NewWatcher starts watching path.
func NewWatcher(path string) *Watcher {
	w := &Watcher{path: path}
	if fi, err := os.Stat(path); err == nil {
		w.last = fi.ModTime()
	}
	if fsw, err := fsnotify.NewWatcher(); err == nil {
		if err := fsw.Add(filepath.Dir(path)); err == nil {
			w.fsw = fsw
		} else {
			_ = fsw.Close()
		}
	}
	return w
}

// Changed reports whether the file was written, created or renamed into
// place since the last call that returned true (or since NewWatcher). It
// never blocks.
func (w *Watcher) Changed() bool {
	if w.fsw == nil {
		fi, err := os.Stat(w.path)
		if err != nil || fi.ModTime().Equal(w.last) {
			return false
		}
		w.last = fi.ModTime()
		return true
	}
	changed := false
	for {
		select {
		case e, ok := <-w.fsw.Events:
			if !ok {
				return changed
			}
			if filepath.Ext(e.Name) == filepath.Ext(w.path) && e.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename) != 0 {
				changed = true
			}
		case err, ok := <-w.fsw.Errors:
			if ok && w.err == nil {
				w.err = err
			}
		default:
			return changed
		}
	}
}

// Close stops watching.
func (w *Watcher) Close() error {
	if w.fsw == nil {
		return nil
	}
	return w.fsw.Close()
}

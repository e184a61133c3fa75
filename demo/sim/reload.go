package sim

import (
	"os"
	"path/filepath"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
)

// ScriptPath returns the path of the soldiers' script.
func (s *Sim) ScriptPath() string { return filepath.Join(s.Config.ScriptsDir, "soldier.lua") }

// Reload recompiles soldier.lua and swaps it into every soldier of the
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

// Watcher reports when a file's modification time changes. The zero value
// is not usable; use NewWatcher.
type Watcher struct {
	path string
	last time.Time
}

// NewWatcher starts watching path from its current modification time.
func NewWatcher(path string) *Watcher {
	w := &Watcher{path: path}
	if fi, err := os.Stat(path); err == nil {
		w.last = fi.ModTime()
	}
	return w
}

// Changed reports whether the file was modified since the last call that
// returned true (or since NewWatcher).
func (w *Watcher) Changed() bool {
	fi, err := os.Stat(w.path)
	if err != nil || fi.ModTime().Equal(w.last) {
		return false
	}
	w.last = fi.ModTime()
	return true
}

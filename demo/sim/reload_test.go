package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLiveReloadKeepsTheBattleGoing(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "scripts", "soldier.lua"))
	require.NoError(t, err)
	path := filepath.Join(dir, "soldier.lua")
	require.NoError(t, os.WriteFile(path, src, 0o644))
	squad, err := os.ReadFile(filepath.Join("..", "..", "scripts", "squad.lua"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "squad.lua"), squad, 0o644))
	s, err := New(Config{Seed: 3, ScriptsDir: dir})
	require.NoError(t, err)
	defer s.Close()
	// The demo watches its role file, squad.lua; an edit of soldier.lua,
	// the role it extends, counts too.
	w := NewWatcher(s.ScriptPath())
	defer w.Close()
	for i := 0; i < 120; i++ {
		s.Step(1.0 / 60)
	}
	assert.False(t, w.Changed())
	old := s.Domain

	// A designer slows the reload down: the soldiers take it at once.
	slower := strings.Replace(string(src), "npc:wait(1.5)", "npc:wait(2.5)", 1)
	require.NotEqual(t, string(src), slower)
	require.NoError(t, os.WriteFile(path, []byte(slower), 0o644))
	require.NoError(t, os.Chtimes(path, time.Now(), time.Now().Add(time.Second)))
	// fsnotify reports the write a moment later; wait for it. However slow
	// the machine, only a lost event ends the wait: it gives up a little
	// before the test binary's own deadline (go test -timeout), so that
	// the failure says what was awaited.
	seen := w.Changed()
	deadline, bounded := t.Deadline()
	for !seen && (!bounded || time.Until(deadline) > 5*time.Second) {
		time.Sleep(10 * time.Millisecond)
		seen = w.Changed()
	}
	assert.True(t, seen, "the watcher sees the edit")
	before := s.Soldiers[0].Agent.CurrentState()
	n, err := s.Reload()
	require.NoError(t, err)
	assert.Equal(t, 12, n, "two squads of 6")
	assert.NotSame(t, old, s.Domain)
	for _, so := range s.Soldiers {
		assert.Same(t, s.Domain, so.Agent.Domain)
	}
	assert.Equal(t, before, s.Soldiers[0].Agent.CurrentState(), "the soldiers keep their state")

	// A typo: the old script keeps running, the error names file and line.
	broken := strings.Replace(slower, `pre = "magazines > 0"`, `pre = "magazins > 0"`, 1)
	require.NoError(t, os.WriteFile(path, []byte(broken), 0o644))
	_, err = s.Reload()
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+":")
	assert.Contains(t, err.Error(), `reads "magazins", which no state variable, effect or named condition provides (did you mean "magazines"?)`)
	current := s.Domain
	for i := 0; i < 60; i++ {
		s.Step(1.0 / 60)
	}
	assert.Same(t, current, s.Domain, "the last good script still runs")
	assert.NotEmpty(t, s.World.Agents)
}

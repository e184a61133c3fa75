//go:build unix

package luabind

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestANamedPipeIsNeverOpened: require of a named pipe in the scripts
// folder blocked the tick forever (opening it waits for a writer), on
// load and on hot reload. It is refused from its file type, unopened.
func TestANamedPipeIsNeverOpened(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.lua"), 0o644))
	// Were the pipe opened, the test would block: end it loudly instead.
	watchdog := time.AfterFunc(20*time.Second, func() { panic("reading a named pipe blocked") })
	defer watchdog.Stop()
	res := runAttack(t, dir, `require("pipe")`, defaultLimits)
	require.Len(t, res.fails, 1)
	assert.Contains(t, res.fails[0], `attack.lua:9: require "pipe": `+filepath.Join(dir, "pipe.lua")+
		" is a named pipe, not a regular file: scripts are read only from plain files")

	// Hot reload: a module that becomes a pipe is refused and the old
	// domain keeps running.
	mod := filepath.Join(dir, "mod.lua")
	role := filepath.Join(dir, "role.lua")
	require.NoError(t, os.WriteFile(mod, []byte(`return 1`), 0o644))
	require.NoError(t, os.WriteFile(role, []byte(`local m = require("mod")
return { name = "R", state = { x = 0 }, goals = { { name = "g", condition = "x > 0" } },
  actions = { { name = "a", effects = "x = 1" } } }`), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("role.lua")
	require.NoError(t, err)
	a := engine.NewAgent("r", d)
	require.NoError(t, os.Remove(mod))
	require.NoError(t, syscall.Mkfifo(mod, 0o644))
	n, err := rt.Reload(mod, []*engine.Agent{a})
	require.Error(t, err)
	assert.Contains(t, err.Error(), mod+" is a named pipe, not a regular file")
	assert.Zero(t, n)
	assert.Same(t, d, a.Domain, "the old scripts keep running")
}

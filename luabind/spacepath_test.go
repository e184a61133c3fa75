package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsNameTheLineOnceWhateverThePath: a script whose path has a
// space or a colon in it fails with its file:line prefix exactly once,
// as the same script does in a plain folder, whether the error is raised
// by npc:wait, a host method, error(), the runtime (an index of nil) or
// carries no position (error(nil), a stack overflow: the traceback's
// script frame names the line), with the prelude's Lua npc methods and
// with the Go ones.
func TestErrorsNameTheLineOnceWhateverThePath(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "scripts")
	odd := []string{filepath.Join(t.TempDir(), "my scripts"), filepath.Join(t.TempDir(), "a:b c"), filepath.Join(t.TempDir(), "x.lua:1: y")}
	for _, dir := range append([]string{plain}, odd...) {
		require.NoError(t, os.MkdirAll(dir, 0o755))
	}
	for _, c := range []struct{ name, body, want string }{
		{"wait", "npc:wait(-5)", ":3: npc:wait: seconds must be a number >= 0, got -5"},
		{"wait not a colon", "npc.wait(0.1)", ":3: npc:wait is a method: call it with a colon, npc:wait(...), not npc.wait(...)"},
		{"host", "npc:fail()", ":3: npc:fail: no ammo"},
		{"error", "error('boom')", ":3: boom"},
		{"error at level 2", "local function f() error('deep', 2) end\nf()", ":4: deep"},
		{"nil index", "local t = nil\nlocal x = t.y", ":4: attempt to index a non-table object(nil) with key 'y'"},
		{"no position", "error(nil)", ":3: an error value that is a nil, not a message (raise errors with a string)"},
		{"overflow", "local function f() return 1 + f() end\nf()", ":3: stack overflow"},
	} {
		for _, useLua := range []bool{false, true} {
			name := strings.ReplaceAll(c.name, " ", "_")
			_, _, err := runHost(t, plain, name, c.body, useLua, 0)
			require.Error(t, err, c.name)
			want := err.Error()
			assert.True(t, strings.HasPrefix(want, filepath.Join(plain, name+".lua")+c.want), "%s (Lua %v): %s", c.name, useLua, want)
			assert.Equal(t, 1, strings.Count(want, plain), "%s (Lua %v): %s", c.name, useLua, want)
			for _, dir := range odd {
				_, _, err := runHost(t, dir, name, c.body, useLua, 0)
				require.Error(t, err, c.name)
				assert.Equal(t, strings.ReplaceAll(want, plain, dir), err.Error(), "%s (Lua %v) in %q", c.name, useLua, dir)
			}
		}
	}
}

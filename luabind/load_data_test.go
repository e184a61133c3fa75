package luabind_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/luabind"
)

// TestLoadData checks that a Lua data file comes back as plain Go values
// (lists as slices, records as maps), and that a function in it is an
// error naming where.
func TestLoadData(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		return p
	}
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: dir})
	defer rt.Close()

	got, err := rt.LoadData(write("d.lua", `return { role = "x.lua", tests = { { name = "a", n = 2.5, ok = true, plan = { "p", "q" }, empty = {} } } }`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"role": "x.lua", "tests": []any{
		map[string]any{"name": "a", "n": 2.5, "ok": true, "plan": []any{"p", "q"}, "empty": map[string]any{}},
	}}, got)

	p := write("f.lua", `return { tests = { { run = function() end } } }`)
	_, err = rt.LoadData(p)
	require.Error(t, err)
	assert.Equal(t, p+": the returned value.tests[1].run: a function, which is not data (write strings, numbers, booleans and tables)", err.Error())
}

package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestPairsAndIpairsWalkAModuleAsItsTable: pairs, next and ipairs over
// a module's read-only view visit what the module's table holds, in the
// table's order, and end where it ends (next of an empty table is nil).
func TestPairsAndIpairsWalkAModuleAsItsTable(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "words.lua"), []byte(`return { list = { "a", "b", { "c" } }, size = 3, empty = {} }`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "role.lua"), []byte(`local words = require("words")
return { name = "W", state = { s = "" }, decide = "utility",
  actions = { { name = "use", effects = "s = 'x'", run = function(npc)
    local keys = {}
    for k in pairs(words) do keys[#keys + 1] = k end
    table.sort(keys)
    local items = {}
    for i, v in ipairs(words.list) do items[#items + 1] = i .. type(v) end
    npc.state.s = table.concat(keys, ",") .. " " .. table.concat(items, ",") .. " " .. tostring(next(words.empty))
  end } } }
`), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("role.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("a", d)
	w.Add(a)
	w.Tick(0.1)
	assert.Equal(t, expr.StringValue("empty,list,size 1string,2string,3userdata nil"), a.Get("s"))
}

package luabind

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// substringRole's body builds a 1 MiB string, keeps small pieces of it
// in the state (string.sub shares the big string's bytes in gopher-lua)
// and an empty one, drops it, and checks
// the pieces back through npc.state after the game's collections.
const substringRole = `return { name = "Sub", state = { a = "", b = "", c = "x", ok = "" },
  actions = { { name = "cut", run = function(npc)
    do
      local big = string.rep("abcdefgh", 131072)
      npc.state.a = string.sub(big, 4100, 4104)
      npc.state.b = string.sub(big, -1)
      npc.state.c = string.sub(big, 9, 8)
      big = nil
    end
    coroutine.yield()
    coroutine.yield()
    npc.state.ok = npc.state.a .. "|" .. npc.state.b .. "|" .. npc.state.c .. "|" .. #npc.state.c
  end } } }
`

// TestLuaSubstringsOutliveTheirString: pieces of a large Lua string kept
// only as Values in an agent's state (the Lua string dropped and
// collected, the Go collector run and memory given back to the system
// between resumes, and the runtime closed at the end) keep their text,
// in Go and back in Lua.
func TestLuaSubstringsOutliveTheirString(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub.lua")
	require.NoError(t, os.WriteFile(file, []byte(substringRole), 0o644))
	rt := NewRuntime(Options{InstructionBudget: 10 * testBudget})
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	a := engine.NewAgent("s", d)
	act := d.Action("cut")
	task, err := act.Body.Start(a, act)
	require.NoError(t, err)
	collect := func() {
		for range 3 {
			runtime.GC()
			debug.FreeOSMemory()
			_ = strings.Repeat("z", 2<<20) // memory the collector may hand out where big was
		}
	}
	st := engine.Running
	for i := 0; i < 5 && st == engine.Running; i++ {
		st, err = task.Resume(0.1)
		require.NoError(t, err, "resume %d", i)
		collect()
	}
	require.Equal(t, engine.Succeeded, st)
	rt.Close()
	collect()
	get := func(name string) string {
		s, ok := a.Get(name).AsString()
		require.True(t, ok, "%s is a string: %v", name, a.Get(name))
		return s
	}
	assert.Equal(t, "defgh", get("a"))
	assert.Equal(t, "h", get("b"))
	assert.Equal(t, "", get("c"))
	assert.Equal(t, "defgh|h||0", get("ok"))
	assert.True(t, a.Get("c").Equal(expr.StringValue("")))
	assert.Equal(t, expr.StringValue("defgh"), a.Get("a"))
}

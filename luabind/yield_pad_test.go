package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// runYieldBody runs one agent whose action body is body for a few ticks
// and returns its failure reasons and the string it stored in state.out.
func runYieldBody(t *testing.T, body string) (fails []string, out expr.Value) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "y.lua")
	src := `return {
  name = "Yielder",
  state = { out = "", done = false },
  goals = { { name = "g", condition = "done" } },
  actions = {
    { name = "a", effects = "done = true",
      run = function(npc)
        ` + body + `
        npc.state.done = true
      end },
  },
}
`
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	rt := NewRuntime(Options{})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails = append(fails, e.Reason)
		}
	}
	a := engine.NewAgent("y", d)
	w.Add(a)
	for range 5 {
		w.Tick(0.1)
	}
	return fails, a.Get("out")
}

// TestYieldResumedWithFewerValuesGivesNil: a yield resumed with fewer
// values than its call site wants gives nil for the rest, as in stock Lua.
// gopher-lua left Go nils in those registers, so the first use of such a
// variable failed the body with "invalid memory address or nil pointer
// dereference" (here and then: pcall of a function that waits, a bare
// coroutine.yield in a body, a coroutine resumed with one value).
func TestYieldResumedWithFewerValuesGivesNil(t *testing.T) {
	for name, body := range map[string]string{
		"pcall of a waiting function": `local ok, e = pcall(function() npc:wait(0.1) end)
        npc.state.out = tostring(ok) .. " " .. type(e)`,
		"pcall of a yielding function": `local ok, e, f = pcall(function() coroutine.yield() end)
        npc.state.out = tostring(ok) .. " " .. type(e) .. " " .. type(f)`,
		"a bare yield in a body": `local dt, extra = coroutine.yield()
        npc.state.out = type(dt) .. " " .. type(extra)`,
		"a coroutine resumed with one value": `local co = coroutine.create(function()
          local a, b = coroutine.yield()
          return type(a) .. " " .. type(b)
        end)
        coroutine.resume(co)
        local ok, s = coroutine.resume(co, 1)
        npc.state.out = tostring(ok) .. " " .. s`,
	} {
		t.Run(name, func(t *testing.T) {
			fails, out := runYieldBody(t, body)
			assert.Empty(t, fails)
			want := map[string]string{
				"pcall of a waiting function":        "true nil",
				"pcall of a yielding function":       "true nil nil",
				"a bare yield in a body":             "number nil",
				"a coroutine resumed with one value": "true number nil",
			}[name]
			assert.Equal(t, expr.StringValue(want), out)
		})
	}
}

package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// TestACoroutineGivenOutWithArgumentsIsNotReused: coroutine.running
// called with arguments (which it ignores) still gives the body's
// coroutine to Lua code, so that coroutine is not kept for another body
// once its own returns, as with coroutine.running().
func TestACoroutineGivenOutWithArgumentsIsNotReused(t *testing.T) {
	require.True(t, luavm.OK())
	path := filepath.Join(t.TempDir(), "running.lua")
	require.NoError(t, os.WriteFile(path, []byte(`return {
  name = "RunningArgs",
  state = { kind = "" },
  actions = {
    { name = "hold", run = function(npc)
        local co = coroutine.running("ignored", 2)
        npc.state.kind = type(co)
      end },
    { name = "plain", run = function(npc) npc.state.kind = "plain" end },
  },
}
`), 0o644))
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	run := func(name string) *luaTask {
		act := d.Action(name)
		require.NotNil(t, act, name)
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		st, err := task.Resume(0)
		require.NoError(t, err)
		require.Equal(t, engine.Succeeded, st)
		return task.(*luaTask)
	}

	plain := run("plain")
	require.Equal(t, 1, len(rt.threads.idle), "a body that gave out nothing leaves its coroutine")
	hold := run("hold")
	assert.Same(t, plain.th, hold.th, "the kept coroutine runs the next body")
	kind, _ := a.Get("kind").AsString()
	assert.Equal(t, "thread", kind)
	assert.Empty(t, rt.threads.idle, "a coroutine that coroutine.running gave out is not kept")
}

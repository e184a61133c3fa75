package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestABodyIsHeldToTheRuntimeLimitWithoutAnAgentLimit: a body that keeps
// appending to a list across its yields fails once what the runtime's
// bodies hold passes the runtime's limit, with no agent limit set.
func TestABodyIsHeldToTheRuntimeLimitWithoutAnAgentLimit(t *testing.T) {
	path := writeRole(t, "hoard.lua", `return { name = "Hoard", state = { done = false },
  goals = { { name = "g", condition = "done" } },
  actions = { { name = "hoard", effects = "done = true", run = function(npc)
    local t = {}
    for round = 1, 20 do
      for i = 1, 10000 do t[#t + 1] = i end
      coroutine.yield()
    end
    npc.state.done = true
  end } } }
`)
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"runtime limit", Options{MemoryLimit: -1, RuntimeMemoryLimit: 1 << 20}, "memory limit exceeded (1 MiB for the runtime): the running bodies hold about "},
	} {
		_, a, events := runRole(t, c.opts, path, 25)
		fails := ofKind(events, record.EventFail, 0)
		require.NotEmpty(t, fails, c.name)
		assert.Contains(t, fails[0].Reason, c.want, c.name)
		assert.Equal(t, expr.BoolValue(false), a.Get("done"), c.name)
	}
}

// TestWhatABodyHoldsCountsAgainstItsBuiltinsWithoutARuntimeLimit: with an
// agent limit and no runtime limit, what a body holds is measured after
// its resume, and a built-in it calls later is refused when the two
// together pass the limit.
func TestWhatABodyHoldsCountsAgainstItsBuiltinsWithoutARuntimeLimit(t *testing.T) {
	path := writeRole(t, "keep.lua", `return { name = "Keep", state = { done = false },
  goals = { { name = "g", condition = "done" } },
  actions = { { name = "keep", effects = "done = true", run = function(npc)
    local t = {}
    for i = 1, 20000 do t[i] = i end
    coroutine.yield()
    local s = string.rep("x", 400000)
    npc.state.done = true
  end } } }
`)
	_, a, events := runRole(t, Options{MemoryLimit: 1 << 20, RuntimeMemoryLimit: -1}, path, 3)
	fails := ofKind(events, record.EventFail, 0)
	require.Len(t, fails, 1)
	assert.Contains(t, fails[0].Reason, "keep.lua:7: memory limit exceeded (1 MiB): built-ins would allocate 1 MiB in one resume, on top of the 1 MiB the body holds")
	assert.Equal(t, expr.BoolValue(false), a.Get("done"))
}

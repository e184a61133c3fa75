package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestFastNPCMissThroughAChainIsCharged: a key the fast npc's table lacks
// (npc.name, npc.facts, a mistyped method) is answered by a Go call
// (fastNPCMiss). Reached through another table's __index
// (setmetatable(t, {__index = npc})) that Go call is charged accessUnits,
// as npcIndex charges it when the npc is not fast: a runaway loop of such
// lookups spends its budget after as many Go calls either way.
func TestFastNPCMissThroughAChainIsCharged(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, body string }{
		{"name", `local t = setmetatable({}, { __index = npc })
for i = 1, 100 do local x = t.name end coroutine.yield()`},
		{"facts", `local t = setmetatable({}, { __index = npc })
for i = 1, 100 do local x = t.facts end coroutine.yield()`},
		{"two tables deep", `local t = setmetatable({}, { __index = setmetatable({}, { __index = npc }) })
for i = 1, 100 do local x = t.name end coroutine.yield()`},
		{"a method call on the chain", `local t = setmetatable({}, { __index = npc })
for i = 1, 100 do local x = t["name"] local w = t.wait end coroutine.yield()`},
	} {
		t.Run(c.name, func(t *testing.T) {
			fastWork, _, err := runBody(t, dir, "fast", c.body, false)
			require.NoError(t, err)
			slowWork, _, err := runBody(t, dir, "slow", c.body, true)
			require.NoError(t, err)
			hits := int64(0) // chained lookups fastIndex answers by itself
			if c.name == "a method call on the chain" {
				hits = 100
			}
			assert.Equal(t, slowWork[0]-hits*accessUnits, fastWork[0])
		})
	}
	t.Run("runaway loop", func(t *testing.T) {
		body := `local t = setmetatable({}, { __index = npc }) local i = 0
while true do local x = t.name i = i + 1 npc.state.n = i end`
		_, fast, fastErr := runBody(t, dir, "fast", body, false)
		_, slow, slowErr := runBody(t, dir, "slow", body, true)
		require.Error(t, fastErr)
		require.Error(t, slowErr)
		assert.Contains(t, fastErr.Error(), "fast.lua:4: instruction budget exceeded")
		assert.Equal(t, stripDir(slowErr.Error(), dir, "slow"), stripDir(fastErr.Error(), dir, "fast"))
		assert.Equal(t, slow.Get("n"), fast.Get("n"), "as many lookups before the budget is spent")
		assert.Equal(t, expr.NumberValue(3333), fast.Get("n"))
	})
}

// TestFastNPCLookupsElsewhereCostAsBefore: lookups on the fast npc from a
// nested coroutine, a coroutine resumed over two ticks, pcall, a caught
// error, a Lua __index that forwards to the npc, a gsub callback and a
// sort comparator cost the same work units fast and slow.
func TestFastNPCLookupsElsewhereCostAsBefore(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"coroutine.wrap":      `local co = coroutine.wrap(function() for i = 1, 100 do local f = npc.wait end end) co() coroutine.yield()`,
		"two coroutines deep": `coroutine.wrap(function() coroutine.wrap(function() for i = 1, 100 do local f = npc.name end end)() end)() coroutine.yield()`,
		"resumed over ticks": `local co = coroutine.create(function() for i = 1, 100 do local f = npc.state end coroutine.yield()
  for i = 1, 100 do local f = npc.state end end)
coroutine.resume(co) coroutine.yield() coroutine.resume(co) coroutine.yield()`,
		"pcall":              `pcall(function() for i = 1, 100 do local f = npc.wait end end) coroutine.yield()`,
		"caught errors":      `for i = 1, 100 do local ok = pcall(function() local f = npc.nosuch end) end coroutine.yield()`,
		"forwarding __index": `local t = setmetatable({}, {__index = function(_, k) return npc[k] end}) for i = 1, 100 do local f = t.name end coroutine.yield()`,
		"gsub callback":      `for i = 1, 100 do local f = string.gsub("ab", "%w", function(c) return npc.name end) end coroutine.yield()`,
		"sort comparator":    `for i = 1, 100 do table.sort({3, 2, 1}, function(a, b) local w = npc.state return a < b end) end coroutine.yield()`,
	} {
		t.Run(name, func(t *testing.T) {
			fastWork, _, err := runBody(t, dir, "fast", body, false)
			require.NoError(t, err)
			slowWork, _, err := runBody(t, dir, "slow", body, true)
			require.NoError(t, err)
			require.Greater(t, slowWork[0], int64(100*accessUnits), "the lookups are charged")
			assert.Equal(t, slowWork, fastWork)
		})
	}
}

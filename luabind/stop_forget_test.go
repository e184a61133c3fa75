package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAStoppedIntentionGivesBackItsMemory: when an agent's domain is
// replaced its intentions stop, and what their coroutines held no longer
// counts against the runtime's memory limit.
func TestAStoppedIntentionGivesBackItsMemory(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget, MemoryLimit: 8 << 20, RuntimeMemoryLimit: 64 << 20})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Hoard"}, []string{"bdi/hoard.lua"})
	wd.run(60, 0.1) // a body is measured at the latest after 50,000 work units, about 49 ticks of the hoard
	require.Greater(t, rt.held, int64(1<<20), "the hoard keeps 64 KiB a tick")
	a := wd.agents["Hoard"]
	a.SetDomain(a.Domain)
	assert.Zero(t, rt.held, "the old intention was stopped and released")
	wd.run(1, 0.1)
	assert.Less(t, rt.held, int64(1<<20), "the new mind's hoard starts from nothing")
}

// TestForgetDropsTheAgentsObjects: the runtime keeps an npc object and a
// tick's work record per agent; Forget drops both, so a removed agent
// can be collected.
func TestForgetDropsTheAgentsObjects(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Hoard", "other"}, []string{"bdi/hoard.lua", "bdi/hoard.lua"})
	wd.run(2, 0.1)
	a := wd.agents["Hoard"]
	require.Contains(t, rt.npcs, a)
	require.Contains(t, rt.bdi.work, a)
	wd.w.Remove(a)
	rt.Forget(a)
	assert.NotContains(t, rt.npcs, a)
	assert.NotContains(t, rt.bdi.work, a)
	assert.Contains(t, rt.npcs, wd.agents["other"], "the other agent's object stays")
	wd.run(2, 0.1)
	assert.NotContains(t, rt.npcs, a, "the removed agent is not ticked again")
}

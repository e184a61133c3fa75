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

// hunterRole sees its enemy from a Lua sensor while the game says it is
// in sight, searches its last known position once it has lost it and is
// still fairly sure of it, and notes the perception events in its state.
const hunterRole = `return { name = "Hunter",
  memory = { half_life = 2, forget = 0.2, lose_after = 0.5 },
  state = { visible = true, searched = 0, log = "" },
  sensors = {
    { name = "eyes", run = function(npc)
        if npc.state.visible then npc:perceive("enemy", "sight", 40, 30) end
      end },
  },
  goals = { { name = "hunt", condition = "searched > 0" } },
  actions = {
    { name = "search", pre = "memory.enemy.lost && memory.enemy.confidence > 0.5",
      effects = "searched = searched + 1",
      run = function(npc)
        local e = npc:recall("enemy")
        npc:wait(0.3)
        npc.state.searched = npc.state.searched + 1
        npc.state.log = npc.state.log .. " search(" .. e.x .. "," .. e.y .. ")"
      end },
  },
  plans = {
    { on = "perceived", source = "enemy", body = function(npc, ctx)
        npc.state.log = npc.state.log .. " perceived(" .. ctx.x .. ")"
      end },
    { on = "lost", body = function(npc, ctx)
        npc.state.log = npc.state.log .. " lost(" .. ctx.source .. "," .. tostring(ctx.lost) .. ")"
      end },
    { on = "forgotten", source = "enemy", body = function(npc)
        npc.state.log = npc.state.log .. " forgotten"
      end },
  },
}`

// TestLuaRolesReactToTheMemory: a Lua role reads its memory in a
// precondition (memory.enemy.lost, memory.enemy.confidence) and reacts to
// its perceived, lost and forgotten events: the enemy is perceived on the
// first tick, lost 0.5 s after the game hides it, searched at its last
// known position while the agent is still sure enough, and forgotten when
// its confidence falls below 0.2 (2 s × log2(5) = 4.64 s after the last
// sight). npc:lose loses a thing at once.
func TestLuaRolesReactToTheMemory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hunter.lua"), []byte(hunterRole), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("hunter.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var starts []float64
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventStart {
			starts = append(starts, e.Time)
		}
	}
	a := engine.NewAgent("h", d)
	w.Add(a)
	for i := range 80 {
		if i == 10 {
			a.Set("visible", expr.BoolValue(false))
		}
		w.Tick(0.1)
	}
	assert.Equal(t, expr.StringValue(" perceived(40) lost(enemy,true) search(40,30) forgotten"), a.Get("log"))
	require.Len(t, starts, 1)
	assert.InDelta(t, 1.4, starts[0], 1e-9, "last seen at 0.9, lost at the think at 1.4")
	_, ok := a.Memory().Recall("enemy", a.Time())
	assert.False(t, ok)

	loser := `return { name = "Loser",
  state = { done = false, first = false, second = true, lost = false },
  goals = { { name = "g", condition = "done" } },
  actions = { { name = "a", effects = "done = true", run = function(npc)
    npc:perceive("x", "sight", 1, 2)
    npc.state.first, npc.state.second = npc:lose("x"), npc:lose("x")
    npc.state.lost, npc.state.done = npc:recall("x").lost, true
  end } },
}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loser.lua"), []byte(loser), 0o644))
	d2, err := rt.LoadDomain("loser.lua")
	require.NoError(t, err)
	b := engine.NewAgent("b", d2)
	w.Add(b)
	w.Tick(0.1)
	for name, want := range map[string]bool{"first": true, "second": false, "lost": true, "done": true} {
		assert.Equal(t, expr.BoolValue(want), b.Get(name), name)
	}
}

// TestMemoryNamesInLuaAreCheckedWithFileLineAndColumn: a condition naming
// a field a remembered thing does not have fails the load at its file,
// line and column, with the nearest field.
func TestMemoryNamesInLuaAreCheckedWithFileLineAndColumn(t *testing.T) {
	dir := t.TempDir()
	src := `return { name = "Typo",
  state = { calm = false },
  goals = { { name = "calm", condition = "calm" } },
  actions = {
    { name = "rest", pre = "memory.enemy.confidense < 0.1", effects = "calm = true" },
  },
}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "typo.lua"), []byte(src), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	_, err := rt.LoadDomain("typo.lua")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `typo.lua:5:42: action "rest" pre: col 14: expected a field of remembered "enemy" (known, lost, age, confidence, x, y, sense), found "confidense" (did you mean "confidence"?)`)
}

package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/engine/record"
)

const scoutRole = `return { name = "Scout",
  state = { done = false, age = 0, conf = 0, x = 0, count = 0, gone = false, heard = "" },
  goals = { { name = "scouted", condition = "done" } },
  actions = {
    { name = "look", effects = "done = true", run = function(npc)
        npc:perceive("red1", "sight", 10, 20)
        npc:perceive("shot", "sound", 5, 5, 0.5)
        npc:wait(2)
        local m = npc:recall("red1")
        npc.state.age, npc.state.conf, npc.state.x = m.age, m.confidence, m.x
        npc.state.count = #npc:memories()
        npc.state.heard = npc:memories()[2].sense
        npc.state.gone = npc:recall("nobody") == nil
        npc.state.done = true
      end },
  },
}`

const smellRole = `return { name = "Smeller",
  state = { done = false },
  goals = { { name = "smelt", condition = "done" } },
  actions = {
    { name = "sniff", effects = "done = true", run = function(npc)
        npc:perceive("red1", "smell", 0, 0)
      end },
  },
}`

// TestLuaReadsThePerceptionMemory: a body perceives, waits and recalls:
// the thing seen 2 s ago is 2 s old with its confidence halved every 5 s,
// the faint sound is listed after it, a thing never perceived is nil,
// and a stimulus of an unknown sense fails the action with the argument
// named.
func TestLuaReadsThePerceptionMemory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scout.lua"), []byte(scoutRole), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("scout.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var fails []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails = append(fails, e.Reason)
		}
	}
	a := engine.NewAgent("scout", d)
	w.Add(a)
	for range 25 {
		w.Tick(0.1)
	}
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	age, _ := a.Get("age").AsNumber()
	assert.InDelta(t, 2.0, age, 1e-9)
	conf, _ := a.Get("conf").AsNumber()
	assert.InDelta(t, 0.757858283, conf, 1e-9, "2^(-2/5)")
	assert.Equal(t, expr.NumberValue(10), a.Get("x"))
	assert.Equal(t, expr.NumberValue(2), a.Get("count"))
	assert.Equal(t, expr.StringValue("sound"), a.Get("heard"))
	assert.Equal(t, expr.BoolValue(true), a.Get("gone"))

	m, ok := a.Memory().Recall("red1", 0.5)
	require.True(t, ok, "what Lua perceived, Go recalls")
	assert.Equal(t, perception.SenseSight, m.Sense)

	require.Empty(t, fails)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "smell.lua"), []byte(smellRole), 0o644))
	d, err = rt.LoadDomain("smell.lua")
	require.NoError(t, err)
	w.Add(engine.NewAgent("smeller", d))
	w.Tick(0.1)
	require.Len(t, fails, 1)
	assert.Equal(t, filepath.Join(dir, "smell.lua")+`:6: bad argument #2 to perceive (sense must be "sight", "sound", "damage" or "told", not "smell")`, fails[0])
}

// TestRoleMemorySettings: a role's memory table sets the settings each
// agent's memory starts with; bad ones are reported with their places.
func TestRoleMemorySettings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("keen.lua", `return { name = "Keen", state = { x = 0 },
  memory = { half_life = 3, forget = 0.1, capacity = 8 },
}`)
	write("bad.lua", `return { name = "Bad",
  memory = { half_life = -1, forget = 1, capacity = 2.5, size = 3 },
}`)
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("keen.lua")
	require.NoError(t, err)
	assert.Equal(t, perception.Spec{HalfLife: 3, Forget: 0.1, Capacity: 8}, d.Memory)
	m := engine.NewAgent("k", d).Memory()
	assert.Equal(t, 3.0, m.HalfLife)
	assert.Equal(t, 8, m.Capacity)
	_, err = rt.LoadDomain("bad.lua")
	bad := filepath.Join(dir, "bad.lua")
	assert.EqualError(t, err, bad+":2:14: role: memory: half_life must be a positive number of seconds (math.huge: never fades), not -1\n"+
		bad+":2:30: role: memory: forget must be a confidence below 1 (negative: never forget), not 1\n"+
		bad+":2:42: role: memory: capacity must be a whole number of things from 1 to 1048576, not 2.5\n"+
		bad+`:2:58: role: memory: unknown key "size"`)
}

package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestTickAfterCloseFailsWithAnError: a game that closes a Runtime while
// agents of its domains are still in the world (a level unloaded one frame
// too early) gets failed actions and sensors that say the runtime is
// closed, not a nil-pointer panic out of gopher-lua that ends the game; the
// other agents tick on. Close twice is harmless, and loading into a closed
// runtime is an error.
func TestTickAfterCloseFailsWithAnError(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: "testdata/closed"})
	d, err := rt.LoadDomain("shop.lua")
	require.NoError(t, err)
	goRole, err := engine.Compile(engine.RoleSpec{
		Name:    "Clock",
		State:   []engine.Var{{Name: "n", Value: expr.NumberValue(0)}},
		Decide:  "utility",
		Actions: []engine.ActionSpec{engine.NewAction("count").Effects("n = n + 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec()},
	})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var lines []string
	w.OnEvent = func(e record.Event) { lines = append(lines, e.String()) }
	shop := engine.NewAgent("shop", d)
	w.Add(shop)
	w.Add(engine.NewAgent("clock", goRole))
	w.Tick(0.1)
	require.Equal(t, expr.NumberValue(1), shop.Get("ticks"), "the sensor ran before Close")
	require.NotNil(t, shop.Running(), "restock is mid-run at Close")

	rt.Close()
	lines = nil
	require.NotPanics(t, func() {
		for i := 0; i < 20; i++ {
			shop.Set("alarm", expr.BoolValue(i%2 == 0))
			w.Tick(0.1)
		}
	})
	all := strings.Join(lines, "\n")
	assert.Contains(t, all, `fail        goal=stocked action=restock reason="luabind: the runtime is closed`)
	assert.Contains(t, all, `sensor-failed action=clock reason="luabind: the runtime is closed`)
	assert.Contains(t, all, `intention-failed action=ring`)
	assert.Equal(t, expr.NumberValue(1), shop.Get("ticks"), "no Lua ran after Close")
	assert.Equal(t, expr.NumberValue(0), shop.Get("stock"))
	assert.Equal(t, expr.NumberValue(21), w.Agent("clock").Get("n"), "the Go agent ticks on: one count a tick, 1 + 20")

	assert.NotPanics(t, rt.Close, "a second Close")
	_, err = rt.LoadDomain("shop.lua")
	require.Error(t, err)
	assert.Equal(t, "luabind: the runtime is closed (Runtime.Close); load into a new one", err.Error())
	n, err := rt.Reload("testdata/closed/shop.lua", w.Agents)
	require.Error(t, err)
	assert.Equal(t, 0, n)
}

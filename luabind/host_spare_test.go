package luabind

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestHostCallHandles: the first call of a host method runs in the
// runtime's spare handle, yet a method that takes several ticks keeps its
// own arguments, memo and call across them while other agents' host calls
// run in between, and a host function that calls back into Lua, which
// calls a host method again, sees its own call unchanged.
func TestHostCallHandles(t *testing.T) {
	var rt *Runtime
	var inner *lua.LFunction
	var calls []string
	host := map[string]HostFunc{
		"walk": func(c *HostCall) (bool, error) {
			if c.First {
				c.Memo = 0
			}
			c.Memo = c.Memo.(int) + 1
			dir, _ := c.Args[0].AsString()
			n, _ := c.Args[1].AsNumber()
			calls = append(calls, fmt.Sprintf("walk %s %v first=%v memo=%d", dir, n, c.First, c.Memo))
			if c.Memo.(int) < int(n) {
				return false, nil
			}
			c.Results = append(c.Results[:0], expr.StringValue(dir), expr.NumberValue(float64(c.Memo.(int))))
			return true, nil
		},
		"ping": func(c *HostCall) (bool, error) {
			what, _ := c.Args[0].AsString()
			calls = append(calls, fmt.Sprintf("ping %s %d first=%v", what, len(c.Args), c.First))
			c.Results = append(c.Results, expr.StringValue("pong-"+what), expr.NumberValue(float64(len(c.Args))))
			return true, nil
		},
		"relay": func(c *HostCall) (bool, error) {
			out, err := rt.Call(c.Agent, inner, 1, rt.npc(c.Agent))
			if err != nil {
				return false, err
			}
			calls = append(calls, fmt.Sprintf("relay %s first=%v args=%d", c.Name, c.First, len(c.Args)))
			c.Results = append(c.Results, expr.StringValue("relayed-"+out[0].String()))
			return true, nil
		},
	}
	rt = NewRuntime(Options{InstructionBudget: testBudget, Host: host})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "host_spare.lua"))
	require.NoError(t, err)
	inner, err = rt.L.Load(strings.NewReader(`local npc = ... return (npc:ping("inner"))`), "inner")
	require.NoError(t, err)
	start := func(a *engine.Agent, name string) engine.Task {
		act := d.Action(name)
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		return task
	}
	walker, pinger := engine.NewAgent("walker", d), engine.NewAgent("pinger", d)
	walk := start(walker, "walk")
	for i := range 3 {
		st, err := walk.Resume(0.1)
		require.NoError(t, err)
		if i < 2 {
			require.Equal(t, engine.Running, st)
			st, err := start(pinger, "ping").Resume(0)
			require.NoError(t, err)
			require.Equal(t, engine.Succeeded, st)
		} else {
			require.Equal(t, engine.Succeeded, st)
		}
	}
	log, _ := walker.Get("log").AsString()
	assert.Equal(t, "walked north in 3", log)
	log, _ = pinger.Get("log").AsString()
	assert.Equal(t, "pong-outer 2 relayed-pong-innerpong-outer 2 relayed-pong-inner", log)
	assert.Equal(t, []string{
		"walk north 3 first=true memo=1",
		"ping outer 2 first=true", "ping inner 1 first=true", "relay relay first=true args=0",
		"walk north 3 first=false memo=2",
		"ping outer 2 first=true", "ping inner 1 first=true", "relay relay first=true args=0",
		"walk north 3 first=false memo=3",
	}, calls)
}

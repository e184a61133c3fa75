package luabind

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestWaitInScriptCoroutine pins what a script sees when it calls
// npc:wait or npc:wait_until inside a coroutine it made itself
// (coroutine.wrap, coroutine.create): the call yields to the script's
// resume, which receives the engine's sleep token (a protected userdata)
// and the seconds, or nothing for wait_until; the body is not put to
// sleep and goes on in the same tick. Its own npc:wait still sleeps.
func TestWaitInScriptCoroutine(t *testing.T) {
	withFastAndSlowNPC(t, func(t *testing.T) {
		var reports []string
		tick := 0
		rt := NewRuntime(Options{
			ScriptsDir: filepath.Join("testdata", "msg"),
			Print:      func(string) {},
			Host: map[string]HostFunc{"report": func(c *HostCall) (bool, error) {
				msg, _ := c.Args[0].AsString()
				reports = append(reports, fmt.Sprintf("tick %d: %s", tick, msg))
				return true, nil
			}},
		})
		defer rt.Close()
		d, err := rt.LoadDomain("cowait.lua")
		require.NoError(t, err)
		w := engine.NewWorld(1)
		var fails []string
		w.OnEvent = func(e record.Event) {
			if e.Kind == record.EventFail {
				fails = append(fails, e.Reason)
			}
		}
		a := engine.NewAgent("a", d)
		w.Add(a)
		for tick = 1; tick <= 5; tick++ {
			w.Tick(0.1)
		}
		assert.Empty(t, fails)
		assert.Equal(t, []string{
			"tick 1: wrap wait: userdata protected 5",
			"tick 1: wrap again: woke",
			"tick 1: create wait_until: 1 suspended",
			"tick 3: after own wait",
		}, reports)
		assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	})
}

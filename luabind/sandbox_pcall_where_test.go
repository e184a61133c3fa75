package luabind

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pcallMessages runs each of exprs (a Lua call) under pcall in one action
// body and returns the messages pcall gave, with the script's path cut to
// "f:".
func pcallMessages(t *testing.T, prelude string, exprs []string) []string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "p.lua")
	var b strings.Builder
	b.WriteString("return { name = 'P', state = { log = '' }, actions = { { name = 'work', run = function(npc)\n")
	b.WriteString(prelude + "\n")
	b.WriteString("local out = {}\n")
	for _, e := range exprs {
		fmt.Fprintf(&b, "do local ok, e = pcall(%s) out[#out + 1] = tostring(e) end\n", e)
	}
	b.WriteString("npc.state.log = table.concat(out, '\\n')\nend } } }\n")
	require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
	rt := NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"fail": func(c *HostCall) (bool, error) { return true, errors.New("no ammo") },
		"failslow": func(c *HostCall) (bool, error) {
			if c.First {
				return false, nil
			}
			return true, errors.New("lost")
		},
	}})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	a := engine.NewAgent("p", d)
	act := d.Action("work")
	task, err := act.Body.Start(a, act)
	require.NoError(t, err)
	st := engine.Running
	for i := 0; i < 30 && st == engine.Running; i++ {
		st, err = task.Resume(0.1)
		require.NoError(t, err)
	}
	log, _ := a.Get("log").AsString()
	return strings.Split(strings.ReplaceAll(log, file+":", "f:"), "\n")
}

// TestPcallErrorsNameTheCallersLine: the message pcall returns names
// the script line as Lua places it: error(msg, 2) the line that called
// the function raising it (gopher-lua named the error line itself), a
// host method that fails over ticks and an npc method called without a
// colon (raised in luabind's own Lua) the line that called the method,
// with the Lua and the Go npc methods, the fast npc and the slow; error(msg,
// 0) still has no position and no heap address shows.
func TestPcallErrorsNameTheCallersLine(t *testing.T) {
	defer func(h, w, s bool) { testHooks.luaHost, testHooks.luaWait, testHooks.slowNPC = h, w, s }(testHooks.luaHost, testHooks.luaWait, testHooks.slowNPC)
	lib := "local function lvl2() error('two', 2) end\nlocal function lvl1() error('one', 1) end\n" +
		"local function lvl3() error('three', 3) end\nlocal function c2() lvl2() end\nlocal function c3() c2() end"
	cases := []struct{ expr, want string }{
		{"function() lvl2() end", "@ two"},
		{"function() c2() end", "f:5: two"},
		{"function() c3() end", "f:5: two"},
		{"function() lvl1() end", "f:3: one"},
		{"function() lvl3() end", "@ three"},
		{"function() error('x', 0) end", "x"},
		{"function() error('x', 9) end", "@ x"},
		{"function() npc:fail() end", "@ npc:fail: no ammo"},
		{"function() npc:failslow() end", "@ npc:failslow: lost"},
		{"function() pcall(function() npc:failslow() end) npc:failslow() end", "@ npc:failslow: lost"},
		{"npc.failslow, npc", "@ npc:failslow: lost"},
		{"npc.fail, npc", "@ npc:fail: no ammo"},
		{"function() npc.achieve('x') end", "@ npc:achieve is a method: call it with a colon, npc:achieve(...), not npc.achieve(...)"},
		{"function() npc.wait_event() end", "@ npc:wait_event is a method: call it with a colon, npc:wait_event(...), not npc.wait_event(...)"},
		{"function() npc:wait(-1) end", "@ npc:wait: seconds must be a number >= 0, got -1"},
		{"function() local x return x[{}] end", "@ attempt to index a non-table object(nil) with key 'table'"},
		{"function() error({}) end", "table: #1"},
	}
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = c.expr
	}
	for _, flags := range [][3]bool{{false, false, false}, {true, true, true}, {false, true, false}} {
		testHooks.luaHost, testHooks.luaWait, testHooks.slowNPC = flags[0], flags[1], flags[2]
		got := pcallMessages(t, lib, exprs)
		require.Len(t, got, len(cases))
		for i, c := range cases {
			assert.Equal(t, strings.ReplaceAll(c.want, "@", fmt.Sprintf("f:%d:", 8+i)), got[i], "%s (Lua host, Lua wait, slow npc: %v)", c.expr, flags)
		}
	}
}

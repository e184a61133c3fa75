package luabind

import (
	"errors"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// runHost loads a role whose body is body, resumes it up to 6 times with
// the host methods' colon check in Lua (useLua) or in Go (hostStartColon),
// and returns the work of each resume, the agent and the error that ended
// the body. budget is the instruction budget (0: testBudget); a budget too
// small to load the role returns a nil agent and the load's error.
func runHost(t *testing.T, dir, name, body string, useLua bool, budget int) (works []int64, a *engine.Agent, err error) {
	t.Helper()
	defer func(old bool) { testHooks.luaHost = old }(testHooks.luaHost)
	testHooks.luaHost = useLua
	return runWorkRole(t, dir, name, "H", body, budget, map[string]HostFunc{
		"noop": func(c *HostCall) (bool, error) { return true, nil },
		"pair": func(c *HostCall) (bool, error) {
			c.Results = []expr.Value{expr.NumberValue(float64(len(c.Args))), expr.StringValue("x")}
			return true, nil
		},
		"slow": func(c *HostCall) (bool, error) {
			c.Results = []expr.Value{expr.NumberValue(7)}
			return !c.First, nil
		},
		"fail": func(c *HostCall) (bool, error) { return true, errors.New("no ammo") },
		"failslow": func(c *HostCall) (bool, error) {
			return false, map[bool]error{true: nil, false: errors.New("lost")}[c.First]
		},
		"a_longer_name": func(c *HostCall) (bool, error) {
			return true, nil
		},
	})
}

// TestHostColonCostsAsLua: a host method whose colon check runs in Go
// (hostStartColon) spends, on every path, the work units the prelude's Lua
// check spent, and gives the same values and messages.
func TestHostColonCostsAsLua(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"calls", `for i = 1, 3 do npc:noop() npc.state.n = npc.state.n + 1 end`, ""},
		{"results", `local a, b = npc:pair(1, "two", true) npc.state.n = a + #b`, ""},
		{"over ticks", `local v = npc:slow() npc.state.n = v npc:slow()`, ""},
		{"as a value", `local f = npc.noop f(npc) npc.state.n = 1`, ""},
		{"tail call", `local function s() return npc:pair(1) end local a = s() npc.state.n = a`, ""},
		{"inside pcall", `assert(pcall(function() npc:slow() end)) npc.state.n = 4`, ""},
		{"a failing call", `npc:fail()`, "npc:fail: no ammo"},
		{"a failing call over ticks", `npc:failslow()`, "lost"},
		{"caught", `local ok, err = pcall(function() npc:fail() end) npc.state.n = #err`, ""},
		{"not a colon", `npc.noop()`, "npc:noop is a method: call it with a colon"},
		{"not a colon, a longer name", `npc.a_longer_name(5)`, "npc:a_longer_name is a method"},
		{"not a colon, a table", `npc.noop({})`, "npc:noop is a method"},
		{"another npc-like userdata", `npc.noop(npc.state)`, "bad argument #1 to 'noop'"},
		{"a bad argument", `npc:noop({})`, "bad argument #1 to 'noop'"},
		{"runaway", `while true do npc:noop() end`, "instruction budget exceeded"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assertCostsAsLua(t, runHost, dir, c.body, c.want) })
	}
}

// TestHostColonStopsAsLua: a budget that runs out at any unit of a resume
// that calls host methods stops both ways with the same message and work.
func TestHostColonStopsAsLua(t *testing.T) {
	for _, body := range []string{
		`npc:noop() npc:pair(1, 2) npc:noop()
npc.state.n = 1`,
		`local function s() return npc:noop() end
s() s() npc:slow()`,
	} {
		t.Run("", func(t *testing.T) { stopsAsLua(t, runHost, body) })
	}
}

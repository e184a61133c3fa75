package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// runWait loads a role whose body is body, resumes it up to 6 times with
// the Lua npc:wait of the prelude (lua) or goWait, and returns the work
// of each resume and the error that ended it. budget is the instruction
// budget (0: testBudget).
func runWait(t *testing.T, dir, name, body string, useLua bool, budget int) (works []int64, a *engine.Agent, err error) {
	t.Helper()
	defer func(old bool) { testHooks.luaWait = old }(testHooks.luaWait)
	testHooks.luaWait = useLua
	return runWorkRole(t, dir, name, "W", body, budget, nil)
}

// TestGoWaitCostsAsLua: goWait spends, on every path of npc:wait, the work
// units the prelude's Lua npc:wait spent, gives the same values and fails
// with the same messages.
func TestGoWaitCostsAsLua(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"waits", `for i = 1, 3 do npc:wait(0.1) npc.state.n = npc.state.n + 1 end`, ""},
		{"waits longer", `npc:wait(0.25) npc.state.n = 1`, ""},
		{"no wait", `npc:wait(0) npc:wait(-0.0) npc:wait(1e-9) npc.state.n = 2`, ""},
		{"NaN seconds", `npc:wait(0/0)`, "npc:wait: seconds must be a number >= 0, got nan"},
		{"negative seconds", `npc:wait(-5)`, "npc:wait: seconds must be a number >= 0, got -5"},
		{"minus infinity", `npc:wait(-1/0)`, "npc:wait: seconds must be a number >= 0, got -inf"},
		{"minus math.huge", `npc:wait(-math.huge)`, "npc:wait: seconds must be a number >= 0, got -math.huge"},
		{"negative seconds caught", `local ok, err = pcall(npc.wait, npc, -0.5) npc.state.n = ok and 0 or #err`, ""},
		{"its value", `local a, b = npc:wait(0.1) npc.state.n = select("#", a, b) + (a == nil and 10 or 0)`, ""},
		{"as a value", `local w = npc.wait w(npc, 0.1) npc.state.n = 3`, ""},
		{"inside pcall", `assert(pcall(function() npc:wait(0.1) end)) npc.state.n = 4`, ""},
		{"in a coroutine", `local co = coroutine.wrap(function() npc:wait(0.1) npc.state.n = 5 end)
local tok, s = co() co()`, ""},
		{"in wait_until", `local k = 0 npc:wait_until(function() k = k + 1 return k > 2 end) npc.state.n = k`, ""},
		{"not a colon", `npc.wait(0.1)`, "npc:wait is a method: call it with a colon"},
		{"not a colon, nil", `npc.wait()`, "npc:wait is a method: call it with a colon"},
		{"bad seconds", `npc:wait("1")`, "bad argument #1 to 'wait' (number expected, got string)"},
		{"no seconds", `npc:wait()`, "bad argument #1 to 'wait' (number expected, got nil)"},
		{"bad seconds, a table", `npc:wait({})`, "bad argument #1 to 'wait' (number expected, got table)"},
		{"caught", `local ok, err = pcall(npc.wait, 5) npc.state.n = #err`, ""},
		{"inside a metamethod", `local t = setmetatable({}, { __index = function() npc:wait(0.1) end }) local x = t.x`,
			"cannot wait or yield inside a metamethod"},
		{"inside a callback", `string.gsub("a", "a", function() npc:wait(0.1) end)`,
			"cannot wait or yield inside a callback of string.gsub"},
		{"runaway", `while true do npc:wait(0) end`, "instruction budget exceeded"},
		{"tail call", `local function w(s) return npc:wait(s) end
w(0.1) w(0) local a, b = w(0.1) npc.state.n = (a == nil and b == nil) and 7 or 0`, ""},
		{"tail call, not a colon", `local function w(s)
  return npc.wait(s)
end
w(0.1)`, "npc:wait is a method"},
		{"tail call, bad seconds", `local function w(s)
  return npc:wait(s)
end
w("x")`, "bad argument #1 to 'wait'"},
		{"tail call, negative seconds", `local function w(s)
  return npc:wait(s)
end
w(-1)`, "got -1"},
		{"tail call inside a metamethod", `local t = setmetatable({}, { __index = function() return npc:wait(0.1) end })
local x = t.a`, "cannot wait or yield inside a metamethod"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assertCostsAsLua(t, runWait, dir, c.body, c.want) })
	}
}

// TestGoWaitStopsAsLua: a budget that runs out at any unit of a resume
// that waits stops both versions with the same message and work.
func TestGoWaitStopsAsLua(t *testing.T) {
	for _, body := range []string{
		`npc:wait(0.1) npc:wait(0) npc:wait(0.1) npc.state.n = 1`,
		// The body resumes the coroutine that waits: the unit after the
		// wait's yield is charged in the middle of the body's resume.
		`local co = coroutine.wrap(function()
  npc:wait(0.1) npc.state.n = npc.state.n + 1
end)
co() co()`,
		`local function w(s) return npc:wait(s) end
w(0.1) w(0) w(0.1) npc.state.n = 1`,
		`local co = coroutine.create(function()
  local a, b = npc:wait(0.1) npc.state.n = npc.state.n + (b == nil and 1 or 0)
end)
coroutine.resume(co) local ok, err = coroutine.resume(co, 1, 2) assert(ok, err)`,
	} {
		t.Run("", func(t *testing.T) { stopsAsLua(t, runWait, body) })
	}
}

// TestGoWaitOutsideABody: npc:wait in a callback fails with the same
// message and work both ways.
func TestGoWaitOutsideABody(t *testing.T) {
	run := func(useLua bool) (int64, error) {
		defer func(old bool) { testHooks.luaWait = old }(testHooks.luaWait)
		testHooks.luaWait = useLua
		rt := NewRuntime(Options{InstructionBudget: testBudget})
		defer rt.Close()
		file := filepath.Join(t.TempDir(), "w.lua")
		require.NoError(t, os.WriteFile(file, []byte("return { name = 'W', state = { n = 0 }, actions = { { name = 'a' } } }"), 0o644))
		d, err := rt.LoadDomain(file)
		require.NoError(t, err)
		fn, err := rt.L.LoadString("local npc = ... npc:wait(1)")
		require.NoError(t, err)
		a := engine.NewAgent("w", d)
		_, err = rt.Call(a, fn, 0, rt.npc(a))
		return rt.budget.n, err
	}
	luaN, luaErr := run(true)
	goN, goErr := run(false)
	require.Error(t, luaErr)
	require.Error(t, goErr)
	assert.Contains(t, goErr.Error(), "npc:wait can only be called in an action body (run), not in a callback")
	assert.Equal(t, luaErr.Error(), goErr.Error())
	assert.Equal(t, luaN, goN)
}

// TestWaitRefusesNaNAndNegativeSecondsAtTheCallersLine: npc:wait(0/0)
// and npc:wait(-5) fail with a message naming the script line that
// called them; npc:wait(0) returns at once (the body goes on in the same
// resume) and npc:wait(math.huge) waits for good.
func TestWaitRefusesNaNAndNegativeSecondsAtTheCallersLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, body, want string }{
		{"nan", "npc.state.n = 1\nnpc:wait(0/0)", ":4: npc:wait: seconds must be a number >= 0, got nan"},
		{"negative", "npc:wait(-5)", ":3: npc:wait: seconds must be a number >= 0, got -5"},
		{"fraction", "npc:wait(-0.25)", ":3: npc:wait: seconds must be a number >= 0, got -0.25"},
	} {
		_, _, err := runWait(t, dir, c.name, c.body, false, 0)
		require.Error(t, err, c.name)
		assert.Equal(t, filepath.Join(dir, c.name+".lua")+c.want, err.Error(), c.name)
	}

	works, a, err := runWait(t, dir, "zero", "npc:wait(0) npc:wait(0) npc.state.n = 1", false, 0)
	require.NoError(t, err)
	assert.Len(t, works, 1, "npc:wait(0) does not yield: the body ends in its first resume")
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))

	works, a, err = runWait(t, dir, "huge", "npc:wait(math.huge) npc.state.n = 1", false, 0)
	require.NoError(t, err)
	assert.Len(t, works, 6, "npc:wait(math.huge) is still waiting after every resume")
	assert.Equal(t, expr.BoolValue(false), a.Get("done"))
}

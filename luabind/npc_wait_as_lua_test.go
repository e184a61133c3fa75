package luabind

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Attacks on the fast paths of the fourth session (the Go npc:wait and
// colon check here, the npc.state mirror in npc_statemirror_as_lua_test.go):
// each body runs both ways and must spend the same work, end with the
// same state and fail with the same message.

// compareBothWays runs body in runMirrored's role with the switch *old
// false (the fast path) and true (the old one: noMirror, slowNPC,
// luaWait or luaHost of testHooks) and asserts the same work per resume, the same
// error and the same final state.
func compareBothWays(t *testing.T, body string, old *bool) {
	t.Helper()
	defer func(v bool) { *old = v }(*old)
	fastDir, slowDir := t.TempDir(), t.TempDir()
	*old = false
	fastWork, fast, _, fastErr := runMirrored(t, fastDir, "r", body, false)
	*old = true
	slowWork, slow, _, slowErr := runMirrored(t, slowDir, "r", body, old == &testHooks.noMirror)
	assert.Equal(t, slowWork, fastWork, "the same work units per resume")
	if slowErr == nil {
		assert.NoError(t, fastErr)
	} else {
		require.Error(t, fastErr)
		assert.Equal(t, strings.ReplaceAll(slowErr.Error(), slowDir, ""), strings.ReplaceAll(fastErr.Error(), fastDir, ""), "the same message")
	}
	for _, k := range []string{"n", "m", "s", "flag", "done"} {
		fv, sv := fast.Get(k), slow.Get(k)
		if fs, ok := fv.AsString(); ok {
			ss, _ := sv.AsString()
			assert.Equal(t, strings.ReplaceAll(ss, slowDir, ""), strings.ReplaceAll(fs, fastDir, ""), k)
			continue
		}
		assert.Equal(t, sv, fv, k)
	}
}

// manyVars is a role of 24 number state variables v1..v24 whose body is
// %s.
// loadRole loads role source src into a new runtime whose host method
// bump adds 10 to state n (as runMirrored's does).
// TestFastNPCAnswersAsNPCIndex: lookups of the fast npc object
// through chains of tables as long as gopher-lua walks.
// TestGoWaitAsLua: npc:wait called in odd ways costs, answers and
// fails as the prelude's Lua version.
func TestGoWaitAsLua(t *testing.T) {
	many := func(n int) string {
		var names []string
		for i := 1; i <= n; i++ {
			names = append(names, fmt.Sprintf("a%d", i))
		}
		return "local " + strings.Join(names, ", ") + " = npc:wait(0.1)\nnpc.state.n = (a1 == nil and " + names[n-1] + " == nil) and " + fmt.Sprint(n) + " or -1"
	}
	cases := []struct{ name, body string }{
		{"huge, inf, tiny, negative zero", `npc:wait(math.huge) npc.state.n = 1`},
		{"minus inf and the threshold", `npc:wait(-math.huge) npc:wait(1e-9) npc:wait(-0.0) npc:wait(1.0000001e-9) npc.state.n = 2`},
		{"extra arguments", `local a, b, c = npc:wait(0.1, 2, 3) npc.state.n = (a == nil and b == nil and c == nil) and 3 or -1`},
		{"a string number", `npc:wait("0.1")`},
		{"a table with metamethods", `npc:wait(setmetatable({}, { __tonumber = function() return 1 end, __index = function() return 1 end }))`},
		{"another userdata as self", `npc.wait(npc.state, 0.1) npc.state.n = 4`},
		{"a table as self", `npc.wait({}, 0.1)`},
		{"through __call", `local w = setmetatable({}, { __call = npc.wait }) w(0.1)`},
		{"in an expression", `local x = (npc:wait(0.1)) or 5 npc.state.n = x`},
		{"in a table constructor", `local t = { npc:wait(0.1) } npc.state.n = #t + select("#", npc:wait(0.1))`},
		{"as an argument", `npc.state.s = tostring(select("#", npc:wait(0.1), npc:wait(0.1)))`},
		{"ten results", many(10)},
		{"190 results", many(190)},
		{"a coroutine whose function tail-calls npc:wait", `local w = coroutine.wrap(function(s) return npc:wait(s) end)
local tok, s = w(0.1)
npc.state.s = tostring(s) .. " " .. select("#", w(1, 2))`},
		{"a coroutine of npc.wait itself", `local co = coroutine.create(npc.wait)
local r = { coroutine.resume(co, npc, 0.1) }
local r2 = { coroutine.resume(co, "x", "y") }
npc.state.s = tostring(r[1]) .. " " .. tostring(r[3]) .. " " .. tostring(r2[1]) .. " " .. tostring(r2[2]) .. " " .. coroutine.status(co)`},
		{"a wrapped npc.wait", `local w = coroutine.wrap(npc.wait)
local tok, s = w(npc, 0.1)
npc.state.s = tostring(s) .. " " .. select("#", w(1, 2, 3))`},
		{"pcall of npc.wait itself", `local ok, err = pcall(npc.wait, npc, 0.1) npc.state.s = tostring(ok) .. " " .. tostring(err)`},
		{"pcall of npc.wait with a bad argument", `local ok, err = pcall(npc.wait, npc, "x") npc.state.s = tostring(ok) .. " " .. tostring(err)`},
		{"a script coroutine resumed with more and fewer values", `local co = coroutine.create(function(...)
  local a, b, c = npc:wait(0.1)
  local d = npc:wait(0.1)
  return a, b, c, d
end)
local r1 = { coroutine.resume(co) }
local r2 = { coroutine.resume(co, 1, 2, 3, 4) }
local r3 = { coroutine.resume(co) }
npc.state.s = #r1 .. #r2 .. #r3 .. tostring(r3[1]) .. tostring(r3[2]) .. coroutine.status(co)`},
		{"a wrapped tail-calling wait through pcall", `local w = coroutine.wrap(function(s) return npc:wait(s) end)
local ok, tok, s = pcall(w, 0.1)
local ok2, err2 = pcall(w)
local ok3, err3 = pcall(w)
npc.state.s = tostring(ok) .. tostring(s) .. tostring(ok2) .. tostring(err2) .. tostring(ok3) .. tostring(err3)`},
		{"a coroutine ending in a wait, its status", `local co = coroutine.create(function() return npc:wait(0.1) end)
local st = {}
st[#st + 1] = coroutine.status(co)
coroutine.resume(co)
st[#st + 1] = coroutine.status(co)
local r = { coroutine.resume(co, 1, 2) }
st[#st + 1] = coroutine.status(co) .. #r .. tostring(r[1])
r = { coroutine.resume(co) }
st[#st + 1] = tostring(r[1]) .. tostring(r[2])
npc.state.s = table.concat(st, ",")`},
		{"a body's pcall of a function ending in a wait", `local ok, a = pcall(function() return npc:wait(0.1) end) npc.state.s = tostring(ok) .. tostring(a)`},
		{"nested coroutines ending in waits", `local outer = coroutine.wrap(function()
  local inner = coroutine.wrap(function() return npc:wait(0.1) end)
  local tok, s = inner()
  coroutine.yield(s)
  inner()
  return npc:wait(0.2)
end)
local a = outer()
local tok, b = outer()
outer()
npc.state.s = tostring(a) .. " " .. tostring(b)`},
		{"a body that returns a wait through another function", `local function last(s) return npc:wait(s) end
npc.state.n = 1
do return last(0.1) end`},
		{"wait inside wait_until's test", `npc:wait_until(function() npc:wait(0.1) return true end) npc.state.n = 6`},
		{"inside __tostring", `local t = setmetatable({}, { __tostring = function() npc:wait(0.1) return "x" end }) npc.state.s = tostring(t)`},
		{"inside table.sort", `local l = { 3, 1, 2 } table.sort(l, function(a, b) npc:wait(0.1) return a < b end)`},
		{"a runaway of waits through a tail call", `local function w() return npc:wait(0) end
while true do w() end`},
		{"a runaway of pcall'd waits", `while true do pcall(npc.wait, npc, 0) end`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { compareBothWays(t, c.body, &testHooks.luaWait) })
	}
}

// TestHostColonAsLua: host methods called in odd ways cost,
// answer and fail as the prelude's Lua colon check.
func TestHostColonAsLua(t *testing.T) {
	cases := []struct{ name, body string }{
		{"dot call", `npc.bump()`},
		{"another userdata as self", `local ok, err = pcall(npc.bump, npc.state) npc.state.s = tostring(ok) .. " " .. tostring(err)`},
		{"a number as self", `local ok, err = pcall(npc.bump, 5) npc.state.s = tostring(ok) .. " " .. tostring(err)`},
		{"tail call", `local function b() return npc:bump() end b() b() npc.state.s = tostring(select("#", b()))`},
		{"through __call", `local b = setmetatable({}, { __call = npc.bump }) b()`},
		{"runaway", `while true do npc:bump() end`},
		{"runaway dot calls", `while true do pcall(npc.bump) end`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { compareBothWays(t, c.body, &testHooks.luaHost) })
	}
}

// TestGoWaitEndingACoroutineStopsAsLua: a budget that runs out at
// any unit of a resume whose wait ends a coroutine (its main function, or
// tail-called by it) stops both versions alike.
func TestGoWaitEndingACoroutineStopsAsLua(t *testing.T) {
	for _, body := range []string{
		`local co = coroutine.create(npc.wait)
coroutine.resume(co, npc, 0.1) local ok, err = coroutine.resume(co) npc.state.n = ok and 1 or 2`,
		`local w = coroutine.wrap(function(s) return npc:wait(s) end)
w(0.1) w() npc.state.n = 1`,
	} {
		t.Run("", func(t *testing.T) { stopsAsLua(t, runWait, body) })
	}
	// A body that tail-calls npc:wait: the Lua version's tail call
	// replaced the body's frame, so a stop inside it named no line; goWait
	// names the body's (the same work, the message one position longer).
	body := `npc.state.n = 1 do return npc:wait(0.1) end`
	dir := t.TempDir()
	full, _, err := runWait(t, dir, "full", body, true, 0)
	require.NoError(t, err)
	for limit := 1; limit <= int(full[0])+2; limit++ {
		luaWork, _, luaErr := runWait(t, dir, "lu", body, true, limit)
		goWork, _, goErr := runWait(t, dir, "go", body, false, limit)
		assert.Equal(t, luaWork, goWork, "limit %d", limit)
		if luaErr == nil {
			assert.NoError(t, goErr, "limit %d", limit)
			continue
		}
		require.Error(t, goErr, "limit %d", limit)
		lm, gm := stripDir(luaErr.Error(), dir, "lu"), stripDir(goErr.Error(), dir, "go")
		if lm != gm {
			assert.Equal(t, ":3: "+lm, gm, "limit %d", limit)
		}
	}
}

// TestBodyEndingInAWaitWaits: a body whose last statement is
// return npc:wait(s) waits s seconds and then succeeds, as with the Lua
// npc:wait (gopher-lua took goWait's yield there for the body's end).
func TestBodyEndingInAWaitWaits(t *testing.T) {
	for _, useLua := range []bool{true, false} {
		works, a, err := runWait(t, t.TempDir(), "w", `npc.state.n = npc.state.n + 1 do return npc:wait(0.25) end`, useLua, 0)
		require.NoError(t, err)
		assert.Len(t, works, 4, "lua %v: three resumes waiting, the fourth ends the body", useLua)
		assert.Equal(t, expr.NumberValue(1), a.Get("n"))
		assert.Equal(t, expr.BoolValue(false), a.Get("done"), "the body returned before its last line")
	}
}

// TestSleepersInAWorld: agents whose bodies sleep in npc:wait in
// every way (sleepers.lua) make the same events whether the agent skips
// their sleeping resumes (engine.Sleeper) or resumes them every tick, and
// with the Lua npc:wait, with ticks of varying dt.
func TestSleepersInAWorld(t *testing.T) {
	run := func(useLua, awake bool) []string {
		defer func(old bool) { testHooks.luaWait = old }(testHooks.luaWait)
		testHooks.luaWait = useLua
		rt := NewRuntime(Options{InstructionBudget: testBudget})
		defer rt.Close()
		d, err := rt.LoadDomain("testdata/sleepers/sleepers.lua")
		require.NoError(t, err)
		if awake {
			for _, act := range d.Actions {
				act.Body = awakeBody{act.Body}
			}
		}
		w := engine.NewWorld(1)
		var events []string
		w.OnEvent = func(e record.Event) {
			events = append(events, fmt.Sprintf("%.4f %s %v %s %s %s", e.Time, e.Agent, e.Kind, e.Goal, e.Action, e.Reason))
		}
		var agents []*engine.Agent
		for i := range 4 {
			a := engine.NewAgent(fmt.Sprintf("s%d", i), d)
			a.Set("food", expr.NumberValue(float64(i)))
			w.Add(a)
			agents = append(agents, a)
		}
		dts := []float64{1.0 / 60, 1.0 / 60, 1.0 / 30, 1.0 / 60, 0.05, 1.0 / 60, 1.0 / 60}
		for i := range 900 {
			w.Tick(dts[i%len(dts)])
		}
		for _, a := range agents {
			events = append(events, fmt.Sprint(a.Name, " naps ", a.Get("naps"), " meals ", a.Get("meals")))
		}
		return events
	}
	want := run(true, true)
	require.Greater(t, len(want), 100, "the agents eat, sleep and are interrupted")
	kinds := map[string]int{}
	for _, e := range want {
		if f := strings.Fields(e); len(f) > 2 {
			kinds[f[2]]++
		}
	}
	t.Logf("events by kind: %v", kinds)
	assert.Equal(t, want, run(true, false), "the Lua npc:wait, sleeps skipped")
	assert.Equal(t, want, run(false, true), "goWait, resumed every tick")
	assert.Equal(t, want, run(false, false), "goWait, sleeps skipped")
}

// awakeBody hides that a body's tasks are engine.Sleepers, so the agent
// resumes them on every tick.
type awakeBody struct{ b engine.Body }

func (b awakeBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	t, err := b.b.Start(a, act)
	if err != nil {
		return nil, err
	}
	return awakeTask{t}, nil
}

type awakeTask struct{ engine.Task }

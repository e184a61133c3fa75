package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// mirrorRole is a one-action role whose body is %s, with state variables
// of each kind.
const mirrorRole = "return { name = 'M', state = { n = 0, m = 2, s = 'x', flag = false, done = false },\n" +
	"  actions = { { name = 'work', run = function(npc)\n%s\nnpc.state.done = true\nend } } }\n"

// runMirrored loads a role whose body is body, resumes it up to 5 times
// with npc.state fast (its mirror on) or, with off, through stateIndex,
// and returns the work of each resume, the agent and the error that
// ended the body. seen reports, from a host call, whether npc.state was
// fast then.
func runMirrored(t *testing.T, dir, name, body string, off bool) (works []int64, a *engine.Agent, seen []bool, err error) {
	t.Helper()
	defer func(old bool) { testHooks.noMirror = old }(testHooks.noMirror)
	testHooks.noMirror = off
	file := writeMirrorRole(t, dir, name, body)
	var rt *Runtime
	rt = NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"bump": func(c *HostCall) (bool, error) {
			c.Agent.Set("s", expr.StringValue("bumped"))
			return bumpN(c)
		},
		"look": func(c *HostCall) (bool, error) {
			ud := rt.npc(c.Agent).Value.(*npcRef).state
			seen = append(seen, rt.budget.fastState == ud && ud.Metatable == rt.stFastMeta)
			return true, nil
		},
	}})
	defer rt.Close()
	a, task := startWork(t, rt, file, "m", nil)
	works, err = resumeWork(task, 5, func(i int) {
		a.Set("m", expr.NumberValue(float64(2+i))) // the game changes state between ticks
	})
	return works, a, seen, err
}

// TestFastStateCostsAndAnswersAsBefore: npc.state reads served by the
// mirror table spend exactly the work units, give the values and fail
// with the messages of reads through stateIndex, however the state
// changed (a host method, the game between ticks, the body itself) and
// however the read reaches npc.state (directly, as a method, through one
// or two tables' __index, from string.gsub's replacement table).
func TestFastStateCostsAndAnswersAsBefore(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"reads and writes", `for i = 1, 3 do
  npc.state.n = npc.state.n + npc.state.m
  if npc.state.flag then npc.state.n = -1 end
  npc:wait(0.1)
end`, ""},
		{"the game changes state between ticks", `local seen = 0
for i = 1, 4 do seen = seen * 10 + npc.state.m coroutine.yield() end
npc.state.n = seen`, ""},
		{"a host method changes state", `npc.state.n = 1
local a, s1 = npc.state.n, npc.state.s
npc:bump()
local b, s2 = npc.state.n, npc.state.s
assert(a == 1 and b == 11 and s1 == "x" and s2 == "bumped", a .. " " .. b .. " " .. s1 .. " " .. s2)
npc.state.n = a + b`, ""},
		{"strings, bools and nil", `npc.state.s = "y" .. npc.state.s
npc.state.flag = not npc.state.flag
assert(npc.state.s == "yx" and npc.state.flag == true)
npc.state.s = nil
assert(npc.state.s == nil)
npc.state.s = "z"
npc.state.n = #npc.state.s + (npc.state.flag and 100 or 0)`, ""},
		{"through one and two tables' __index", `local t = setmetatable({}, { __index = npc.state })
local u = setmetatable({ m = 40 }, { __index = t })
npc.state.n = 7
assert(t.n == 7 and u.n == 7 and u.m == 40 and t.m == npc.state.m and rawget(t, "n") == nil)
npc:bump()
npc.state.n = t.n + u.n`, ""},
		{"string.gsub's replacement table", `local t = setmetatable({}, { __index = npc.state })
npc.state.n = 5
local a = string.gsub("n m", "%a", t)
npc:bump()
local b = string.gsub("n", "%a", t)
assert(a == "5 " .. npc.state.m and b == "15", a .. " " .. b)`, ""},
		{"inside pcall and a coroutine", `assert(pcall(function() npc.state.n = npc.state.n + 1 end))
local co = coroutine.wrap(function() local x = npc.state.n coroutine.yield() npc.state.n = x + npc.state.m end)
co() npc:bump() co()`, ""},
		{"read as a method", `local ok, err = pcall(function() return npc.state:n() end)
npc.state.n = (ok and 1000 or 0) + #tostring(err)`, ""},
		{"unknown variable", `local x = npc.state.m local y = npc.state.nope`, "npc.state.nope: no such state variable"},
		{"unknown variable through a table", `local t = setmetatable({}, { __index = npc.state }) local y = t.mm`, "npc.state.mm: no such state variable"},
		{"a number key", `local x = npc.state[1]`, "npc.state.1: no such state variable"},
		{"ipairs through a table", `local t = setmetatable({}, { __index = npc.state })
for i, v in ipairs(t) do npc.state.n = v end`, ""},
		{"a table key", `local x = npc.state[{}]`, "string expected, got table"},
		{"runaway reads", `local x = npc.state.m
while true do x = npc.state.n end`, "4: instruction budget exceeded"},
		{"runaway reads through a table", `local t = setmetatable({}, { __index = npc.state })
while true do local x = t.n end`, "4: instruction budget exceeded"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fastWork, fast, _, fastErr := runMirrored(t, dir, "fast", c.body, false)
			slowWork, slow, _, slowErr := runMirrored(t, dir, "slow", c.body, true)
			if c.want == "" {
				require.NoError(t, slowErr)
				require.NoError(t, fastErr)
				assert.Equal(t, slowWork, fastWork, "the same work units per resume")
				assert.Equal(t, expr.BoolValue(true), fast.Get("done"))
			} else {
				require.Error(t, slowErr)
				require.Error(t, fastErr)
				assert.Contains(t, fastErr.Error(), c.want)
				assert.Equal(t, stripDir(slowErr.Error(), dir, "slow"), stripDir(fastErr.Error(), dir, "fast"), "the same message")
			}
			for _, k := range []string{"n", "s", "flag", "done"} {
				assert.Equal(t, slow.Get(k), fast.Get(k), k)
			}
		})
	}
}

// TestFastStateIsUsed: while a body runs, its npc.state has the mirror's
// metatable (and not with testHooks.noMirror), so the comparison above compares
// two different paths.
func TestFastStateIsUsed(t *testing.T) {
	dir := t.TempDir()
	body := `local x = npc.state.n npc:look() npc.state.n = x + 1 npc:look()`
	_, a, seen, err := runMirrored(t, dir, "on", body, false)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true}, seen)
	assert.Equal(t, expr.NumberValue(1), a.Get("n"))
	_, _, seen, err = runMirrored(t, dir, "off", body, true)
	require.NoError(t, err)
	assert.Equal(t, []bool{false, false}, seen)
}

// TestFastStateAgentsShareNoValues: the agents of one schema share one
// mirror table; each agent's body reads its own state, resumed in turn,
// and a body that keeps another agent's npc.state cannot read it.
func TestFastStateAgentsShareNoValues(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "share.lua")
	body := `local mine = npc.state.m
for i = 1, 3 do
  assert(npc.state.m == mine, "saw " .. npc.state.m .. " not " .. mine)
  npc.state.n = npc.state.n + npc.state.m
  local shared = chan.box()
  if shared.other and shared.other ~= npc.state then
    local ok, err = pcall(function() return shared.other.n end)
    npc.state.s = ok and "read another agent" or err
  end
  shared.other = npc.state
  npc:wait(0.1)
end`
	// The agents of a role share a module's own locals (testdata/channel.lua).
	src := "local chan = require(\"testdata.channel\")\n" + fmt.Sprintf(mirrorRole, body)
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	act := d.Action("work")
	var agents []*engine.Agent
	var tasks []engine.Task
	for i := range 3 {
		a := engine.NewAgent(fmt.Sprintf("a%d", i), d)
		a.Set("m", expr.NumberValue(float64(10*(i+1))))
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		agents, tasks = append(agents, a), append(tasks, task)
	}
	for range 4 {
		for i, task := range tasks {
			st, err := task.Resume(0.1)
			require.NoError(t, err, agents[i].Name)
			_ = st
		}
	}
	for i, a := range agents {
		assert.Equal(t, expr.NumberValue(float64(30*(i+1))), a.Get("n"), a.Name)
		assert.Equal(t, expr.BoolValue(true), a.Get("done"), a.Name)
		s, _ := a.Get("s").AsString()
		assert.Contains(t, s, "an npc object belongs to its own agent", a.Name)
	}
}

// TestFastStateGlobalsCannotReachIt: a script cannot route its global
// look-ups (GETGLOBAL, which the budget does not inspect) through
// npc.state's mirror: the environment's metatable is protected.
func TestFastStateGlobalsCannotReachIt(t *testing.T) {
	dir := t.TempDir()
	_, _, _, err := runMirrored(t, dir, "g", `setmetatable(_G, { __index = npc.state }) local x = n`, false)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "no such state variable")
}

// TestStateWithoutBudgetSeesItsWrites: without an instruction budget no
// budget check runs to keep a mirror exact, so a read after a write (in
// Lua or by a host method) sees the new value, on the fast npc too.
func TestStateWithoutBudgetSeesItsWrites(t *testing.T) {
	file := writeMirrorRole(t, t.TempDir(), "nobudget", `local before = npc.state.n
npc.state.n = 7
npc.state.m = npc.state.n + before
npc:bump()
npc.state.s = "n=" .. npc.state.n`)
	for _, opts := range []Options{{InstructionBudget: -1}, {InstructionBudget: testBudget}} {
		opts.Host = map[string]HostFunc{"bump": bumpN}
		rt := NewRuntime(opts)
		a, task := startWork(t, rt, file, "a", func(a *engine.Agent) { a.Set("n", expr.NumberValue(1)) })
		st, err := task.Resume(0.1)
		require.NoError(t, err)
		assert.Equal(t, engine.Succeeded, st)
		assert.Equal(t, expr.NumberValue(8), a.Get("m"), "budget %d", opts.InstructionBudget)
		assert.Equal(t, expr.StringValue("n=17"), a.Get("s"), "budget %d", opts.InstructionBudget)
		rt.Close()
	}
}

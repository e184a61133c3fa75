package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// chainTo is Lua that builds a chain of n tables, each one's __index the
// next, the last one's __index target, and leaves its head in local t.
func chainTo(n int, target string) string {
	return fmt.Sprintf(`local t = %s
for i = 1, %d do t = setmetatable({}, { __index = t }) end
`, target, n)
}

func TestMirrorAnswersAsStateIndex(t *testing.T) {
	cases := []struct{ name, body string }{
		// gopher-lua walks at most MaxTableGetLoop (100) objects of an
		// __index chain; the mirror table is one more object after
		// npc.state than stateIndex was.
		{"a chain of 97 tables", chainTo(97, "npc.state") + `npc.state.n = t.m`},
		{"a chain of 98 tables", chainTo(98, "npc.state") + `npc.state.n = t.m`},
		{"a chain of 99 tables", chainTo(99, "npc.state") + `npc.state.n = t.m`},
		{"a chain of 100 tables", chainTo(100, "npc.state") + `npc.state.n = t.m`},
		{"a chain of 99 tables, pcall", chainTo(99, "npc.state") + `local ok, err = pcall(function() return t.m end)
npc.state.s = tostring(ok) .. " " .. tostring(err)`},
		{"a chain of 99 tables, unknown", chainTo(99, "npc.state") + `local ok, err = pcall(function() return t.zz end)
npc.state.s = tostring(ok) .. " " .. tostring(err)`},
		{"a chain of 99 tables, a host write between", chainTo(99, "npc.state") + `local a = npc.state.n
npc:bump()
local ok, v = pcall(function() return t.n end)
npc.state.s = tostring(ok) .. " " .. tostring(v)`},
		{"state variable named like metamethods", `npc.state.n = npc.state.m + 1`},
		{"rawget, next, pairs, #, tostring, comparisons", `local r = {}
for _, f in ipairs({
  function() return rawget(npc.state, "n") end,
  function() return next(npc.state) end,
  function() return pairs(npc.state) end,
  function() return #npc.state end,
  function() return npc.state < npc.state end,
  function() return npc.state .. "" end,
  function() return npc.state() end,
  function() return npc.state + 1 end,
  function() return getmetatable(npc.state) end,
  function() return type(npc.state) end,
  function() return npc.state == npc.state end,
  function() return rawequal(npc.state, npc.state) end,
  function() return string.gsub("n m s", "%a", npc.state) end,
}) do
  local ok, v = pcall(f)
  r[#r + 1] = tostring(ok) .. ":" .. tostring(v)
end
npc.state.s = table.concat(r, "|")`},
		{"a metamethod of another table reads it", `local mt = { __add = function(a, b) return npc.state.n + b end, __call = function(self, k) return npc.state[k] end,
  __concat = function(a, b) return npc.state.s .. b end, __eq = function() return npc.state.flag end }
local u = setmetatable({}, mt)
npc.state.n = 4
npc:bump()
npc.state.n = (u + 1) + u("n")
npc.state.s = u .. "!"`},
		{"tostring of a number state", `npc.state.n = -0.0
local a = tostring(npc.state.n)
npc.state.n = 0/0
local b = tostring(npc.state.n ~= npc.state.n)
npc.state.n = 1e300 * 1e10
npc.state.s = a .. b .. tostring(npc.state.n)`},
		{"a read as the key of a read", `npc.state.s = "m"
npc.state.n = npc.state[npc.state.s] + 1`},
		{"state read in a script coroutine resumed after a host write", `local co = coroutine.create(function()
  for i = 1, 3 do coroutine.yield(npc.state.n) end
end)
local a = select(2, coroutine.resume(co))
npc:bump()
local b = select(2, coroutine.resume(co))
npc.state.n = 7
local c = select(2, coroutine.resume(co))
npc.state.s = a .. " " .. b .. " " .. c`},
		{"table.sort comparator reads state", `local l = { "m", "n" }
npc:bump()
table.sort(l, function(x, y) return npc.state[x] < npc.state[y] end)
npc.state.s = table.concat(l, ",")`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			compareBothWays(t, c.body, &testHooks.noMirror)
		})
	}
}

func manyVarsRole(body string) string {
	var b strings.Builder
	b.WriteString("return { name = 'M', state = { n = 0, m = 2, s = 'x', flag = false, done = false")
	for i := 1; i <= 24; i++ {
		fmt.Fprintf(&b, ", v%d = %d", i, i)
	}
	b.WriteString(" },\n  actions = { { name = 'work', run = function(npc)\n" + body + "\nnpc.state.done = true\nend } } }\n")
	return b.String()
}

func TestMirrorMoreThanMaxMirrored(t *testing.T) {
	body := `local sum = 0
for round = 1, 3 do
  for i = 1, 24 do sum = sum + npc.state["v" .. i] end
  npc:bump()
  for i = 24, 1, -1 do npc.state["v" .. i] = npc.state["v" .. i] + npc.state.n end
  coroutine.yield()
end
npc.state.n = sum`
	run := func(off bool) ([]int64, *engine.Agent) {
		defer func(old bool) { testHooks.noMirror = old }(testHooks.noMirror)
		testHooks.noMirror = off
		rt, d := loadRole(t, manyVarsRole(body))
		defer rt.Close()
		a := engine.NewAgent("m", d)
		act := d.Action("work")
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		var works []int64
		st := engine.Running
		for i := 0; i < 6 && st == engine.Running; i++ {
			a.Set("v20", expr.NumberValue(float64(100*i))) // the game writes a variable past the 16th
			st, err = task.Resume(0.1)
			require.NoError(t, err)
			works = append(works, task.(*luaTask).work)
		}
		return works, a
	}
	fastWork, fast := run(false)
	slowWork, slow := run(true)
	assert.Equal(t, slowWork, fastWork)
	for i := 1; i <= 24; i++ {
		k := fmt.Sprintf("v%d", i)
		assert.Equal(t, slow.Get(k), fast.Get(k), k)
	}
	assert.Equal(t, slow.Get("n"), fast.Get("n"))
	assert.Equal(t, expr.BoolValue(true), fast.Get("done"))
}

func loadRole(t *testing.T, src string) (*Runtime, *engine.Domain) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "role.lua")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	rt := NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"bump": func(c *HostCall) (bool, error) {
			n, _ := c.Agent.Get("n").AsNumber()
			c.Agent.Set("n", expr.NumberValue(n+10))
			return true, nil
		},
	}})
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	return rt, d
}

func TestFastNPCAnswersAsNPCIndex(t *testing.T) {
	for _, n := range []int{97, 98, 99, 100} {
		for _, key := range []string{"state", "name", "bump", "nope"} {
			t.Run(fmt.Sprintf("%d %s", n, key), func(t *testing.T) {
				// A lookup reaching the fast npc through a table is a
				// table lookup, charged less than npcIndex's (see
				// promote): the work is not compared.
				body := chainTo(n, "npc") + `local ok, v = pcall(function() return t.` + key + ` end)
npc.state.s = tostring(ok) .. " " .. type(v) .. " " .. (type(v) == "string" and v or "")`
				defer func(v bool) { testHooks.slowNPC = v }(testHooks.slowNPC)
				fastDir, slowDir := t.TempDir(), t.TempDir()
				testHooks.slowNPC = false
				_, fast, _, fastErr := runMirrored(t, fastDir, "r", body, false)
				testHooks.slowNPC = true
				_, slow, _, slowErr := runMirrored(t, slowDir, "r", body, false)
				require.NoError(t, slowErr)
				require.NoError(t, fastErr)
				fs, _ := fast.Get("s").AsString()
				ss, _ := slow.Get("s").AsString()
				assert.Equal(t, strings.ReplaceAll(ss, slowDir, ""), strings.ReplaceAll(fs, fastDir, ""))
				if n < 100 {
					assert.NotContains(t, fs, "too many recursions")
				}
			})
		}
	}
}

// TestMirrorAcrossAReload: agents of one role file, one of them
// reloaded onto a role whose schema puts a new variable before the
// others (every slot moves), read their own values, resumed in turn,
// fast and through stateIndex alike.
func TestMirrorAcrossAReload(t *testing.T) {
	role := func(extra string) string {
		return "return { name = 'M', state = { " + extra + "n = 0, m = 2, s = 'x' },\n" +
			"  actions = { { name = 'work', run = function(npc)\n" +
			"for i = 1, 3 do npc.state.n = npc.state.n * 10 + npc.state.m npc.state.s = npc.state.s .. npc.state.m npc:wait(0.1) end\n" +
			"end } } }\n"
	}
	run := func(off bool) []string {
		defer func(old bool) { testHooks.noMirror = old }(testHooks.noMirror)
		testHooks.noMirror = off
		file := filepath.Join(t.TempDir(), "m.lua")
		require.NoError(t, os.WriteFile(file, []byte(role("")), 0o644))
		rt := NewRuntime(Options{InstructionBudget: testBudget})
		defer rt.Close()
		d, err := rt.LoadDomain(file)
		require.NoError(t, err)
		var agents []*engine.Agent
		for i := range 3 {
			a := engine.NewAgent(fmt.Sprintf("a%d", i), d)
			a.Set("m", expr.NumberValue(float64(i+1)))
			agents = append(agents, a)
		}
		tick := func() {
			for _, a := range agents {
				act := a.Domain.Action("work")
				task, err := act.Body.Start(a, act)
				require.NoError(t, err)
				for st := engine.Running; st == engine.Running; {
					st, err = task.Resume(0.1)
					require.NoError(t, err, a.Name)
				}
			}
		}
		tick()
		require.NoError(t, os.WriteFile(file, []byte(role("z = 7, ")), 0o644))
		n, err := rt.Reload(file, agents[1:2])
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.NotSame(t, agents[0].Domain.Schema, agents[1].Domain.Schema)
		agents[1].Set("z", expr.NumberValue(9))
		agents[1].Set("m", expr.NumberValue(5))
		tick()
		var out []string
		for _, a := range agents {
			sv, _ := a.Get("s").AsString()
			out = append(out, sv)
		}
		return out
	}
	fast, slow := run(false), run(true)
	assert.Equal(t, slow, fast)
	assert.Equal(t, []string{"x111111", "x222555", "x333333"}, fast, "each agent reads its own m, the reloaded one from its new slot")
}

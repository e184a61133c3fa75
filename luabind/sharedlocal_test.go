package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// sharedMsg is the error of an agent's write to the top-level local name
// of file, at where ("path:line").
func sharedMsg(where, name, file string) string {
	return where + ": local '" + name + "' of " + file + " is shared by every agent of the role: " +
		"top-level locals are constants once the file has loaded (keep per-agent data in npc.state or in the body's own locals)"
}

// sharedRun runs agents named names (spread over workers, one Runtime
// each, as docs/embedding.md builds them) carrying the role file path
// for ticks ticks, and returns each agent's state variables vars and the
// reasons of the failures each recorded.
func sharedRun(t *testing.T, path string, names []string, workers, ticks int, vars ...string) (state map[string]string, fails map[string][]string) {
	t.Helper()
	w := engine.NewWorld(1)
	w.Workers = workers
	fails = map[string][]string{}
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails[e.Agent] = append(fails[e.Agent], e.Reason)
		}
	}
	per := len(names) / workers
	for k := range workers {
		rt := NewRuntime(Options{})
		t.Cleanup(rt.Close)
		d, err := rt.LoadDomain(path)
		require.NoError(t, err)
		for _, name := range names[k*per : (k+1)*per] {
			w.Add(engine.NewAgent(name, d))
			w.Pin(len(w.Agents)-1, k)
		}
	}
	for range ticks {
		w.Tick(0.1)
	}
	state = map[string]string{}
	for _, a := range w.Agents {
		s := ""
		for _, v := range vars {
			val := fmt.Sprint(a.Get(v))
			if u, err := strconv.Unquote(val); err == nil {
				val = u
			}
			s += " " + v + "=" + val
		}
		state[a.Name] = s[1:]
	}
	return state, fails
}

// writeRole writes a role file into a fresh folder and returns its path.
func writeRole(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

// TestSharedLocalCounterIsRefused: the trial helper's repro, where each
// agent counted into a top-level local and a top-level table, gave other
// values on 1 worker than on 2. Now each agent's first assignment fails
// at its line, naming the local, no agent sees another's writes, and 1
// and 2 workers agree.
func TestSharedLocalCounterIsRefused(t *testing.T) {
	path := filepath.Join("testdata", "shared_local", "counter.lua")
	names := []string{"c0", "c1", "c2", "c3"}
	one, fails1 := sharedRun(t, path, names, 1, 3, "n", "m")
	two, fails2 := sharedRun(t, path, names, 2, 3, "n", "m")
	assert.Equal(t, one, two, "1 and 2 workers give the same values")
	assert.Equal(t, fails1, fails2, "and the same failures")
	msg := sharedMsg(path+":8", "count", "counter.lua")
	for _, n := range names {
		assert.Equal(t, "n=0 m=0", one[n], "agent %s", n)
		require.NotEmpty(t, fails1[n], "agent %s", n)
		for _, reason := range fails1[n] {
			assert.Equal(t, msg, reason, "agent %s", n)
		}
	}
}

// TestSharedLocalTableWritesAreRefused: a write into a table a top-level
// local holds (nested tables too, and through table.insert or rawset)
// fails at its line, naming the local; the value stays what the file
// built.
func TestSharedLocalTableWritesAreRefused(t *testing.T) {
	path := writeRole(t, "tables.lua", `local seen = { 1, 2, deep = { x = 5 } }
return { name = "T", state = { s = "" }, decide = "utility",
  actions = { { name = "write", effects = "s = 'x'", run = function(npc)
    local out = {}
    for _, f in ipairs({
      function() seen[#seen + 1] = npc.name end,
      function() seen.deep.x = 6 end,
      function() table.insert(seen, 3) end,
      function() rawset(seen, 1, 0) end,
    }) do
      local ok, err = pcall(f)
      out[#out + 1] = tostring(ok) .. " " .. err
    end
    npc.state.s = table.concat(out, "|") .. "|" .. #seen .. " " .. seen.deep.x
  end } } }
`)
	state, fails := sharedRun(t, path, []string{"a"}, 1, 1, "s")
	assert.Empty(t, fails)
	msg := "local 'seen' of tables.lua is shared by every agent of the role: top-level locals are constants once the file has loaded (keep per-agent data in npc.state or in the body's own locals)"
	want := "false " + path + ":6: " + msg +
		"|false " + path + ":7: " + msg +
		"|false " + path + ":8: table.insert: " + msg +
		"|false " + path + ":9: rawset: " + msg +
		"|2 5"
	assert.Equal(t, "s="+want, state["a"])
}

// TestSharedLocalOtherAgentsUntouched: one agent's refused assignment
// leaves the value every other agent reads as the file set it.
func TestSharedLocalOtherAgentsUntouched(t *testing.T) {
	path := writeRole(t, "limit.lua", `local limit = 3
return { name = "L", state = { n = 0 }, decide = "utility",
  actions = { { name = "read", effects = "n = n + 1", run = function(npc)
    if npc.name == "w" then limit = 99 end
    npc.state.n = limit
  end } } }
`)
	for _, workers := range []int{1, 2} {
		state, fails := sharedRun(t, path, []string{"w", "r"}, workers, 2, "n")
		assert.Equal(t, map[string]string{"w": "n=0", "r": "n=3"}, state, "%d workers", workers)
		require.NotEmpty(t, fails["w"])
		assert.Equal(t, sharedMsg(path+":4", "limit", "limit.lua"), fails["w"][0])
		assert.Empty(t, fails["r"])
	}
}

// TestSharedLocalConstantsRead: a top-level table read from a body works
// as a module's does: indexing, nested tables, #, ipairs, pairs, next,
// unpack, table.concat and type: they are plain tables.
func TestSharedLocalConstantsRead(t *testing.T) {
	path := writeRole(t, "consts.lua", `local NAMES = { "ann", "bob", "cid", nested = { x = 7, list = { 4, 5 } } }
local SPEED = 2.5
local function total(list) local s = 0 for _, v in ipairs(list) do s = s + v end return s end
return { name = "C", state = { s = "" }, decide = "utility",
  actions = { { name = "read", effects = "s = 'x'", run = function(npc)
    local keys = 0
    for _ in pairs(NAMES) do keys = keys + 1 end
    local a, b = unpack(NAMES)
    npc.state.s = #NAMES .. " " .. keys .. " " .. NAMES[2] .. " " .. NAMES.nested.x .. " " ..
      total(NAMES.nested.list) .. " " .. #NAMES.nested.list .. " " .. table.concat(NAMES, ",") .. " " ..
      a .. b .. " " .. type(NAMES) .. " " .. tostring(next(NAMES) ~= nil) .. " " .. SPEED * 2
  end } } }
`)
	state, fails := sharedRun(t, path, []string{"a", "b"}, 1, 1, "s")
	assert.Empty(t, fails)
	want := "s=3 4 bob 7 9 2 ann,bob,cid annbob table true 5"
	assert.Equal(t, map[string]string{"a": want, "b": want}, state)
}

// TestSharedLocalBodyLocalsStayWritable: a body's own locals, and those
// of a function it calls, are fresh per call and stay writable, also
// when closures made during the call capture them.
func TestSharedLocalBodyLocalsStayWritable(t *testing.T) {
	path := writeRole(t, "own.lua", `local function counter()
  local k = 0
  return function() k = k + 1 return k end
end
return { name = "O", state = { n = 0 }, decide = "utility",
  actions = { { name = "own", effects = "n = n + 1", run = function(npc)
    local sum = 0
    local function add(x) sum = sum + x end
    local next_id = counter()
    add(next_id()) add(next_id()) add(next_id())
    npc.state.n = npc.state.n + sum
  end } } }
`)
	for _, workers := range []int{1, 2} {
		state, fails := sharedRun(t, path, []string{"a", "b"}, workers, 2, "n")
		assert.Empty(t, fails)
		assert.Equal(t, map[string]string{"a": "n=12", "b": "n=12"}, state, "%d workers", workers)
	}
}

// TestSharedLocalLoadTimeHelpers: load-time code may assign top-level
// locals (a helper numbering the actions the file builds); the same
// helper called from a body is refused.
func TestSharedLocalLoadTimeHelpers(t *testing.T) {
	path := writeRole(t, "ids.lua", `local n = 0
local function id() n = n + 1 return n end
local actions = {}
for i = 1, 2 do
  actions[i] = { name = "act" .. id(), effects = "k = k + 1", run = function(npc) npc.state.k = id() end }
end
return { name = "I", state = { k = 0 }, decide = "utility", actions = actions }
`)
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	assert.NotNil(t, d.Action("act1"))
	assert.NotNil(t, d.Action("act2"))
	state, fails := sharedRun(t, path, []string{"a"}, 1, 1, "k")
	assert.Equal(t, "k=0", state["a"])
	assert.Equal(t, []string{sharedMsg(path+":2", "n", "ids.lua")}, fails["a"])
}

// TestSharedLocalHotReload: a hot reload of a file whose body assigns a
// top-level local loads (the assignment runs later) and fails when the
// body runs, with the message; the first version, which only read it,
// ran.
func TestSharedLocalHotReload(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hot.lua")
	v1 := `local step = 1
return { name = "H", state = { n = 0 }, decide = "utility",
  actions = { { name = "go", effects = "n = n + 1", run = function(npc) npc.state.n = npc.state.n + step end } } }
`
	v2 := `local step = 1
return { name = "H", state = { n = 0 }, decide = "utility",
  actions = { { name = "go", effects = "n = n + 1", run = function(npc) step = step + 1 npc.state.n = npc.state.n + step end } } }
`
	require.NoError(t, os.WriteFile(path, []byte(v1), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("hot.lua")
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
	w.Tick(0.1)
	w.Tick(0.1)
	require.Empty(t, fails)
	require.Equal(t, expr.NumberValue(2), a.Get("n"))

	require.NoError(t, os.WriteFile(path, []byte(v2), 0o644))
	n, err := rt.Reload("hot.lua", w.Agents)
	require.NoError(t, err, "the assignment is refused when it runs, not at load")
	assert.Equal(t, 1, n)
	w.Tick(0.1)
	assert.Equal(t, []string{sharedMsg(path+":3", "step", "hot.lua")}, fails)
	assert.Equal(t, expr.NumberValue(2), a.Get("n"))
}

// TestSharedLocalClassesAndBuiltins: a class table at the top level
// (methods, __index) still makes instances at run time, which are the
// body's own; table.remove, table.sort and setmetatable on a frozen table
// are refused like an assignment.
func TestSharedLocalClassesAndBuiltins(t *testing.T) {
	path := writeRole(t, "class.lua", `local Vec = {}
Vec.__index = Vec
function Vec.new(x) return setmetatable({ x = x }, Vec) end
function Vec:double() self.x = self.x * 2 return self end
local list = { 3, 1, 2 }
return { name = "V", state = { s = "" }, decide = "utility",
  actions = { { name = "use", effects = "s = 'x'", run = function(npc)
    local v = Vec.new(4):double()
    local out = { v.x }
    for _, f in ipairs({
      function() table.remove(list) end,
      function() table.sort(list) end,
      function() setmetatable(list, nil) end,
      function() Vec.double = nil end,
    }) do
      local ok, err = pcall(f)
      out[#out + 1] = tostring(ok) .. " " .. err
    end
    npc.state.s = table.concat(out, "|") .. "|" .. table.concat(list, ",")
  end } } }
`)
	state, fails := sharedRun(t, path, []string{"a"}, 1, 1, "s")
	assert.Empty(t, fails)
	msg := func(name string) string {
		return "local '" + name + "' of class.lua is shared by every agent of the role: top-level locals are constants once the file has loaded (keep per-agent data in npc.state or in the body's own locals)"
	}
	want := "s=8" +
		"|false " + path + ":11: table.remove: " + msg("list") +
		"|false " + path + ":12: table.sort: " + msg("list") +
		"|false " + path + ":13: setmetatable: " + msg("list") +
		"|false " + path + ":14: " + msg("Vec") +
		"|3,1,2"
	assert.Equal(t, want, state["a"])
}

// TestModuleViewUnpackAndConcat: unpack and table.concat read a module's
// read-only view as a table; unpack's tables are views too.
func TestModuleViewUnpackAndConcat(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "words.lua"), []byte(`return { list = { "a", "b", { "c" } } }`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "role.lua"), []byte(`local words = require("words")
return { name = "W", state = { s = "" }, decide = "utility",
  actions = { { name = "use", effects = "s = 'x'", run = function(npc)
    local a, b, c = unpack(words.list)
    local ok = pcall(function() c[1] = "z" end)
    npc.state.s = a .. b .. c[1] .. " " .. table.concat(words.list, ",", 1, 2) .. " " .. tostring(ok)
  end } } }
`), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("role.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("a", d)
	w.Add(a)
	w.Tick(0.1)
	assert.Equal(t, expr.StringValue("abc a,b false"), a.Get("s"))
}

// TestSharedLocalModuleOfAParentRoleCountsAtLoad: a parent role, loaded
// while the role that extends it is read, shares that role's modules; a
// module function the child's bodies hold (so its counter is frozen once
// the child's file has returned) still counts when the parent's top
// level calls it: load-time code may assign anything.
func TestSharedLocalModuleOfAParentRoleCountsAtLoad(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"ids.lua": `local n = 0
local M = {}
function M.next() n = n + 1 return n end
return M
`,
		"base.lua": `local ids = require("ids")
return { name = "Base", state = { k = 0, first = ids.next() }, decide = "utility",
  actions = { { name = "rest", effects = "k = k + 1", run = function(npc) npc.state.k = npc.state.k + 1 end } } }
`,
		"child.lua": `local ids = require("ids")
local next_id = ids.next
return { name = "Child", extends = "base", decide = "utility",
  actions = { { name = "count", effects = "k = k + 2", run = function(npc) npc.state.k = next_id() end } } }
`,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("child.lua")
	require.NoError(t, err, "the parent's top level counts with the module the child froze")
	a := engine.NewAgent("a", d)
	assert.Equal(t, expr.NumberValue(1), a.Get("first"))
}

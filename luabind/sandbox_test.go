package luabind

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runChunk runs src as a script's top level in rt's sandbox.
func runChunk(rt *Runtime, src string) error {
	fn, err := rt.compile(strings.NewReader(src), "escape.lua")
	if err != nil {
		return luaError(err)
	}
	_, err = rt.call(nil, modeLoad, fn, 0)
	return err
}

func TestEscapeAttemptsAreRefused(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "escaped")
	tests := []struct {
		name   string
		reason string
		src    string
		want   string // a part of the error
	}{
		{"os.execute", "there is no os library", `os.execute("touch ` + marker + `")`, `attempt to index a non-table object(nil) with key 'execute'`},
		{"io.open", "there is no io library", `io.open("` + marker + `", "w")`, `attempt to index a non-table object(nil) with key 'open'`},
		{"dofile", "dofile reads files", `dofile("/etc/passwd")`, `attempt to call a non-function object`},
		{"loadfile", "loadfile reads files", `loadfile("/etc/passwd")`, `attempt to call a non-function object`},
		{"load", "load compiles text outside the checks", `load(function() return "os.exit(1)" end)()`, `attempt to call a non-function object`},
		{"loadstring", "loadstring compiles text outside the checks", `loadstring("return 1")()`, `attempt to call a non-function object`},
		{"require os", "require reads only the scripts folder; there is no os.lua there", `require("os")`, `require "os": no module file`},
		{"require parent folder", "a module name has no path parts", `require("../../etc/passwd")`, `a module name is identifiers separated by dots`},
		{"require absolute", "a module name has no path parts", `require("/etc/passwd")`, `a module name is identifiers separated by dots`},
		{"package.loadlib", "there is no package library", `package.loadlib("libc.so.6", "system")`, `with key 'loadlib'`},
		{"debug library", "there is no debug library", `debug.getregistry()`, `with key 'getregistry'`},
		{"string.dump", "string.dump is removed", `string.dump(print)`, `attempt to call a non-function object`},
		{"getfenv", "environments of other functions are out of reach", `getfenv(1).x = 1`, `attempt to call a non-function object`},
		{"setfenv", "environments of other functions are out of reach", `setfenv(1, {})`, `attempt to call a non-function object`},
		{"collectgarbage", "a full collection per call would stall the game", `collectgarbage("collect")`, `attempt to call a non-function object`},
		{"newproxy", "unchecked userdata", `newproxy(true)`, `attempt to call a non-function object`},
		{"module", "module writes globals", `module("evil")`, `attempt to call a non-function object`},
		{"replace a library function", "libraries are read-only", `string.rep = function() return "" end`, `string.rep: the string library is read-only`},
		{"rawset a library", "libraries are userdata proxies", `rawset(math, "random", function() return 4 end)`, `bad argument #1 to rawset (table expected, got userdata)`},
		{"table.insert into a library", "libraries are userdata proxies", `table.insert(math, 1)`, `bad argument #1 to insert (table expected, got userdata)`},
		{"string metatable", "the string metatable is protected", `getmetatable("").__index = {}`, `attempt to index a non-table object(string) with key '__index'`},
		{"setmetatable on numbers", "one metatable for every number would reach every script", `setmetatable(1, { __index = function() return 0 end })`, `bad argument #1 to setmetatable (table expected, got number)`},
		{"create a global", "globals are read-only", `x = 1`, `assignment to global "x"`},
		{"rawset the environment", "the environment is protected", `rawset(_G, "pairs", nil)`, `rawset: the table is protected`},
		{"replace the environment's metatable", "the environment is protected", `setmetatable(_G, nil)`, `cannot change a protected metatable`},
		{"change the DSL module", "the built-in module is shared", `require("moonmind").role = nil`, `escape.lua:1: role: the module "moonmind" is read-only`},
		{"huge string.rep", "16 MiB at most", `local s = string.rep("x", 1e10)`, `string too long: 10000000000 bytes`},
		{"string doubling", "the .. operator charges the bytes it builds", `local s = "x" for _ = 1, 40 do s = s .. s end`, `escape.lua:1: instruction budget exceeded`},
		{"table.concat bomb", "the total is checked before it allocates", `local s = string.rep("x", 1e6) local t = {} for i = 1, 100 do t[i] = s end return table.concat(t)`, `string too long`},
		{"runaway loop", "the instruction budget stops it", `while true do end`, `escape.lua:1: instruction budget exceeded`},
		{"runaway loop in pcall", "the stop cannot be caught", `while true do pcall(function() while true do end end) end`, `instruction budget exceeded`},
		{"runaway in a coroutine", "coroutines share the budget", `local co = coroutine.create(function() while true do end end) coroutine.resume(co) while true do end`, `instruction budget exceeded`},
		{"runaway in an error handler", "the handler runs under the budget", `xpcall(function() error("x") end, function() while true do end end)`, `instruction budget exceeded`},
		{"_printregs", "a debugging aid that writes to stdout", `_printregs()`, `attempt to call a non-function object`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{InstructionBudget: 100_000})
			defer rt.Close()
			err := runChunk(rt, tc.src)
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
			_, statErr := os.Stat(marker)
			assert.True(t, os.IsNotExist(statErr), "nothing reached the file system")
			assert.NoError(t, runChunk(rt, `local s = ("ab"):rep(3) assert(s == "ababab") assert(math.floor(2.5) == 2)`),
				"the runtime is still usable after the attempt")
		})
	}
	assert.GreaterOrEqual(t, len(tests), 20)
}

func TestRequireStaysInTheScriptsFolder(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.lua"), []byte(`return "secret"`), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.lua"), filepath.Join(dir, "link.lua")))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "squad"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "squad", "common.lua"), []byte(`return { answer = 42 }`), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()

	err := runChunk(rt, `require("link")`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "leads outside the scripts folder", "a symbolic link out of the folder is refused")
	assert.NoError(t, runChunk(rt, `assert(require("squad.common").answer == 42)`), "a dotted name reads a sub-folder")
	assert.NoError(t, runChunk(rt, `assert(require("squad.common") == require("squad.common"))`), "a module loads once")
}

func TestTimeBudgetStopsARunawayLoop(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: -1, TimeBudget: time.Millisecond})
	defer rt.Close()
	err := runChunk(rt, "local n = 0\nwhile true do n = n + 1 end")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "escape.lua:2: time budget exceeded: ran longer than 1ms")
	assert.NoError(t, runChunk(rt, `assert(1 + 1 == 2)`), "the next call gets a fresh budget")
}

func TestPrintGoesToOptionsPrint(t *testing.T) {
	var lines []string
	rt := NewRuntime(Options{Print: func(s string) { lines = append(lines, s) }})
	defer rt.Close()
	require.NoError(t, runChunk(rt, "print(\"ammo\", 3, nil)"))
	assert.Equal(t, []string{"escape.lua:1: ammo\t3\tnil"}, lines)
}

// TestACallMaySpendExactlyItsInstructionBudget: the budget stops a call
// at the first unit past its limit, not at the limit: with a budget one
// short of what a chunk needs, its last assignment or table constructor
// (whose work reaches the limit) still runs and the stop is at the
// return after it.
func TestACallMaySpendExactlyItsInstructionBudget(t *testing.T) {
	for _, src := range []string{
		"local t = {0}\nfor i = 1, 10 do t[1] = i end\nt[1] = 0\nreturn",
		"local s = string.rep('a', 100)\nlocal n = 0\nlocal t = {string.byte(s, 1, -1)}\nreturn",
	} {
		rt := NewRuntime(Options{})
		defer rt.Close()
		require.NoError(t, runChunk(rt, src))
		need := rt.budget.n
		require.Greater(t, need, int64(10))

		short := NewRuntime(Options{InstructionBudget: need - 1})
		defer short.Close()
		err := runChunk(short, src)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "escape.lua:4: instruction budget exceeded: more than "+strconv.FormatInt(need-1, 10)+" work units", src)

		exact := NewRuntime(Options{InstructionBudget: need})
		defer exact.Close()
		assert.NoError(t, runChunk(exact, src), src)
	}
}

// TestACallWithinItsTimeBudgetRunsToItsEnd: the clock is read every 1,024
// instructions, and a call still within its time budget goes on.
func TestACallWithinItsTimeBudgetRunsToItsEnd(t *testing.T) {
	rt := NewRuntime(Options{TimeBudget: time.Hour})
	defer rt.Close()
	require.NoError(t, runChunk(rt, "local n = 0\nfor i = 1, 5000 do n = n + i end\nassert(n == 12502500)"))
	assert.Greater(t, rt.budget.n, int64(3*timeCheckEvery), "the clock was read")
}

// TestAListPastBothLimitsAtOnceStopsAtTheInstructionBudget: one table
// constructor whose appends pass the instruction budget and the memory
// limit at once is stopped by the instruction budget, which is charged
// first.
func TestAListPastBothLimitsAtOnceStopsAtTheInstructionBudget(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 1000, MemoryLimit: 16 << 10})
	defer rt.Close()
	err := runChunk(rt, "local s = string.rep('a', 600)\nlocal t = {string.byte(s, 1, -1)}")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "escape.lua:2: instruction budget exceeded: more than 1000 work units")
}

// TestAListPastTheMemoryLimitIsStoppedBeforeItIsBuilt: a table
// constructor whose appends would pass the memory limit (32 bytes a
// slot while the list grows, here on top of the 400 bytes of the string
// and string.byte's 400 results) is stopped before it builds the list;
// one that reaches it exactly runs, and without a memory limit any does.
func TestAListPastTheMemoryLimitIsStoppedBeforeItIsBuilt(t *testing.T) {
	src := "local s = string.rep('a', 400)\nlocal t = {string.byte(s, 1, -1)}"
	unlimited := NewRuntime(Options{MemoryLimit: -1})
	defer unlimited.Close()
	require.NoError(t, runChunk(unlimited, src))
	require.NoError(t, runChunk(unlimited, "local t = {}\nt[5000] = 1\nassert(#t == 5000)"), "an assignment far past the list pads it")
	exact := NewRuntime(Options{MemoryLimit: 400 + 2*32*400})
	defer exact.Close()
	require.NoError(t, runChunk(exact, src))
	short := NewRuntime(Options{MemoryLimit: 400 + 2*32*400 - 1})
	defer short.Close()
	err := runChunk(short, src)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "escape.lua:2: memory limit exceeded (1 MiB): one table operation would grow a list by 1 MiB")
}

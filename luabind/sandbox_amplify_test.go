package luabind

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Limits of the adversarial runs: small enough that one case takes
// milliseconds, large enough that every amplification shows.
const (
	amplifyStringBytes = 4 << 20
	amplifyMemory      = 16 << 20
)

// amplifyPrelude is line 8 of every attack body: S is the longest string
// a script may build, K a 1 KiB string, D a long string of digits, T a
// list of 1,000 references to S and MT a table whose __tostring returns
// S. The attack itself starts on line 9.
const amplifyPrelude = `local S = string.rep("x", 4194304) local K = string.rep("x", 1024) ` +
	`local D = string.rep("1", 4194304) local T = {} for i = 1, 1000 do T[i] = S end ` +
	`local MT = setmetatable({}, { __tostring = function() return S end })`

// attackResult is what one attack did.
type attackResult struct {
	fails   []string // fail records' reasons
	done    bool     // the body finished
	elapsed time.Duration
	alloc   uint64 // bytes the Go heap allocated during the ticks
}

// runAttack runs body (from line 9 of attack.lua, after amplifyPrelude)
// as the only action of one agent, for a few ticks, in a runtime with the
// small limits above and dir as its scripts folder, and measures the
// ticks' wall time and Go allocations.
func runAttack(t *testing.T, dir, body string, opts Options) attackResult {
	t.Helper()
	src := "return {\n" +
		"  name = \"Attack\",\n" +
		"  state = { done = false, out = \"\" },\n" +
		"  goals = { { name = \"g\", condition = \"done\" } },\n" +
		"  actions = {\n" +
		"    { name = \"a\", effects = \"done = true\",\n" +
		"      run = function(npc)\n" +
		amplifyPrelude + "\n" +
		body + "\n" +
		"        npc.state.done = true\n" +
		"      end },\n" +
		"  },\n" +
		"}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "attack.lua"), []byte(src), 0o644))
	opts.ScriptsDir = dir
	if opts.MaxStringBytes == 0 {
		opts.MaxStringBytes = amplifyStringBytes
	}
	if opts.MemoryLimit == 0 {
		opts.MemoryLimit = amplifyMemory
	}
	if opts.Print == nil {
		opts.Print = func(string) {}
	}
	rt := NewRuntime(opts)
	defer rt.Close()
	d, err := rt.LoadDomain("attack.lua")
	require.NoError(t, err)
	var res attackResult
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			res.fails = append(res.fails, e.Reason)
		}
	}
	a := engine.NewAgent("attacker", d)
	w.Add(a)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for range 3 {
		w.Tick(0.1)
	}
	res.elapsed = time.Since(start)
	runtime.ReadMemStats(&after)
	res.alloc = after.TotalAlloc - before.TotalAlloc
	res.done = a.Get("done") == expr.BoolValue(true)
	return res
}

// mathFunctions are the math library's functions: each converts a string
// argument to a number, which for D takes milliseconds.
var mathFunctions = []string{"abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "deg", "exp", "floor", "fmod",
	"frexp", "ldexp", "log", "log10", "max", "min", "mod", "modf", "pow", "rad", "random", "randomseed", "sin", "sinh",
	"sqrt", "tan", "tanh"}

// amplifyCases are the size-amplifying calls of every function a script
// can reach. want, when set, is the reason the body must fail with; an
// attack without one may finish, within the bounds. fn names the function
// attacked ("string.gsub", "print", "npc:print"): TestEveryReachableFunctionIsAttacked
// checks that every global, library function and npc method has a case.
var amplifyCases = []struct {
	fn     string
	reason string
	body   string
	want   string
}{
	{"__concat", "the .. operator checks the joined length first", `local x = S .. S`, "string too long"},
	{"assert", "an assertion's long message is clipped when it leaves Lua", `assert(false, S)`, "more bytes cut"},
	{"error", "a position in front of a long message is a charged copy", `for i = 1, 100 do pcall(error, S) end`, "memory limit exceeded"},
	{"error", "level 2 copies too", `for i = 1, 100 do pcall(error, S, 2) end`, "memory limit exceeded"},
	{"getmetatable", "constant work", `for i = 1, 1000 do getmetatable(MT) end`, ""},
	{"ipairs", "iteration is charged per item", `for r = 1, 1000 do for i, v in ipairs(T) do end end`, "instruction budget exceeded"},
	{"next", "constant work per call", `for r = 1, 1000 do local k = next(T) while k do k = next(T, k) end end`, "instruction budget exceeded"},
	{"pairs", "iteration is charged per item", `for r = 1, 1000 do for k, v in pairs(T) do end end`, "instruction budget exceeded"},
	{"pcall", "catching a long error scans it: charged", `for i = 1, 100 do pcall(error, S, 0) end`, "instruction budget exceeded"},
	{"print", "the joined line is checked before joining", `print(unpack(T))`, "string too long: print would join"},
	{"rawequal", "constant work", `for i = 1, 1000 do rawequal(S, S) end`, ""},
	{"rawget", "constant work", `for i = 1, 1000 do rawget(T, 1) end`, ""},
	{"rawset", "a key far past the end pads the list: charged", `rawset({}, 4000000, 1)`, "memory limit exceeded (16 MiB): rawset of key 4000000 would pad a list with nils up to it"},
	{"require", "a file over MaxScriptBytes is refused before it is read", `require("huge")`, "larger than a script file may be"},
	{"select", "charged per value", `for i = 1, 1000 do select("#", unpack(T)) end`, "instruction budget exceeded"},
	{"setmetatable", "constant work", `for i = 1, 1000 do setmetatable({}, {}) end`, ""},
	{"tonumber", "reads its argument once: charged", `for i = 1, 1000 do tonumber(S) end`, "instruction budget exceeded"},
	{"tostring", "a long __tostring result is scanned for addresses: charged", `for i = 1, 100 do tostring(MT) end`, "instruction budget exceeded"},
	{"type", "constant work", `for i = 1, 1000 do type(S) end`, ""},
	{"unpack", "charged per value", `for i = 1, 5000 do unpack(T) end`, "instruction budget exceeded"},
	{"xpcall", "as pcall", `for i = 1, 100 do xpcall(function() error(S, 0) end, function(e) return e end) end`, "instruction budget exceeded"},

	{"coroutine.create", "each coroutine is charged work and memory", `local c = {} for i = 1, 100000 do c[i] = coroutine.create(print) end`, "exceeded"},
	{"coroutine.resume", "passes values, charged as a call", `for i = 1, 1000 do coroutine.resume(coroutine.create(function(...) end), unpack(T)) end`, "exceeded"},
	{"coroutine.running", "constant work", `for i = 1, 1000 do coroutine.running() end`, ""},
	{"coroutine.status", "constant work", `local co = coroutine.create(print) for i = 1, 1000 do coroutine.status(co) end`, ""},
	{"coroutine.wrap", "as create", `local c = {} for i = 1, 100000 do c[i] = coroutine.wrap(print) end`, "exceeded"},
	{"coroutine.yield", "a yield in a body waits a tick", `coroutine.yield(unpack(T))`, ""},

	{"string.byte", "one value per byte: charged before pushing", `string.byte(S, 1, -1)`, "exceeded"},
	{"string.char", "charged per argument", `for i = 1, 1000 do string.char(unpack(T, 1, 200)) end`, "bad argument"},
	{"string.find", "every start position of the subject is charged", `string.find(S, "y")`, "instruction budget exceeded"},
	{"string.find", "a backtracking pattern is refused", `string.find(K, ".-.-.-.-y")`, "matching steps"},
	{"string.format", "the result's size is checked before formatting", `string.format("%s%s", S, S)`, "string too long"},
	{"string.format", "%q writes up to 5 bytes a byte", `string.format("%q", string.rep("\0", 1000000))`, "string too long"},
	{"string.format", "a __tostring result counts in the size", `string.format("%s", MT)`, "string too long"},
	{"string.gfind", "the old name of gmatch, checked as gmatch", `for m in string.gfind(S, "(.*)") do end`, "recurse"},
	{"string.gmatch", "deep recursion is refused", `for m in string.gmatch(S, "(.*)") do end`, "recurse"},
	{"string.gsub", "a huge string replacement is measured before it is built", `string.gsub(K, "^.+", string.rep("%0", 2^21))`, "string too long: string.gsub would build more than 2147483648 bytes"},
	{"string.gsub", "an empty match reads the replacement each time: charged", `string.gsub(string.rep("x", 100000), "", string.rep("%1", 2^20))`, "instruction budget exceeded"},
	{"string.gsub", "a function's results count", `string.gsub(K, ".", function() return S end)`, "exceeded"},
	{"string.len", "constant work", `for i = 1, 1000 do string.len(S) end`, ""},
	{"string.lower", "charged per byte", `for i = 1, 10 do string.lower(S) end`, "instruction budget exceeded"},
	{"string.match", "deep recursion is refused", `string.match(S, "(.*)y")`, "recurse"},
	{"string.rep", "the result's size is checked first", `string.rep(S, 2)`, "string too long"},
	{"string.rep", "a huge count is refused before it is converted", `string.rep("x", 2^60)`, "string too long"},
	{"string.reverse", "charged per byte", `for i = 1, 10 do string.reverse(S) end`, "instruction budget exceeded"},
	{"string.sub", "charged per byte", `for i = 1, 1000 do string.sub(S, 2) end`, "instruction budget exceeded"},
	{"string.upper", "charged per byte", `for i = 1, 10 do string.upper(S) end`, "instruction budget exceeded"},

	{"table.concat", "the joined length is checked before joining", `table.concat(T)`, "string too long"},
	{"table.getn", "the scan of trailing nils is charged", `local t = {} t[1000000] = 1 t[1000000] = nil for i = 1, 1000 do table.getn(t) end`, "exceeded"},
	{"table.insert", "a position far past the end pads: charged", `table.insert({}, 4000000, 1)`, "exceeded"},
	{"table.maxn", "charged per slot", `for i = 1, 5000 do table.maxn(T) end`, "instruction budget exceeded"},
	{"table.remove", "moves are charged", `for i = 1, 1000 do table.remove(T, 1) table.insert(T, 1, S) end`, "instruction budget exceeded"},
	{"table.sort", "n log n comparisons charged", `for i = 1, 100 do table.sort(T) end`, "instruction budget exceeded"},

	{"npc:achieve", "a long name is refused before the engine copies it", `npc:achieve(S)`, "longer than a name may be"},
	{"npc:achieve", "so is a long goal tuple", `local G = { "g" } for i = 2, 2000 do G[i] = i end npc:achieve(G)`, "at most 1024 values"},
	{"npc:achieve_with_result", "as achieve", `npc:achieve_with_result(S)`, "longer than a name may be"},
	{"npc:also_achieve", "as achieve", `npc:also_achieve(S)`, "longer than a name may be"},
	{"npc:believe", "stores one value", `for i = 1, 100 do npc:believe("b", S) end`, ""},
	{"npc:believe", "a long name is refused", `npc:believe(S)`, "longer than a name may be"},
	{"npc:forget", "constant work", `npc:forget(S)`, "longer than a name may be"},
	{"npc:memories", "constant work per thing held", `for i = 1, 100 do npc:perceive("t" .. i, "sight", i, i) end for i = 1, 100 do npc:memories() end`, ""},
	{"npc:perceive", "a long name is refused", `npc:perceive(S, "sight", 0, 0)`, "longer than a name may be"},
	{"npc:perceive", "the memory holds at most its capacity", `for i = 1, 10000 do npc:perceive("s" .. i, "sound", 0, 0) end`, ""},
	{"npc:perceive", "a long sense is refused, not copied", `for i = 1, 100 do pcall(npc.perceive, npc, "x", S, 0, 0) end`, ""},
	{"npc:recall", "constant work", `for i = 1, 100 do npc:recall(S) end`, ""},
	{"npc:lose", "constant work", `for i = 1, 100 do npc:lose(S) end`, ""},
	{"npc:print", "the joined text is checked before joining", `npc:print(unpack(T))`, "string too long: npc:print would join"},
	{"npc:tell", "a long name is refused", `npc:tell(S, "x")`, "longer than a name may be"},
	{"npc:tell", "an unknown agent: the long value stays out of the message", `for i = 1, 100 do pcall(npc.tell, npc, "nobody", "x", S) end`, ""},
	{"npc:wait", "a bad argument is an error", `npc:wait(S)`, "bad argument"},
	{"npc:wait_event", "a long filter kind is described, not copied", `npc:wait_event({ kind = S })`, "not a string of 4194304 bytes"},
	{"npc:wait_until", "a bad argument is an error", `npc:wait_until(S)`, ""},
}

// TestAmplifyingArgumentsStayWithinTheLimits is the rule of the sandbox as
// a test: every global, library function and npc method a script can
// reach, called with size-amplifying arguments, allocates at most twice
// the agent's memory limit in Go, returns within the time one budget
// allows, and fails (where it fails) with its file and line.
func TestAmplifyingArgumentsStayWithinTheLimits(t *testing.T) {
	dir := t.TempDir()
	huge, err := os.Create(filepath.Join(dir, "huge.lua"))
	require.NoError(t, err)
	require.NoError(t, huge.Truncate(MaxScriptBytes+1)) // sparse: no disk used
	require.NoError(t, huge.Close())
	bound := 2 * timeBound(t) // a budget and a call with a huge argument
	located := regexp.MustCompile(`attack\.lua:(8|9):`)
	cases := slices.Clone(amplifyCases)
	for _, name := range mathFunctions {
		cases = append(cases, struct{ fn, reason, body, want string }{"math." + name,
			"a long string of digits is charged before it is parsed", `for i = 1, 100 do pcall(math.` + name + `, D, D) end`,
			"instruction budget exceeded"})
	}
	for _, c := range cases {
		t.Run(c.fn+"/"+c.reason, func(t *testing.T) {
			res := runAttack(t, dir, c.body, Options{})
			assert.LessOrEqual(t, res.alloc, uint64(2*amplifyMemory), "Go allocated %d bytes", res.alloc)
			assert.Less(t, res.elapsed, bound)
			for _, f := range res.fails {
				assert.Regexp(t, located, f, "a located error")
				assert.LessOrEqual(t, len(f), 2*maxErrorBytes, "the reason is clipped")
			}
			if c.want != "" {
				require.NotEmpty(t, res.fails, "the attack must fail")
				assert.Contains(t, res.fails[0], c.want, c.reason)
				assert.False(t, res.done)
			}
		})
	}
}

// TestEveryReachableFunctionIsAttacked: the table above covers each
// global function, each function of the libraries and each npc method, so
// a new one cannot be added without its attack.
func TestEveryReachableFunctionIsAttacked(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	var reachable []string
	rt.base.ForEach(func(k, v lua.LValue) {
		switch x := v.(type) {
		case *lua.LFunction:
			reachable = append(reachable, k.String())
		case *lua.LUserData: // a frozen library
			lib := x.Metatable.(*lua.LTable).RawGetString("__index").(*lua.LTable)
			lib.ForEach(func(f, fv lua.LValue) {
				if fv.Type() == lua.LTFunction {
					reachable = append(reachable, k.String()+"."+f.String())
				}
			})
		}
	})
	rt.methods.ForEach(func(k, _ lua.LValue) { reachable = append(reachable, "npc:"+k.String()) })
	attacked := map[string]bool{}
	for _, c := range amplifyCases {
		attacked[c.fn] = true
	}
	for _, name := range mathFunctions {
		attacked["math."+name] = true
	}
	var missing []string
	for _, name := range reachable {
		if !attacked[name] {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	assert.Empty(t, missing, "functions without an attack in amplifyCases")
	assert.Greater(t, len(reachable), 80, "the enumeration found the libraries: "+strconv.Itoa(len(reachable)))
}

package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// yieldChecks counts, over every test of the package, the yields whose
// two answers to "inside a metamethod?" (the call frames and the Go
// stack, see yieldNested) were compared, and lists the disagreements.
var yieldChecks struct {
	sync.Mutex
	n        int
	disagree []string
}

func init() {
	testHooks.yieldCheck = func(frames, goStack bool) {
		yieldChecks.Lock()
		defer yieldChecks.Unlock()
		yieldChecks.n++
		if frames != goStack {
			yieldChecks.disagree = append(yieldChecks.disagree, fmt.Sprintf("frames say %v, the Go stack %v", frames, goStack))
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if d := yieldChecks.disagree; len(d) > 0 {
		fmt.Fprintf(os.Stderr, "luabind: %d of %d yields: the call frames and the Go stack disagree on a yield inside a metamethod: %v\n",
			len(d), yieldChecks.n, d)
		code = 1
	}
	os.Exit(code)
}

// TestYieldInsideMetamethodFromFrames: a body yields (npc:wait,
// coroutine.yield, pcall around a wait) in every place a script can put
// it; the yields the VM can suspend go on, the ones inside a nested VM
// loop fail at their line, and the call frames tell them apart exactly as
// the Go stack does.
func TestYieldInsideMetamethodFromFrames(t *testing.T) {
	const metamethod = "cannot wait or yield inside a metamethod"
	cases := []yieldCase{
		{"wait", `npc:wait(0.1)`, ""},
		{"yield", `coroutine.yield()`, ""},
		{"nested function", `local function f() npc:wait(0.1) end
f()`, ""},
		{"tail call", `local function f() return npc:wait(0.1) end
f()`, ""},
		{"tail-called yield", `local function f() return coroutine.yield() end
f()`, ""},
		{"__call", `local t = setmetatable({}, { __call = function() npc:wait(0.1) end })
t()`, ""},
		{"pcall", `assert(pcall(npc.wait, npc, 0.1))`, ""},
		{"pcall of a closure", `assert(pcall(function() npc:wait(0.1) end))`, ""},
		{"xpcall", `assert(xpcall(function() coroutine.yield() end, print))`, ""},
		{"coroutine.wrap inside __index", `local t = setmetatable({}, { __index = function()
  local f = coroutine.wrap(function() coroutine.yield(1) end)
  return f()
end })
local x = t.a`, ""},
		{"__index", `local t = setmetatable({}, { __index = function() npc:wait(0.1) return 1 end })
local x = t.a`, "3: " + metamethod},
		{"__index tail-calls yield", `local t = setmetatable({}, { __index = function() return coroutine.yield() end })
local x = t.a`, "3: " + metamethod},
		{"__index is coroutine.yield", `local t = setmetatable({}, { __index = coroutine.yield })
local x = t.a`, "4: " + metamethod},
		{"__newindex", `local t = setmetatable({}, { __newindex = function() coroutine.yield() end })
t.a = 1`, "3: " + metamethod},
		{"__lt", `local mt = { __lt = function() npc:wait(0.1) return true end }
local a, b = setmetatable({}, mt), setmetatable({}, mt)
local x = a < b`, "3: " + metamethod},
		{"__add in a function", `local mt = { __add = function() local function w() npc:wait(0.1) end w() return 1 end }
local x = setmetatable({}, mt) + 1`, "3: " + metamethod},
		{"pcall inside __index", `local t = setmetatable({}, { __index = function() pcall(npc.wait, npc, 0.1) return 1 end })
local x = t.a`, "3: " + metamethod},
		{"generic for iterator", `for x in function(_, i) if i then return nil end coroutine.yield() return 1 end do end`,
			"3: " + metamethod},
		{"sort comparator", `local t = {3, 1, 2}
table.sort(t, function(a, b) coroutine.yield() return a < b end)`, "4: cannot wait or yield inside a callback of table.sort"},
		{"__tostring", `local t = setmetatable({}, { __tostring = function() npc:wait(0.1) return "t" end })
local s = tostring(t)`, "3: cannot wait or yield inside a callback of tostring"},
	}
	runYieldCases(t, cases)
	yieldChecks.Lock()
	defer yieldChecks.Unlock()
	assert.Greater(t, yieldChecks.n, len(cases), "every case compared both answers")
}

// yieldCase is a body snippet that waits or yields somewhere, and the
// file:line suffix of the error it must fail with ("" when it must finish).
type yieldCase struct{ name, body, want string }

// runYieldCases runs each case's snippet (from line 3 of its own file) as
// an action body and checks its outcome; then it checks that the call
// frames and the Go stack agreed on every yield so far.
func runYieldCases(t *testing.T, cases []yieldCase) {
	t.Helper()
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".lua")
			src := "return { name = 'Y', state = { done = false },\n  actions = { { name = 'work', run = function(npc)\n" +
				c.body + "\nnpc.state.done = true\nend } } }\n"
			require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
			rt := NewRuntime(Options{InstructionBudget: testBudget, Print: func(string) {}})
			defer rt.Close()
			d, err := rt.LoadDomain(file)
			require.NoError(t, err)
			a := engine.NewAgent("y", d)
			act := d.Action("work")
			task, err := act.Body.Start(a, act)
			require.NoError(t, err)
			st := engine.Running
			for i := 0; i < 10 && st == engine.Running && err == nil; i++ {
				st, err = task.Resume(0.1)
			}
			if c.want == "" {
				require.NoError(t, err)
				assert.Equal(t, engine.Succeeded, st)
				assert.Equal(t, expr.BoolValue(true), a.Get("done"))
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), file+":"+c.want)
		})
	}
	yieldChecks.Lock()
	defer yieldChecks.Unlock()
	assert.Empty(t, yieldChecks.disagree, "the call frames and the Go stack disagree")
}

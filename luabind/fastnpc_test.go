package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// withFastAndSlowNPC runs f as two subtests, "fast" with the running
// agent's npc promoted to its fast table and "slow" with every npc lookup
// through the Go __index (testHooks.slowNPC), so a test checks both paths alike.
func withFastAndSlowNPC(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, slow := range []bool{false, true} {
		t.Run(map[bool]string{false: "fast", true: "slow"}[slow], func(t *testing.T) {
			defer func(old bool) { testHooks.slowNPC = old }(testHooks.slowNPC)
			testHooks.slowNPC = slow
			f(t)
		})
	}
}

// runBody loads a one-action role whose body is body, resumes it up to 5
// times and returns the work of each resume and the error that ended it.
func runBody(t *testing.T, dir, name, body string, slow bool) (works []int64, a *engine.Agent, err error) {
	t.Helper()
	defer func(old bool) { testHooks.slowNPC = old }(testHooks.slowNPC)
	testHooks.slowNPC = slow
	file := filepath.Join(dir, name+".lua")
	src := "return { name = 'F', state = { n = 0, done = false },\n  actions = { { name = 'work', run = function(npc)\n" +
		body + "\nnpc.state.done = true\nend } } }\n"
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	rt := NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"noop": func(c *HostCall) (bool, error) { return true, nil },
		"slow": func(c *HostCall) (bool, error) { return !c.First, nil },
		"bump": bumpN,
	}})
	defer rt.Close()
	a, task := startWork(t, rt, file, "f", nil)
	works, err = resumeWork(task, 5, nil)
	return works, a, err
}

// TestFastNPCCostsAndAnswersAsBefore: while a body runs, its npc object
// resolves fields and methods by a table lookup (promote) instead of
// npcIndex. Every body here spends exactly the same work units, gives the
// same values and fails with the same message both ways, and a bare
// lookup costs accessUnits more than a plain table's.
func TestFastNPCCostsAndAnswersAsBefore(t *testing.T) {
	cases := []struct {
		name, body, want string
		chained          int // lookups through another table's __index
	}{
		{"methods and state", `for i = 1, 3 do
  npc:noop()
  npc.state.n = npc.state.n + 1
  npc:wait(0.1)
  local f = npc.wait
end`, "", 0},
		{"host call over ticks", `npc:slow() npc:slow()`, "", 0},
		{"name and facts", `assert(npc.name == "f") local f = npc.facts npc.state.n = #npc.name`, "", 0},
		{"key in a register", `local k = "state" npc[k].n = 5 local w = npc["wait"]`, "", 0},
		{"inside pcall and a coroutine", `assert(pcall(function() npc:noop() npc.state.n = 2 end))
local co = coroutine.wrap(function() npc:noop() coroutine.yield() npc.state.n = 3 end)
co() co()`, "", 0},
		{"through a table's __index", `local t = setmetatable({}, { __index = npc })
local s = t.state s.n = 4`, "", 1},
		{"state through a table's __index", `local t = setmetatable({}, { __index = npc.state })
npc.state.n = 7
local d = npc.state.done
npc.state.n = t.n + 1
assert(rawget(t, "n") == nil and t.done == false and t.n == 8)`, "", 0},
		{"state changed by Go between reads", `npc.state.n = 1
local a = npc.state.n
npc:bump()
local b = npc.state.n
local t = setmetatable({}, { __index = npc.state })
npc.state.n = 2
assert(a == 1 and b == 11 and t.n == 2 and npc.state.n == 2)
npc.state.n = a + b + t.n`, "", 0},
		{"state read as a method", `npc.state.n = 1 local ok, err = pcall(function() return npc.state:n() end)
npc.state.n = (ok and 1000 or 0) + #tostring(err)`, "", 0},
		{"unknown method", `npc:shout()`, "npc has no field or method \"shout\"", 0},
		{"writing a field", `npc.hp = 1`, "npc.hp: npc fields are read-only; write state through npc.state", 0},
		{"unknown state", `local x = npc.state.nope`, "npc.state.nope: no such state variable", 0},
		{"runaway lookups", `while true do local f = npc.wait end`, "3: instruction budget exceeded", 0},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fastWork, fast, fastErr := runBody(t, dir, "fast", c.body, false)
			slowWork, slow, slowErr := runBody(t, dir, "slow", c.body, true)
			switch {
			case c.chained > 0:
				// A lookup that reaches the fast npc through another
				// table's __index is a plain table lookup, not charged.
				require.Len(t, fastWork, len(slowWork))
				assert.Equal(t, slowWork[0]-int64(c.chained*accessUnits), fastWork[0])
			case c.want == "":
				assert.Equal(t, slowWork, fastWork, "the same work units per resume")
			}
			assert.Equal(t, slow.Get("n"), fast.Get("n"))
			assert.Equal(t, slow.Get("done"), fast.Get("done"))
			if c.want == "" {
				require.NoError(t, fastErr)
				require.NoError(t, slowErr)
				assert.Equal(t, expr.BoolValue(true), fast.Get("done"))
				return
			}
			require.Error(t, fastErr)
			require.Error(t, slowErr)
			assert.Contains(t, fastErr.Error(), c.want)
			assert.Equal(t, stripDir(slowErr.Error(), dir, "slow"), stripDir(fastErr.Error(), dir, "fast"), "the same message")
		})
	}
	t.Run("a lookup costs accessUnits", func(t *testing.T) {
		npcWork, _, err := runBody(t, dir, "npc", `for i = 1, 100 do local f = npc.wait end coroutine.yield()`, false)
		require.NoError(t, err)
		tblWork, _, err := runBody(t, dir, "tbl", `local t = { wait = 1 } for i = 1, 100 do local f = t.wait end coroutine.yield()`, false)
		require.NoError(t, err)
		// The table is made and filled in 2 more instructions.
		assert.Equal(t, int64(100*accessUnits), npcWork[0]-(tblWork[0]-2))
	})
}

// stripDir drops the test's folder and file name from a message, so the
// messages of the two runs compare.
func stripDir(msg, dir, name string) string {
	p := filepath.Join(dir, name+".lua")
	if len(msg) >= len(p) && msg[:len(p)] == p {
		return msg[len(p):]
	}
	return msg
}

// TestARunawayLoopOfLookupsStopsAtTheLookupPastTheBudget: a lookup on the
// fast npc object that takes the body past its budget stops it there, at
// the lookup's line, as the Go __index does, whichever instruction of the
// loop the budget ends on, and inside a pcall too.
func TestARunawayLoopOfLookupsStopsAtTheLookupPastTheBudget(t *testing.T) {
	for _, loop := range []string{
		"while true do\nlocal s = npc.state\nlocal z = 1\nend",
		"pcall(function() while true do\nlocal s = npc.state\nlocal z = 1\nend end)",
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "spin.lua")
		src := "return { name = 'F', state = { n = 0 },\n  actions = { { name = 'work', run = function(npc)\n" +
			loop + "\nend } } }\n"
		require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
		atLookup := 0
		for extra := range int64(accessUnits + 3) {
			var errs [2]string
			for i, slow := range []bool{false, true} {
				func() {
					defer func(old bool) { testHooks.slowNPC = old }(testHooks.slowNPC)
					testHooks.slowNPC = slow
					rt := NewRuntime(Options{InstructionBudget: 1000 + extra})
					defer rt.Close()
					_, task := startWork(t, rt, file, "f", nil)
					_, err := resumeWork(task, 1, nil)
					require.Error(t, err)
					errs[i] = err.Error()
				}()
			}
			assert.Equal(t, errs[1], errs[0], "%s, budget %d: the fast lookup stops where the Go __index does", loop, 1000+extra)
			if strings.Contains(errs[0], "spin.lua:4: instruction budget exceeded") {
				atLookup++
			}
		}
		assert.Positive(t, atLookup, "%s: some budgets end on the lookup", loop)
	}
}

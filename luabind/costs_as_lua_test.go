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

// runWorkRole writes a role named role whose one action, work, runs body
// and then sets done, loads it with the given instruction budget (0:
// testBudget) and host functions, resumes the body up to 6 times by 0.1 s
// and returns the work of each resume, the agent and the error that ended
// the body. A budget too small to load the role returns a nil agent and
// the load's error.
func runWorkRole(t *testing.T, dir, name, role, body string, budget int, host map[string]HostFunc) (works []int64, a *engine.Agent, err error) {
	t.Helper()
	if budget == 0 {
		budget = testBudget
	}
	file := filepath.Join(dir, name+".lua")
	src := fmt.Sprintf("return { name = '%s', state = { n = 0, done = false },\n  actions = { { name = 'work', run = function(npc)\n%s\nnpc.state.done = true\nend } } }\n", role, body)
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	rt := NewRuntime(Options{InstructionBudget: int64(budget), Host: host})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	if err != nil {
		return nil, nil, err
	}
	a = engine.NewAgent("w", d)
	act := d.Action("work")
	task, err := act.Body.Start(a, act)
	require.NoError(t, err)
	st := engine.Running
	for i := 0; i < 6 && st == engine.Running && err == nil; i++ {
		st, err = task.Resume(0.1)
		works = append(works, task.(*luaTask).work)
	}
	return works, a, err
}

// runAsLua runs a body one way or the other (runWait, runHost): useLua
// picks the prelude's Lua version, budget is as runWorkRole's.
type runAsLua func(t *testing.T, dir, name, body string, useLua bool, budget int) ([]int64, *engine.Agent, error)

// assertCostsAsLua runs body both ways and checks that they spend the
// same work units per resume and leave the same n and done, and that both
// end without an error (want "") or with the same message, which contains
// want.
func assertCostsAsLua(t *testing.T, run runAsLua, dir, body, want string) {
	t.Helper()
	luaWork, la, luaErr := run(t, dir, "lu", body, true, 0)
	goWork, ga, goErr := run(t, dir, "go", body, false, 0)
	assert.Equal(t, luaWork, goWork, "the same work units per resume")
	assert.Equal(t, la.Get("n"), ga.Get("n"))
	assert.Equal(t, la.Get("done"), ga.Get("done"))
	if want == "" {
		require.NoError(t, luaErr)
		require.NoError(t, goErr)
		assert.Equal(t, expr.BoolValue(true), ga.Get("done"))
		return
	}
	require.Error(t, luaErr)
	require.Error(t, goErr)
	assert.Contains(t, goErr.Error(), want)
	assert.Equal(t, stripDir(luaErr.Error(), dir, "lu"), stripDir(goErr.Error(), dir, "go"), "the same message")
}

// stopsAsLua runs body both ways under every instruction budget from 1
// to two past what a whole run spends, and checks that each stops with
// the same work units and message, or runs to the end, both ways.
//
// It loads the role twice for every limit, so it runs without the race
// detector only (.ci/test runs these tests in its plain step).
func stopsAsLua(t *testing.T, run runAsLua, body string) {
	if raceEnabled {
		t.Skip("one load per budget limit: too slow under the race detector; .ci/test runs it without")
	}
	dir := t.TempDir()
	full, _, err := run(t, dir, "full", body, true, 0)
	require.NoError(t, err)
	require.NotEmpty(t, full)
	for limit := 1; limit <= int(full[0])+2; limit++ {
		luaWork, la, luaErr := run(t, dir, "lu", body, true, limit)
		goWork, ga, goErr := run(t, dir, "go", body, false, limit)
		assert.Equal(t, luaWork, goWork, "limit %d", limit)
		assert.Equal(t, la == nil, ga == nil, "limit %d: the role loads both ways or neither", limit)
		if luaErr == nil {
			assert.NoError(t, goErr, "limit %d", limit)
			continue
		}
		require.Error(t, goErr, "limit %d", limit)
		assert.Equal(t, stripDir(luaErr.Error(), dir, "lu"), stripDir(goErr.Error(), dir, "go"), "limit %d", limit)
	}
}

package luabind

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmChangesNothing: warming a body's task before each of its
// resumes (engine.Warmer), and at any other time, leaves every resume's
// status, error and work units and the agent's state as they are without
// warming; after a yield the task has noted its coroutine's memory, and
// while it polls a host call, that call's.
func TestWarmChangesNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "warm.lua")
	require.NoError(t, os.WriteFile(file, []byte(`return { name = "W", state = { n = 0 },
  actions = { { name = "work", run = function(npc)
    npc:wait(0.15)
    npc.state.n = npc.state.n + 1
    local v = npc:slow(1, "two")
    npc.state.n = npc.state.n + v
    coroutine.yield()
    npc.state.n = npc.state.n * 2
    error("the end at " .. npc.state.n)
  end } } }
`), 0o644))
	calls := map[*engine.Agent]int{}
	rt := NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"slow": func(c *HostCall) (bool, error) {
			calls[c.Agent]++
			c.Results = []engine.Value{engine.NumberValue(5)}
			return calls[c.Agent]%3 == 0, nil
		},
	}})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	act := d.Action("work")
	type step struct {
		st   engine.Status
		err  string
		work int64
	}
	var runs [2][]step
	var agents [2]*engine.Agent
	var tasks [2]*luaTask
	for i := range agents {
		agents[i] = engine.NewAgent("w", d)
		task, err := act.Body.Start(agents[i], act)
		require.NoError(t, err)
		tasks[i] = task.(*luaTask)
	}
	w := tasks[0]
	w.Warm(0) // before its first resume: nothing noted yet
	w.Warm(1)
	sawHost := false
	for range 12 {
		for i, task := range tasks {
			if task.done {
				continue
			}
			if i == 0 {
				w.Warm(0)
				w.Warm(1)
			}
			st, err := task.Resume(0.1)
			s := step{st: st, work: task.work}
			if err != nil {
				s.err = err.Error()
			}
			runs[i] = append(runs[i], s)
			if i == 0 && st == engine.Running {
				require.NotZero(t, w.warm.co, "the coroutine's spans are noted")
				reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(w.th), peek.stateReg))
				assert.Equal(t, uint64(uintptr(reg)), w.warm.at[0]&(1<<56-1), "the first span is the registry")
				if w.host != nil {
					sawHost = true
					assert.Greater(t, w.warm.n, w.warm.co, "the host call's arguments are noted")
				}
			}
		}
	}
	w.Warm(0) // after it ended
	w.Warm(1)
	assert.True(t, sawHost, "the body polled a host call")
	require.NotEmpty(t, runs[0])
	assert.Equal(t, runs[1], runs[0], "the same statuses, errors and work units")
	assert.Equal(t, engine.Failed, runs[0][len(runs[0])-1].st)
	assert.Contains(t, runs[0][len(runs[0])-1].err, "the end at 12")
	assert.Equal(t, agents[1].Get("n"), agents[0].Get("n"))
}

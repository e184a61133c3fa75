package luabind

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// warmAttackRole is a utility role whose bodies make warming's notes go
// stale: dig recurses hundreds of calls deep and yields at the bottom
// (the stack and call frames grow, and are given back on the way up, so
// the spans noted at one yield no longer hold at the next), short ends
// after a yield and a host call that takes three ticks (a task
// polling it is warmed through the call's spans), fail raises an error, and every body's
// precondition is flipped by the game so that bodies are interrupted
// (their coroutines released) between their warming and their resume.
const warmAttackRole = `return { name = "Warm", decide = "utility",
  state = { mood = 1, depth = 50, n = 0, ok = true },
  actions = {
    { name = "dig", pre = "mood == 1 && ok",
      considerations = { { name = "deep", input = "depth", min = 0, max = 600 } },
      run = function(npc)
        local function down(k, acc)
          if k <= 0 then coroutine.yield(); return acc end
          local a, b, c, d = k, k * 2, tostring(k), { k }
          return down(k - 1, acc + a + b - b + #c - #c + d[1] - k + 1)
        end
        for i = 1, 4 do
          npc.state.n = npc.state.n + down(npc.state.depth, 0) % 7
          coroutine.yield()
        end
      end },
    { name = "short", pre = "mood == 2 && ok",
      considerations = { { name = "deep", input = "depth", min = 600, max = 0 } },
      run = function(npc)
        npc.state.n = npc.state.n + 1
        coroutine.yield()
        npc.state.n = npc.state.n + npc:slow(npc.state.n, "two", string.rep("x", 300))
      end },
    { name = "fail", pre = "mood == 3",
      considerations = { { name = "any", input = "n", min = 0, max = 10 } },
      run = function(npc) coroutine.yield(); error("fail at " .. npc.state.n) end },
  } }
`

// recordingBody hands out its inner body's tasks unchanged, and keeps
// every one it made (to warm them later, when they are stale).
type recordingBody struct {
	inner engine.Body
	tasks *[]engine.Warmer
}

func (b recordingBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	t, err := b.inner.Start(a, act)
	if w, ok := t.(engine.Warmer); ok && err == nil {
		*b.tasks = append(*b.tasks, w)
	}
	return t, err
}

// warmAttackRun ticks, with the role in file, a world of 24 agents of warmAttackRole while the
// game flips their moods and depths, removes and adds agents (one worker:
// the runtime is one goroutine's); with stale set, it also warms, between ticks,
// tasks of every kind at random: ended, interrupted, failed, of removed
// agents, after a collection that returned memory to the system. It
// returns every record.
func warmAttackRun(t *testing.T, file string, stale bool) []string {
	t.Helper()
	polls := 0
	rt := NewRuntime(Options{InstructionBudget: testBudget, Host: map[string]HostFunc{
		"slow": func(c *HostCall) (bool, error) { // done at its third call
			polls++
			n, _ := c.Memo.(int)
			c.Memo = n + 1
			c.Results = []expr.Value{expr.NumberValue(float64(n + 1))}
			return n >= 2, nil
		},
	}})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	var tasks []engine.Warmer
	for _, act := range d.Actions {
		act.Body = recordingBody{inner: act.Body, tasks: &tasks}
	}
	w := engine.NewWorld(5)
	var out []string
	w.OnEvent = func(e record.Event) { out = append(out, fmt.Sprintf("%s %+v", e.Kind, e)) }
	made := 0
	add := func() {
		a := engine.NewAgent(fmt.Sprintf("w%d", made), d)
		a.RethinkEvery = []float64{0, 0.05, -1}[made%3]
		made++
		w.Add(a)
	}
	for range 24 {
		add()
	}
	r := rand.New(rand.NewPCG(3, 4))
	warm := rand.New(rand.NewPCG(8, 9))
	for tick := range 400 {
		for _, a := range w.Agents {
			switch p := r.IntN(100); {
			case p < 6:
				a.Set("mood", expr.NumberValue(float64(1+r.IntN(3))))
			case p < 9:
				a.Set("ok", expr.BoolValue(r.IntN(3) > 0))
			case p < 14:
				a.Set("depth", expr.NumberValue(float64(r.IntN(600))))
			}
		}
		if tick == 150 || tick == 300 { // a hot reload: every agent takes the new domain
			d, err = rt.LoadDomain(file)
			require.NoError(t, err)
			for _, act := range d.Actions {
				act.Body = recordingBody{inner: act.Body, tasks: &tasks}
			}
			for _, a := range w.Agents {
				a.SetDomain(d)
			}
		}
		switch p := r.IntN(100); {
		case p < 4 && len(w.Agents) > 4:
			require.True(t, w.Remove(w.Agents[r.IntN(len(w.Agents))]))
		case p < 8:
			add()
		}
		if stale {
			if tick%50 == 0 {
				runtime.GC()
				debug.FreeOSMemory()
			}
			for range 8 {
				if len(tasks) > 0 {
					tasks[warm.IntN(len(tasks))].Warm(warm.IntN(2))
				}
			}
		}
		w.Tick(1.0 / 30)
	}
	w.Finish()
	require.NotEmpty(t, tasks)
	require.Greater(t, polls, 30, "host calls are polled")
	return out
}

// TestWarmStaleTasksChangeNothing: warming tasks whose notes are stale
// (a stack that grew hundreds of frames and shrank again, a coroutine
// that ended, failed or was interrupted and released, a domain
// reloaded, an agent removed
// from the world, memory collected and given back to the system) changes
// no record.
func TestWarmStaleTasksChangeNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "warm_attack.lua")
	require.NoError(t, os.WriteFile(file, []byte(warmAttackRole), 0o644))
	want := warmAttackRun(t, file, false)
	got := warmAttackRun(t, file, true)
	kinds := map[string]int{}
	for _, l := range want {
		for _, k := range []record.EventKind{record.EventInterrupt, record.EventFinish, record.EventFail} {
			if len(l) > len(k.String()) && l[:len(k.String())+1] == k.String()+" " {
				kinds[k.String()]++
			}
		}
	}
	for _, k := range []record.EventKind{record.EventInterrupt, record.EventFinish, record.EventFail} {
		assert.Greater(t, kinds[k.String()], 10, "the run has %s records", k)
	}
	require.Equal(t, len(want), len(got), "as many records")
	for i := range want {
		require.Equal(t, want[i], got[i], "record %d", i)
	}
}

package luabind

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/internal/prefetch"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
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
			c.Results = []expr.Value{expr.NumberValue(5)}
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
				assert.Equal(t, luavm.StackAddr(w.th), w.warm.at[0].Addr(), "the first span is the registry")
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

// TestWarmNotesWhatTheNextResumeWrites: after a yield the task's noted
// spans cover the registry slots up to 16 above the top (the calls of
// the next resume write them first), the running call frame and the 2
// frames above it but not past the end of its segment of the frame
// stack, and the frame stack's array of segments.
func TestWarmNotesWhatTheNextResumeWrites(t *testing.T) {
	require.True(t, luavm.OK())
	frameSize := luavm.FrameSize()
	require.NotZero(t, frameSize)
	file := filepath.Join(t.TempDir(), "deep.lua")
	require.NoError(t, os.WriteFile(file, []byte(`local function down(npc, n)
  if n == 0 then npc:wait(0.1) return 0 end
  return down(npc, n - 1) + 1
end
return { name = "D", state = { depth = 0 },
  actions = { { name = "dig", run = function(npc)
    while true do down(npc, npc.state.depth) end
  end } } }
`), 0o644))
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	act := d.Action("dig")
	// covers says whether one of spans covers the bytes lo..hi-1, and
	// where that span ends.
	covers := func(spans []prefetch.Region, lo, hi uintptr) (bool, uintptr) {
		for _, s := range spans {
			a, lines := s.Addr()&^63, s.Lines()
			if a <= lo && hi <= a+uintptr(lines)*64 {
				return true, a + uintptr(lines)*64
			}
		}
		return false, 0
	}
	seen := map[uintptr]bool{}
	for _, depth := range []int{0, 1, 5, 6, 7, 8, 13} {
		a := engine.NewAgent("d", d)
		a.Set("depth", expr.NumberValue(float64(depth)))
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		lt := task.(*luaTask)
		for range 3 {
			st, err := task.Resume(0.1)
			require.NoError(t, err)
			require.Equal(t, engine.Running, st)
			w, th := &lt.warm, lt.th
			// The registry: from its first slot to warmSlotsAbove above
			// the top.
			arr, top := luavm.Stack(th)
			n := min(top+16, len(arr), 32) // warmSlotsAbove, maxWarmSlots
			first := prefetch.SliceRegion(arr[:1]).Addr()
			ok, _ := covers(w.at[w.fixed:w.co], first, first+uintptr(n)*reflect.TypeFor[lua.LValue]().Size())
			assert.True(t, ok, "depth %d: the stack slots up to %d are noted", depth, n)
			// The frames: the running one (the Lua frame that called
			// npc:wait, depth+1 frames up) and those above it in its
			// segment.
			cfp := luavm.CurrentFrame(th)
			cf := cfp.Addr()
			idx := cfp.Depth()
			assert.Equal(t, depth+1, idx, "the running frame")
			at := uintptr(idx % lua.FramesPerSegment)
			end := cf - at*frameSize + lua.FramesPerSegment*frameSize
			hi := min(cf+3*frameSize, end) // warmFramesAbove: 2
			ok, spanEnd := covers(w.at[w.fixed:w.co], cf, hi)
			assert.True(t, ok, "depth %d: the frames above the running one are noted", depth)
			assert.Equal(t, (hi+63)&^63, spanEnd, "depth %d: nothing past those frames is noted", depth)
			// The array of the frame stack's segments, read by every
			// push and pop.
			segs := reflect.ValueOf(th).Elem().FieldByName("stack").Elem().Elem().FieldByName("segments").Pointer()
			ok, _ = covers(w.at[:w.fixed], segs, segs+8)
			assert.True(t, ok, "the segments' array is noted")
			seen[at] = true
		}
	}
	assert.True(t, seen[lua.FramesPerSegment-1], "a frame at its segment's end was checked")
	assert.True(t, seen[0], "a frame at its segment's start was checked")
}

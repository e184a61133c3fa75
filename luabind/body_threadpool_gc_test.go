package luabind

import (
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestBodyCoroutinePoolAcrossCollections: the idle body coroutines stay
// across garbage collections while bursts of body starts still take them
// (agents acting in step empty the pool and fill it again), and those
// that stayed idle through two whole collection cycles are given back,
// down to maxIdleThreads. The collections are counted the way
// trimThreads sees them (gcWatch.cycles).
func TestBodyCoroutinePoolAcrossCollections(t *testing.T) {
	require.True(t, luavm.OK())
	// Only the test's own collections count: no real one in between.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	// A collection already under way, or one whose count is still to be
	// recorded, would count as one of the test's: end it and wait for
	// its count (the runtime counts them from NewRuntime on), after which
	// nothing collects until the test is over.
	before := gcWatch.cycles.Load()
	runtime.GC()
	require.Eventually(t, func() bool { return gcWatch.cycles.Load() > before }, 10*time.Second, time.Millisecond)
	d, err := rt.LoadDomain(filepath.Join("testdata", "reuse.lua"))
	require.NoError(t, err)
	act := d.Action("leave")
	require.NotNil(t, act)
	a := engine.NewAgent("alice", d)
	// burst starts n bodies at once and runs them all to their end.
	burst := func(n int) []*lua.LState {
		t.Helper()
		tasks := make([]*luaTask, n)
		ths := make([]*lua.LState, n)
		for i := range tasks {
			task, err := act.Body.Start(a, act)
			require.NoError(t, err)
			tasks[i] = task.(*luaTask)
			ths[i] = tasks[i].th
		}
		for _, task := range tasks {
			st, err := task.Resume(0)
			require.NoError(t, err)
			require.Equal(t, engine.Running, st)
		}
		for _, task := range tasks {
			st, err := task.Resume(0.1)
			require.NoError(t, err)
			require.Equal(t, engine.Succeeded, st)
		}
		return ths
	}
	collect := func() { gcWatch.cycles.Add(1) }
	// addrs names coroutines by address, for short failure messages.
	addrs := func(ths []*lua.LState) []string {
		out := make([]string, len(ths))
		for i, th := range ths {
			out[i] = th.String()
		}
		return out
	}

	first := burst(100)
	require.Len(t, rt.threads.idle, 100)
	collect()
	second := burst(100) // trims nothing: every idle one was made in this cycle
	assert.ElementsMatch(t, addrs(first), addrs(second), "the second burst reuses every coroutine of the first")
	collect()
	burst(90)
	collect()
	burst(100)
	collect()
	third := burst(100)
	assert.ElementsMatch(t, addrs(first), addrs(third), "no coroutine was made anew across four collections")
	assert.Len(t, rt.threads.idle, 100, "the pool keeps what the bursts use")

	// A world that stops starting bodies gives the pool back: nothing is
	// dropped at the end of the cycle of the last burst nor after one
	// idle cycle, the surplus after the second.
	for range 2 {
		collect()
		rt.trimThreads()
		assert.Len(t, rt.threads.idle, 100)
	}
	collect()
	rt.trimThreads()
	assert.Len(t, rt.threads.idle, maxIdleThreads)

	// Only the bottom of the pool goes: a burst of 10 then an idle cycle
	// leaves the 10 it used in the pool's top.
	burst(100)
	collect()
	used := burst(10)
	collect()
	rt.trimThreads()
	collect()
	rt.trimThreads()
	require.Len(t, rt.threads.idle, maxIdleThreads)
	assert.Subset(t, addrs(rt.threads.idle), addrs(used))
}

package luabind

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestPcallYieldsThroughNestingAndCoroutines: a yield inside pcall, with
// pcalls nested, inside the script's own coroutines and wrap functions,
// and through xpcall, reaches the right resumer, and each pcall returns
// its function's results or error.
func TestPcallYieldsThroughNestingAndCoroutines(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"a"}, []string{"pcall_nested.lua"})
	wd.run(10, 0.1)
	a := wd.agents["a"]
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	assert.Equal(t, expr.StringValue("truetrueinner;2,50,end!,dead;w1,falselate;handled x;false attempt to call a number value"), a.Get("log"))
}

// TestIdlePcallWorkersAreKeptUpToTheirBound: a pcall runs its function
// in a worker coroutine, charged as a coroutine when it is new; after
// the call it waits in a pool of up to 16 for the next pcall, which is
// not charged again. So twenty nested pcalls run again reuse sixteen
// workers and make four.
func TestIdlePcallWorkersAreKeptUpToTheirBound(t *testing.T) {
	work := func(rt *Runtime, depth int) int64 {
		src := "local function f(d) if d > 0 then assert(pcall(f, d - 1)) end end\nf(" + strconv.Itoa(depth) + ")"
		require.NoError(t, runChunk(rt, src))
		return rt.budget.n
	}
	one := NewRuntime(Options{})
	defer one.Close()
	first := work(one, 1)
	perWorker := first - work(one, 1)
	require.GreaterOrEqual(t, perWorker, int64(coroutineUnits), "a new worker is charged as a coroutine")

	rt := NewRuntime(Options{})
	defer rt.Close()
	first = work(rt, 20)
	second := work(rt, 20)
	assert.Equal(t, 16*perWorker, first-second, "16 of the 20 workers were kept")
	assert.Equal(t, second, work(rt, 20), "and 16 again")
}

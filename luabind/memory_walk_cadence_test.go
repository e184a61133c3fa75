package luabind

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// suspendedBody is a coroutine suspended in its first yield, holding a
// table with a long string, as a body between two resumes.
func suspendedBody(t *testing.T, rt *Runtime) *lua.LState {
	t.Helper()
	fn, err := rt.compile(strings.NewReader(`local co = coroutine.create(function(npc)
  local keep = { string.rep("k", 100) }
  coroutine.yield()
  return keep
end)
coroutine.resume(co, 1)
return co`), "body.lua")
	require.NoError(t, err)
	out, err := rt.call(nil, modeLoad, fn, 1)
	require.NoError(t, err)
	th, ok := out[0].(*lua.LState)
	require.True(t, ok)
	return th
}

// noGrowth stands for a live heap that has not grown since the last walk.
const noGrowth = math.MinInt64

// TestWhenABodyIsMeasuredAfterAResume: after each resume a body is walked
// when its work since the last walk reaches walkUnits, or the headroom
// (its limit less what it held at the last walk; without an agent limit,
// the runtime's limit less what the running bodies hold) in work units
// when that is more, a unit per 64 bytes its built-ins built included;
// or when the live heap grew since the last walk by at least half that
// headroom. The walk stops one byte past the larger limit; a body found
// past its limit, or the bodies together past the runtime's, fail with
// the figures. Each case sets the heap's growth against the figure the
// check reads, so no collection's timing decides it.
func TestWhenABodyIsMeasuredAfterAResume(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	th := suspendedBody(t, rt)
	whole := walkSize(rt, 1<<40, th)
	first := walkSize(rt, 0, th) // the walk's figure once it has visited the thread alone
	require.Less(t, first+1, whole, "the walk goes on past the thread")
	require.Less(t, whole, int64(10_000))
	partial := walkSize(rt, first+1, th) // stopped after its next step
	require.Less(t, first+1, partial)
	require.Less(t, partial, whole)
	const mib = 1 << 20
	const bodyPast = "memory limit exceeded (1 MiB): the body holds about 1 MiB (see luabind.Options.MemoryLimit)"
	const runtimePast = "memory limit exceeded (1 MiB for the runtime): the running bodies hold about 1 MiB together, 1 MiB of it this one (see luabind.Options.RuntimeMemoryLimit)"
	for _, c := range []struct {
		name          string
		limit, rlimit int64 // Options.MemoryLimit and RuntimeMemoryLimit (-1: none)
		held          int64 // by this body at its last walk
		others        int64 // by the runtime's other running bodies
		work, alloc   int64 // of this resume
		grown         int64 // the live heap's growth since the last walk
		wantWork      int64 // the body's work since its last walk, after
		wantBody      int64 // the body's figure, after (what it held before, unless walked)
		wantSum       int64 // what the runtime's bodies hold together, after
		err           string
		reason        string
	}{
		{"work and built bytes add up", 64 * mib, -1, 0, 0, 100, 6400, noGrowth, 200, 0, 0, "",
			"100 units and 6,400 bytes at 64 bytes a unit"},
		{"work one short of walkUnits", mib, -1, 0, 0, walkUnits - 1, 0, noGrowth, walkUnits - 1, 0, 0, "",
			"a headroom of 1 MiB is 16,384 units: walkUnits rule"},
		{"work of walkUnits", mib, -1, 0, 0, walkUnits, 0, noGrowth, 0, whole, whole, "", "walked"},
		{"work one short of the headroom's units", 64 * mib, -1, 32 * mib, 0, 32*mib/64 - 1, 0, noGrowth, 32*mib/64 - 1, 32 * mib, 32 * mib, "",
			"32 MiB held of 64: 524,288 units"},
		{"work of the headroom's units", 64 * mib, -1, 32 * mib, 0, 32 * mib / 64, 0, noGrowth, 0, whole, whole, "",
			"walked; the runtime's sum takes the new figure in place of the old"},
		{"without an agent limit, far below the runtime's", -1, 64 * mib, 0, 0, 60_000, 0, noGrowth, 60_000, 0, 0, "",
			"the runtime's headroom, 64 MiB, is a million units"},
		{"without an agent limit, the others' share counts", -1, 64 * mib, 0, 32 * mib, 32 * mib / 64, 0, noGrowth, 0, whole, 32*mib + whole, "",
			"the runtime's headroom is 32 MiB with the others' 32"},
		{"holding its limit, the heap as at the last walk", mib, -1, mib, 0, 1, 0, 0, 1, mib, mib, "",
			"no headroom, but no growth either"},
		{"the heap grew by less than half the headroom", 10_000, -1, 0, 0, 0, 0, 4_999, 0, 0, 0, "",
			"half of 10,000 is 5,000"},
		{"the heap grew by half the headroom", 10_000, -1, 0, 0, 0, 0, 5_000, 0, whole, whole, "", "walked"},
		{"the walk goes on to a byte past the limit", first, -1, 0, 0, walkUnits, 0, noGrowth, 0, partial, partial, bodyPast,
			"at the limit after the thread alone, the walk goes on one step and finds more"},
		{"a body may hold exactly its limit", whole, -1, 0, 0, walkUnits, 0, noGrowth, 0, whole, whole, "", "the limit itself is allowed"},
		{"a body past its limit by a byte", whole - 1, -1, 0, 0, walkUnits, 0, noGrowth, 0, whole, whole, bodyPast, "fails"},
		{"the bodies may hold exactly the runtime's limit", -1, whole, 0, 0, walkUnits, 0, noGrowth, 0, whole, whole, "", "the limit itself is allowed"},
		{"the bodies past the runtime's limit by a byte", -1, whole - 1, 0, 0, walkUnits, 0, noGrowth, 0, whole, whole, runtimePast, "fails"},
	} {
		// The check reads both limits each time: one runtime serves every case.
		rt.opts.MemoryLimit, rt.opts.RuntimeMemoryLimit = c.limit, c.rlimit
		var err error
		task := &coTask{rt: rt, th: th}
		stableLive(t, func(live uint64) {
			task.mem = bodyMemory{held: c.held, liveWalk: math.MaxUint64}
			if c.grown != noGrowth {
				task.mem.liveWalk = live - uint64(c.grown)
			}
			rt.held = c.held + c.others
			err = rt.afterResume(task, c.work, c.alloc)
		})
		assert.Equal(t, c.wantWork, task.mem.work, "%s: the work since the walk: %s", c.name, c.reason)
		assert.Equal(t, c.wantBody, task.mem.held, "%s: the body's figure: %s", c.name, c.reason)
		assert.Equal(t, c.wantSum, rt.held, "%s: the bodies' figure: %s", c.name, c.reason)
		if c.err == "" {
			assert.NoError(t, err, "%s: %s", c.name, c.reason)
		} else if assert.Error(t, err, "%s: %s", c.name, c.reason) {
			assert.Equal(t, c.err, err.Error(), c.name)
		}
	}
	rt.held = 0
}

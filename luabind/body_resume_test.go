package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestResumeStartedIsResume: a started coroutine resumed by
// resumeStarted (gopher-lua's coroutine.resume on the main stack) yields,
// returns and fails with the same statuses, values and error objects as
// one resumed by L.Resume, gets the same values passed in, and leaves the
// main stack as it found it; its results are the runtime's spare slice.
func TestResumeStartedIsResume(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	L := rt.L
	fn, err := L.Load(strings.NewReader(`
		local got = coroutine.yield("ready")
		local a, b = coroutine.yield(got * 2, "x", nil, true)
		coroutine.yield()
		if a == "fail" then error({ code = b }) end
		if a == "raise" then error("plain " .. b, 0) end
		return a, b, 3
	`), "co")
	require.NoError(t, err)
	type step struct {
		st   lua.ResumeState
		err  lua.LValue
		rets []lua.LValue
	}
	run := func(fast bool, ends []lua.LValue) []step {
		th, _ := L.NewThread()
		st, err, rets := L.Resume(th, fn)
		require.NoError(t, err)
		require.Equal(t, lua.ResumeYield, st)
		out := []step{{st, nil, rets}}
		for _, args := range [][]lua.LValue{{lua.LNumber(21)}, ends, nil} {
			var st lua.ResumeState
			var err error
			var rets []lua.LValue
			if fast {
				st, rets, err = rt.resumeStarted(L, th, nil, args)
				if len(rets) > 0 {
					assert.Same(t, &rt.rets[0], &rets[0], "the spare slice")
				}
			} else {
				st, err, rets = L.Resume(th, nil, args...)
			}
			require.Equal(t, 0, L.GetTop(), "the main stack is left as it was")
			s := step{st: st, rets: append([]lua.LValue(nil), rets...)}
			if err != nil {
				s.err = err.(*lua.ApiError).Object
			}
			out = append(out, s)
			if st != lua.ResumeYield {
				break
			}
		}
		return out
	}
	for _, ends := range [][]lua.LValue{
		{lua.LString("ok"), lua.LNumber(2)},
		{lua.LString("fail"), lua.LNumber(7)},
		{lua.LString("raise"), lua.LString("text")},
	} {
		slow, fast := run(false, ends), run(true, ends)
		require.Equal(t, len(slow), len(fast), ends[0])
		for i := range slow {
			assert.Equal(t, slow[i].st, fast[i].st, "%v step %d", ends[0], i)
			assert.Equal(t, slow[i].rets, fast[i].rets, "%v step %d", ends[0], i)
			if et, ok := slow[i].err.(*lua.LTable); ok {
				ft, ok := fast[i].err.(*lua.LTable)
				require.True(t, ok, "%v step %d: %v", ends[0], i, fast[i].err)
				assert.Equal(t, et.RawGetString("code"), ft.RawGetString("code"))
			} else {
				assert.Equal(t, slow[i].err, fast[i].err, "%v step %d", ends[0], i)
			}
		}
	}
	// A dead coroutine goes through L.Resume and gets its error.
	th, _ := L.NewThread()
	_, _, _ = L.Resume(th, fn)
	th.Dead = true
	st, _, err := rt.resumeStarted(L, th, nil, nil)
	assert.Equal(t, lua.ResumeError, st)
	assert.EqualError(t, err, "can not resume a dead thread")
}

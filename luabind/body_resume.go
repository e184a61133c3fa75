package luabind

import (
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	lua "github.com/yuin/gopher-lua"
)

// resumeStarted is L.Resume(th, fn, args...) (its results before its
// error) without the slice of results gopher-lua's Resume makes for
// every resume: when L is the runtime's
// main state with an empty stack and th has started (its first resume
// went through L.Resume), it runs gopher-lua's own coroutine.resume
// (Runtime.coResume, the built-in the sandbox wraps) on L's stack and
// copies the results into the runtime's spare slice (Runtime.rets), which
// holds them until the next resume. Both paths run the coroutine the same
// way (threadRun, the same yield and error hand-over to L); the results
// and the error object are the same values. Callers read the results at
// once and keep no reference to the slice.
func (r *Runtime) resumeStarted(L, th *lua.LState, fn *lua.LFunction, args []lua.LValue) (lua.ResumeState, []lua.LValue, error) {
	padYieldTargets(th)
	if L != r.L || r.coResume == nil || !luavm.OK() || th.Dead || L.G.CurrentThread == th || L.GetTop() != 0 ||
		luavm.CurrentFrame(th).IsZero() {
		st, err, rets := L.Resume(th, fn, args...)
		return st, rets, err
	}
	L.Push(th)
	for _, a := range args {
		L.Push(a)
	}
	r.coResume(L) // the stack is now th, ok, values...
	n := L.GetTop()
	failed := lua.LVIsFalse(L.Get(2))
	clear(r.rets)
	rets := r.rets[:0]
	for i := 3; i <= n; i++ {
		rets = append(rets, L.Get(i))
	}
	if len(rets) == 0 {
		rets = append(rets, lua.LNil)
	}
	L.SetTop(0)
	if cap(rets) <= maxSpareRets {
		r.rets = rets
	}
	switch {
	case failed:
		return lua.ResumeError, nil, &lua.ApiError{Type: lua.ApiErrorRun, Object: rets[0]}
	case luavm.CurrentFrame(th).IsZero():
		return lua.ResumeOK, rets, nil
	}
	return lua.ResumeYield, rets, nil
}

// maxSpareRets is the longest result slice resumeStarted keeps for the
// next resume.
const maxSpareRets = 64

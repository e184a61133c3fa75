package luabind

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// pcall that a body may yield through. gopher-lua's own pcall runs the
// function in a nested Go call of the VM, which a yield cannot suspend
// (the coroutine silently ends). The sandbox's pcall runs the function in
// a worker coroutine instead, resumed from Go:
//   - the function returns without yielding (the common case): the worker
//     yields a private marker with the results, goes back to the pool, and
//     pcall returns true and the results; no Lua code of the sandbox runs
//     besides the worker's one-line loop, and nothing is allocated;
//   - it raises an error: the worker is dead; pcall returns false and the
//     error;
//   - it yields (npc:wait, a host method, coroutine.yield): pcall yields the
//     same values from the calling coroutine, which now waits on the worker
//     (ownedCtx.pcallWorker). Whoever resumes that coroutine next
//     (Runtime.resumeThread: the task of a body, coroutine.resume, a
//     coroutine.wrap function) resumes the worker instead, until the
//     function ends; then the calling coroutine goes on with pcall's
//     results.

// threadCtx returns the sandbox's context of a coroutine, or nil.
func threadCtx(th *lua.LState) *ownedCtx {
	c, _ := th.Context().(*ownedCtx)
	return c
}

// takeWorker returns an idle worker coroutine, or a new one.
func (r *Runtime) takeWorker(L *lua.LState) *lua.LState {
	if n := len(r.pool); n > 0 {
		w := r.pool[n-1]
		r.pool[n-1] = nil
		r.pool = r.pool[:n-1]
		return w
	}
	r.chargeCoroutine(L)
	ctx := L.RemoveContext() // else NewThread wraps it in a cancel context
	w, _ := L.NewThread()
	if ctx != nil {
		L.SetContext(ctx)
	}
	r.own(w, r.current)
	threadCtx(w).worker = true
	// Start it in the prelude's loop, which yields at once: it then waits
	// for its first function like a pooled worker.
	if st, err, _ := L.Resume(w, r.runWorker); st != lua.ResumeYield {
		// The budget ran out in the worker's first instructions.
		r.raise(L, "%s", stripPrelude(errObject(err).String()))
	}
	return w
}

// maxIdleWorkers bounds the pool of idle pcall workers.
const maxIdleWorkers = 16

func (r *Runtime) putWorker(w *lua.LState) {
	if len(r.pool) < maxIdleWorkers {
		r.pool = append(r.pool, w)
	}
}

// pcall is the sandbox's pcall(f, ...).
func (r *Runtime) pcall(L *lua.LState) int {
	if f := L.CheckAny(1); f.Type() != lua.LTFunction && L.GetMetaField(f, "__call").Type() != lua.LTFunction {
		L.SetTop(0)
		L.Push(lua.LFalse)
		L.Push(lua.LString("attempt to call a " + f.Type().String() + " value"))
		return 2
	}
	w := r.takeWorker(L)
	L.Insert(w, 1)
	r.coResume(L) // the stack is now w, ok, values...
	switch ok, tag := L.Get(2), L.Get(3); {
	case ok != lua.LTrue:
		// f raised an error and the worker is dead.
		msg, stop := r.protectedError(tag, w)
		if stop {
			L.Error(msg, 0)
		}
		L.SetTop(0)
		L.Push(lua.LFalse)
		L.Push(msg)
		return 2
	case tag == r.doneToken:
		r.putWorker(w)
		L.Replace(3, lua.LTrue)
		return L.GetTop() - 2
	}
	// f yielded: yield its values from this coroutine, which now waits on
	// the worker.
	r.checkYield(L) // also refuses a yield on the main thread
	c := threadCtx(L)
	if c == nil {
		r.raise(L, "%s", r.noCoroutine())
	}
	c.pcallWorker = w
	c.pcallEnds = waitEndsCoroutine(L)
	L.Remove(1)
	L.Remove(1)
	return -1
}

// protectedError is what pcall returns for the error object v of a
// protected function that failed: a message loses a position in the
// sandbox's prelude and any heap address gopher-lua wrote in it (a
// trace that prints it repeats); a position in the prelude becomes the
// script line that called into it (w is the dead worker, whose frames
// remain), so npc.achieve(...) or a host call that failed over ticks is
// placed as it is outside pcall. When the budget or a memory limit was
// spent, stop is true and msg names the line where it was: that is not
// the function's error to catch, and the caller stops too.
func (r *Runtime) protectedError(v lua.LValue, w *lua.LState) (msg lua.LValue, stop bool) {
	s, ok := v.(lua.LString)
	if !ok {
		return v, false
	}
	if b := r.budget; b.armed && b.spent != nil {
		return lua.LString(locateAt(string(s), b.spentAt)), true
	}
	m := string(s)
	if b := r.budget; b.armed {
		// The scrub below reads the whole message: charge it first, so
		// catching a long message again and again spends the budget.
		b.n += scrubWork(len(m))
		if b.limit > 0 && b.n > b.limit {
			b.spend(b.overrun())
			return lua.LString(scriptWhere(w) + b.spent.Error()), true
		}
	}
	if stripped := stripPrelude(m); stripped != m {
		m = scriptWhere(w) + stripped
	}
	if m == "lua callstack overflow" {
		// gopher-lua's own text, with no position: name the line of the
		// call that overflowed (the dead worker's innermost frame), as
		// an uncaught overflow reads.
		m = scriptWhere(w) + "stack overflow: more than " + itoa(callStackSize) + " nested Lua calls (a recursion that never ends?)"
	}
	return lua.LString(scrubAddresses(m)), false
}

// stripPrelude drops a position in the sandbox's own Lua code (the budget
// or a limit stopping the worker's loop) from an error message.
func stripPrelude(msg string) string {
	if rest, ok := strings.CutPrefix(msg, preludeName+":"); ok {
		if i := strings.Index(rest, ": "); i > 0 && strings.Trim(rest[:i], "0123456789") == "" {
			return rest[i+2:]
		}
	}
	return msg
}

// resumeThread resumes th as L.Resume does (fn starts it on its first
// resume), but when th waits on a pcall worker it resumes the worker with
// args instead, until the protected function ends, and then th with
// pcall's results. A yield of the worker is th's yield.
func (r *Runtime) resumeThread(L, th *lua.LState, fn *lua.LFunction, args []lua.LValue) (lua.ResumeState, []lua.LValue, error) {
	for {
		c := threadCtx(th)
		if c == nil || c.pcallWorker == nil {
			if ok, vals, ends := r.afterWait(th); ok {
				if ends {
					th.Dead = true
					if b := r.budget; b.spent != nil {
						return lua.ResumeError, nil, &lua.ApiError{Type: lua.ApiErrorRun, Object: lua.LString(b.spentAt + b.spent.Error())}
					}
					return lua.ResumeOK, nil, nil
				}
				args = vals
			}
			st, rets, err := r.resumeStarted(L, th, fn, args)
			if st == lua.ResumeOK && c != nil && (c.endsAfterWait && c.afterWait || c.pcallWorker != nil) {
				// goWait or pcall yielded with no Lua frame under it,
				// which gopher-lua takes for the end of the coroutine.
				st = lua.ResumeYield
			}
			return st, rets, err
		}
		w := c.pcallWorker
		st, rets, err := r.resumeThread(L, w, nil, args)
		switch {
		case st == lua.ResumeYield && len(rets) > 0 && rets[0] == r.doneToken:
			c.pcallWorker = nil
			r.putWorker(w)
			args = append([]lua.LValue{lua.LTrue}, rets[1:]...)
		case st == lua.ResumeYield:
			return st, rets, nil // still waiting inside the pcall
		default:
			// The protected function failed (the worker is dead).
			c.pcallWorker = nil
			msg, stop := r.protectedError(errObject(err), w)
			if stop {
				// A spent budget or memory limit stops th too.
				return lua.ResumeError, nil, &lua.ApiError{Type: lua.ApiErrorRun, Object: msg}
			}
			args = []lua.LValue{lua.LFalse, msg}
		}
		if c.pcallEnds {
			// return pcall(f) was th's last frame: th ends with what
			// pcall returns.
			c.pcallEnds = false
			th.Dead = true
			return lua.ResumeOK, args, nil
		}
	}
}

// resumeWaiting is coroutine.resume for a coroutine that waits on a pcall
// worker (see resumeThread): the stack holds the coroutine and the values
// to resume it with; it pushes what coroutine.resume returns.
func (r *Runtime) resumeWaiting(L, th *lua.LState) int {
	args := make([]lua.LValue, 0, L.GetTop()-1)
	for i := 2; i <= L.GetTop(); i++ {
		args = append(args, L.Get(i))
	}
	st, rets, err := r.resumeThread(L, th, nil, args)
	if st == lua.ResumeError {
		msg := errObject(err)
		L.Push(lua.LFalse)
		L.Push(msg)
		return 2
	}
	L.Push(lua.LTrue)
	for _, v := range rets {
		L.Push(v)
	}
	return len(rets) + 1
}

// forgetWorkers drops the pcall workers a finished coroutine waited on.
func forgetWorkers(th *lua.LState) {
	for c := threadCtx(th); c != nil && c.pcallWorker != nil; {
		w := c.pcallWorker
		c.pcallWorker = nil
		c = threadCtx(w)
	}
}

// dropIdleWorkers empties the pool (idle workers still hold the last
// function they ran and its arguments).
func (r *Runtime) dropIdleWorkers() {
	clear(r.pool)
	r.pool = r.pool[:0]
}

// errObject is the value a failed resume raised: the error object of a
// Lua error (a message, or any value error() was given), else its text.
func errObject(err error) lua.LValue {
	if ae, ok := err.(*lua.ApiError); ok && ae.Object != nil {
		return ae.Object
	}
	if err == nil {
		return lua.LString("the protected function ended its worker")
	}
	return lua.LString(err.Error())
}

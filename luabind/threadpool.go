package luabind

import (
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// Reusing body coroutines. gopher-lua's NewThread builds a whole Lua
// state for every coroutine (a global table and a registry table that the
// coroutine never uses, a value stack, a call stack), about 8 KB and a
// dozen allocations, and every action that starts needs one. A body's
// coroutine that ended by returning is reset and kept instead, and the
// next body start of the runtime takes it (newThread).
//
// Only a coroutine that nothing can tell from a new one is kept: it
// returned (its call stack is empty and no upvalue of its frames is still
// open), its value stack never grew, it waits on no pcall worker, and no
// Lua code ever got hold of it (coroutine.running marks it seen; a script
// that kept it must still find it dead). Its value stack is cleared, so a
// later body finds no value a previous one left in a slot, and its
// context is made anew for the agent it goes to.

// maxIdleThreads is how many idle body coroutines (about 4 KB each) a
// runtime keeps across a garbage collection. Between two collections it
// keeps every one (agents that act in step end their bodies in the same
// tick and start the next ones a tick or more later); once a collection
// has run, the idle ones beyond this many are dropped at the next body
// start or end, so a pool never holds more than a burst's worth for
// longer than a collection cycle, as the garbage it replaces would.
const maxIdleThreads = 32

// trimThreads drops the idle coroutines beyond maxIdleThreads once a
// collection has run since the last look.
func (r *Runtime) trimThreads() {
	if c := gcWatch.cycles.Load(); c != r.threadsGC {
		r.threadsGC = c
		if len(r.threads) > maxIdleThreads {
			clear(r.threads[maxIdleThreads:])
			r.threads = r.threads[:maxIdleThreads]
		}
	}
}

// newThread returns a coroutine of the runtime's state that belongs to
// agent and counts its instructions against the runtime's budget: an
// idle one (see recycleThread) or a new one.
func (r *Runtime) newThread(agent *engine.Agent) *lua.LState {
	r.trimThreads()
	if n := len(r.threads); n > 0 {
		th := r.threads[n-1]
		r.threads[n-1] = nil
		r.threads = r.threads[:n-1]
		th.Dead = false
		th.Env = r.L.Env
		c := threadCtx(th)
		*c = ownedCtx{budget: c.budget, owner: agent, th: th}
		return th
	}
	ctx := r.L.RemoveContext() // else NewThread wraps it in a cancel context
	th, _ := r.L.NewThread()
	if ctx != nil {
		r.L.SetContext(ctx)
	}
	r.own(th, agent)
	return th
}

// recycleThread keeps th, the coroutine of a body that has just returned,
// for a later newThread when nothing can tell it from a new coroutine
// (see above); else it is left to the collector.
func (r *Runtime) recycleThread(th *lua.LState) {
	r.trimThreads()
	if !peek.ok || !th.Dead || th.Parent != nil {
		return
	}
	c := threadCtx(th)
	if c == nil || c.seen || c.worker || c.pcallWorker != nil {
		return
	}
	p := unsafe.Pointer(th)
	if *(*unsafe.Pointer)(unsafe.Add(p, peek.stateFrame)) != nil || *(*unsafe.Pointer)(unsafe.Add(p, peek.stateUpvalues)) != nil {
		return
	}
	reg := *(*unsafe.Pointer)(unsafe.Add(p, peek.stateReg))
	arr := *(*[]lua.LValue)(unsafe.Add(reg, peek.regArray))
	if len(arr) != registrySize {
		return // a grown stack: give its memory back
	}
	clear(arr)
	*(*int)(unsafe.Add(reg, peek.regTop)) = 0
	c.owner = nil
	r.threads = append(r.threads, th)
}

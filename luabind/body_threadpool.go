package luabind

import (
	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
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
// runtime keeps in any case.
//
// Beyond that, the pool keeps what the world still uses: an idle
// coroutine is dropped only when it stayed idle through two whole
// collection cycles (the bottom of the pool, which newThread takes from
// last, that no newThread reached since the collection before last).
// Agents that act in step end their bodies in the same tick and start
// the next ones a tick or more later, so the pool swings between empty
// and thousands; trimming it to a fixed size at each collection made
// thousands of new coroutines (and their garbage) once per cycle. A world
// that shrinks still gives its surplus back at the first body start or
// end after two cycles.
const maxIdleThreads = 32

// threadPool is the runtime's idle body coroutines (newThread,
// recycleThread) and what trimThreads knows of their use.
type threadPool struct {
	idle []*lua.LState
	gc   uint64 // the collections trimThreads last saw
	// low is the fewest idle coroutines since the last collection: the
	// bottom low of idle were untouched in this cycle; lowPrev is the
	// same for the cycle before, less what was dropped since.
	low, lowPrev int
}

// trimThreads drops, once a collection has run since the last look, the
// idle coroutines that stayed idle through this cycle and the one before,
// keeping at least maxIdleThreads.
func (r *Runtime) trimThreads() {
	p := &r.threads
	c := gcWatch.cycles.Load()
	if c == p.gc {
		return
	}
	p.gc = c
	drop := min(p.low, p.lowPrev, len(p.idle)-maxIdleThreads)
	if drop > 0 {
		n := copy(p.idle, p.idle[drop:])
		clear(p.idle[n:])
		p.idle = p.idle[:n]
	}
	p.lowPrev = p.low - max(drop, 0)
	p.low = len(p.idle)
}

// newThread returns a coroutine of the runtime's state that belongs to
// agent and counts its instructions against the runtime's budget: an
// idle one (see recycleThread) or a new one.
func (r *Runtime) newThread(agent *engine.Agent) *lua.LState {
	r.trimThreads()
	if p := &r.threads; len(p.idle) > 0 {
		n := len(p.idle)
		th := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.low = min(p.low, n-1)
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
	if !luavm.OK() || !th.Dead || th.Parent != nil {
		return
	}
	c := threadCtx(th)
	if c == nil || c.seen || c.worker || c.pcallWorker != nil {
		return
	}
	if !luavm.CurrentFrame(th).IsZero() || luavm.HasOpenUpvalues(th) {
		return
	}
	if arr, _ := luavm.Stack(th); len(arr) != registrySize {
		return // a grown stack: give its memory back
	}
	luavm.ClearStack(th)
	c.owner = nil
	r.threads.idle = append(r.threads.idle, th)
}

package luabind

import (
	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/internal/prefetch"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	lua "github.com/yuin/gopher-lua"
)

// Warming a body's memory before its resume (engine.Warmer). With 10,000
// bodies none of a coroutine's memory is still in the cache when its next
// resume comes, and the resume chases pointers: the task, its LState, the
// LState's registry and the stack slots it holds, the call frames, the
// coroutine's context (the budget's per-instruction check), the npc
// object, its npcRef and its npc.state. Each is a cache miss that the
// next one waits for. When a resume yields, everything it touched is in
// the cache, so the task notes then where those objects lie (noteWarm),
// and also the memory the next resume writes before it reads it: the
// stack slots above the top, the call frames above the running one and
// the frame stack's array of segments. The world's tick calls Warm(0) a
// few agents ahead, which prefetches the task itself, and Warm(1) a
// couple of agents later (engine's warmAhead and warmGap), which reads
// the noted addresses (now in the cache) and prefetches them all at once.
//
// The addresses are kept as integers, not pointers: they keep nothing
// alive, and a stale one (a stack that grew since, a task that ended) only
// makes a useless prefetch, which never faults. Warm reads only the
// task's own fields and changes nothing.

// maxWarm is how many spans a task notes: up to 6 fixed ones and 2 of
// the coroutine's, and the host call's arguments (a parent frame in
// another segment of the frame stack takes their place). One more would
// make the task 240 bytes, not 224.
const maxWarm = 9

// warmSpans are the spans of memory the next resume of a task reads,
// besides the LState, the npc object and the host call's handle, whose
// addresses the task holds (each a prefetch.Region: an address and its
// number of cache lines). The first fixed spans stay the same for the
// coroutine's life (noted at its first yield), the next up to co vary
// with each yield (its stack slots and call frames), and the rest, up to
// n, are the host call's arguments.
type warmSpans struct {
	at           [maxWarm]prefetch.Region
	fixed, co, n uint8
}

// add notes the span r (nothing when r is zero or the spans are full).
func (w *warmSpans) add(r prefetch.Region) {
	if r == 0 || int(w.n) == maxWarm {
		return
	}
	w.at[w.n] = r
	w.n++
}

// prefetch prefetches spans from..to-1.
func (w *warmSpans) prefetch(from, to uint8) {
	if from < to {
		prefetch.Regions(w.at[from:to])
	}
}

// maxWarmSlots is how many stack slots, from the bottom, noteWarm notes.
const maxWarmSlots = 32

// warmSlotsAbove is how many stack slots above the top at the yield
// noteWarm notes: the resume writes them first (the arguments and
// frames of the calls it makes; gopher-lua clears the slots above the
// top when it lowers it). The soldier's attack loop yields with 2 slots
// in use and reaches 10 in its Lua code and a few more in the Go
// functions it calls (measured with the budget's check per instruction);
// without them callgrind counted 3 lines a resume first written there.
const warmSlotsAbove = 16

// warmFramesAbove is how many call frames above the running one
// noteWarm notes, within its segment of the frame stack: the resume
// pushes them (the attack loop's host call and wait, its state
// metamethods: 2 frames deep; 2 lines a resume first written there
// before).
const warmFramesAbove = 2

// noteWarm notes, after a resume that yielded, where the memory lies that
// the task's next resume reads first: the coroutine, and the host call it
// polls when it waits for one.
func (t *coTask) noteWarm() {
	w := &t.warm
	th := t.th
	if th == nil || !luavm.OK() {
		w.fixed, w.co, w.n = 0, 0, 0
		return
	}
	if w.fixed == 0 {
		t.noteFixed(th)
		w.fixed = w.n
	}
	w.n = w.fixed
	if slots, top := luavm.Stack(th); len(slots) > 0 {
		w.add(prefetch.SliceRegion(slots[:min(max(top, 0)+warmSlotsAbove, len(slots), maxWarmSlots)]))
	}
	if cf, parent := callFrames(th); !cf.IsZero() {
		// The running frame and the ones the resume pushes above it, up
		// to its segment's end (the frames of a segment lie one after
		// another); its parent too when it lies just below in the same
		// segment.
		size := luavm.FrameSize()
		at := uintptr(cf.Depth() % lua.FramesPerSegment)
		lo, hi := cf.Addr(), cf.Addr()+min(1+warmFramesAbove, lua.FramesPerSegment-at)*size
		p := parent.Addr()
		if p != 0 && p < lo && lo-p <= at*size {
			lo, p = p, 0
		}
		w.add(prefetch.RegionAt(lo, hi-lo))
		w.add(prefetch.RegionAt(p, size))
	}
	w.co = w.n
	if h := t.host; h != nil {
		w.add(prefetch.SliceRegion(h.call.Args))
	}
}

// noteFixed notes the spans that stay the same for the coroutine's life:
// its value stack's registry, its call frame stack and the array of that
// stack's segments, its context, and the npc object's npcRef and
// npc.state.
func (t *coTask) noteFixed(th *lua.LState) {
	w := &t.warm
	w.n = 0
	w.add(prefetch.RegionAt(luavm.StackAddr(th), 64))
	w.add(prefetch.RegionAt(luavm.CallStackAddr(th), 64))
	w.add(prefetch.RegionAt(luavm.CallStackSegmentsAddr(th), 64)) // the first 8 segments' pointers
	w.add(prefetch.RegionOf(threadCtx(th)))
	if ud := t.npc; ud != nil {
		if p, ok := ud.Value.(*npcRef); ok {
			w.add(prefetch.RegionOf(p))
			w.add(prefetch.RegionOf(p.state))
		}
	}
	if w.n == 0 {
		w.add(prefetch.RegionOf(th)) // fixed is never 0 once noted
	}
}

var _ engine.Warmer = (*luaTask)(nil)

// Warm implements engine.Warmer (see above): step 0 prefetches the task,
// step 1 the memory its next resume reads, as noted when it last
// yielded: only the host call's while it polls one (the coroutine is
// resumed only once the call is done), nothing for a body not started
// yet (its coroutine is new) or one that waits on a reactive plan.
func (t *luaTask) Warm(step int) {
	if step == 0 {
		prefetch.Ptr(t)
		return
	}
	if t.done || !t.started || t.bw != nil {
		return
	}
	w := &t.warm
	if h := t.host; h != nil {
		prefetch.Ptr(h)
		w.prefetch(w.co, w.n)
		return
	}
	prefetch.Ptr(t.th)
	prefetch.Ptr(t.npc)
	w.prefetch(0, w.co)
}

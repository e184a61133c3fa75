package luabind

import (
	"reflect"
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/internal/prefetch"
	lua "github.com/yuin/gopher-lua"
)

// Warming a body's memory before its resume (engine.Warmer). With 10,000
// bodies none of a coroutine's memory is still in the cache when its next
// resume comes, and the resume chases pointers: the task, its LState, the
// LState's registry and the stack slots it holds, the call frames, the
// coroutine's context (the budget's per-instruction check), the npc
// object, its npcRef and its npc.state. Each is a cache miss that the
// next one waits for. When a resume yields, everything it touched is in
// the cache, so the task notes then where those objects lie (noteWarm);
// the world's tick calls Warm(0) two agents ahead, which prefetches the
// task itself, and Warm(1) one agent ahead, which reads the noted
// addresses (now in the cache) and prefetches them all at once.
//
// The addresses are kept as integers, not pointers: they keep nothing
// alive, and a stale one (a stack that grew since, a task that ended) only
// makes a useless prefetch, which never faults. Warm reads only the
// task's own fields and changes nothing.

// maxWarm is how many spans a task notes.
const maxWarm = 9

// warmSpans are the spans of memory the next resume of a task reads,
// besides the LState, the npc object and the host call's handle, whose
// addresses the task holds: each an address with its number of cache
// lines in the top byte. The first fixed spans stay the same for the
// coroutine's life (noted at its first yield), the next up to co vary
// with each yield (its stack slots and call frames), and the rest, up to
// n, are the host call's arguments.
type warmSpans struct {
	at           [maxWarm]uint64
	fixed, co, n uint8
}

// add notes the size bytes from p (nothing when p is nil or the spans are
// full), at most 255 lines.
func (w *warmSpans) add(p unsafe.Pointer, size uintptr) {
	if p == nil || size == 0 || int(w.n) == maxWarm {
		return
	}
	a := uint64(uintptr(p))
	lines := min((a&63+uint64(size)+63)/64, 255)
	w.at[w.n] = a&(1<<56-1) | lines<<56
	w.n++
}

// prefetch prefetches spans from..to-1.
func (w *warmSpans) prefetch(from, to uint8) {
	if from < to {
		prefetchSpans(&w.at[from], int(to-from))
	}
}

// stateStack is the offset of the data word of LState.stack (an
// interface holding the call frame stack); 0 when peeking is off or
// gopher-lua has no such field.
var stateStack = func() uintptr {
	f, ok := reflect.TypeFor[lua.LState]().FieldByName("stack")
	if !ok || f.Type.Kind() != reflect.Interface {
		return 0
	}
	return f.Offset + unsafe.Sizeof(uintptr(0))
}()

// maxWarmSlots is how many stack slots, from the bottom, noteWarm notes.
const maxWarmSlots = 32

// noteWarm notes, after a resume that yielded, where the memory lies that
// the task's next resume reads first: the coroutine, and the host call it
// polls when it waits for one.
func (t *coTask) noteWarm() {
	w := &t.warm
	th := t.th
	if th == nil || !peek.ok {
		w.fixed, w.co, w.n = 0, 0, 0
		return
	}
	if w.fixed == 0 {
		t.noteFixed(th)
		w.fixed = w.n
	}
	w.n = w.fixed
	if reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), peek.stateReg)); reg != nil {
		arr := *(*[]lua.LValue)(unsafe.Add(reg, peek.regArray))
		if top := min(*(*int)(unsafe.Add(reg, peek.regTop)), len(arr), maxWarmSlots); top > 0 {
			w.add(unsafe.Pointer(&arr[0]), uintptr(top)*unsafe.Sizeof(arr[0]))
		}
	}
	if cf, parent := callFrames(th); cf != nil {
		const frameSize = 10 * unsafe.Sizeof(0) // gopher-lua's callFrame: ten words
		if parent != nil && uintptr(parent) < uintptr(cf) && uintptr(cf)-uintptr(parent) <= 4*frameSize {
			w.add(parent, uintptr(cf)-uintptr(parent)+frameSize) // side by side in the frame stack
		} else {
			w.add(cf, frameSize)
			w.add(parent, frameSize)
		}
	}
	w.co = w.n
	if h := t.host; h != nil {
		if len(h.call.Args) > 0 {
			w.add(unsafe.Pointer(&h.call.Args[0]), uintptr(len(h.call.Args))*unsafe.Sizeof(h.call.Args[0]))
		}
	}
}

// noteFixed notes the spans that stay the same for the coroutine's life:
// its registry, call frame stack and context, and the npc object's
// npcRef and npc.state.
func (t *coTask) noteFixed(th *lua.LState) {
	w := &t.warm
	w.n = 0
	w.add(*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), peek.stateReg)), 64)
	if stateStack != 0 {
		w.add(*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), stateStack)), 64)
	}
	if c := threadCtx(th); c != nil {
		w.add(unsafe.Pointer(c), unsafe.Sizeof(*c))
	}
	if ud := t.npc; ud != nil {
		if p, ok := ud.Value.(*npcRef); ok {
			w.add(unsafe.Pointer(p), unsafe.Sizeof(*p))
			w.add(unsafe.Pointer(p.state), unsafe.Sizeof(lua.LUserData{}))
		}
	}
	if w.n == 0 {
		w.add(unsafe.Pointer(th), 1) // fixed is never 0 once noted
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
		prefetch.Span(unsafe.Pointer(t), unsafe.Sizeof(*t))
		return
	}
	if t.done || !t.started || t.bw != nil {
		return
	}
	w := &t.warm
	if h := t.host; h != nil {
		prefetch.Span(unsafe.Pointer(h), unsafe.Sizeof(*h))
		w.prefetch(w.co, w.n)
		return
	}
	prefetch.Span(unsafe.Pointer(t.th), unsafe.Sizeof(lua.LState{}))
	prefetch.Span(unsafe.Pointer(t.npc), unsafe.Sizeof(lua.LUserData{}))
	w.prefetch(0, w.co)
}

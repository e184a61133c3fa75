package luabind

import (
	"reflect"
	"sync"
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
func (w *warmSpans) add(p unsafe.Pointer, size uintptr) { w.addAt(uintptr(p), size) }

// addAt is add for an address held as an integer.
func (w *warmSpans) addAt(p, size uintptr) {
	if p == 0 || size == 0 || int(w.n) == maxWarm {
		return
	}
	a := uint64(p)
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

// frameSize and frameIdx are the size of gopher-lua's callFrame and the
// offset of its Idx (the frame's place in the whole frame stack, so its
// place in its segment is Idx % lua.FramesPerSegment); 0 when gopher-lua
// has no such field.
var frameSize, frameIdx = func() (uintptr, uintptr) {
	f, ok := reflect.TypeFor[lua.LState]().FieldByName("currentFrame")
	if !ok || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct {
		return 0, 0
	}
	idx, ok := f.Type.Elem().FieldByName("Idx")
	if !ok || idx.Type.Kind() != reflect.Int {
		return 0, 0
	}
	return f.Type.Elem().Size(), idx.Offset
}()

// frameStack is where the call frame stack of a state made with
// MinimizeStackMemory (as the runtime's are, see NewRuntime) keeps the
// slice of its segments, whose array every push, pop and look-up of a
// frame reads: typ is LState.stack's type word for that stack, segs the
// offset of the slice in the struct it points to. Found by reflection on
// the first coroutine noted (the stack's type is unexported); typ stays 0
// when the stack is not as expected.
var frameStack struct {
	once sync.Once
	typ  uintptr
	segs uintptr
}

// stackSegments returns the address of the array of th's frame stack
// segments, or nil when it cannot be read.
func stackSegments(th *lua.LState) unsafe.Pointer {
	if stateStack == 0 {
		return nil
	}
	word := unsafe.Sizeof(uintptr(0))
	iface := unsafe.Add(unsafe.Pointer(th), stateStack-word)
	frameStack.once.Do(func() {
		v := reflect.ValueOf(th).Elem().FieldByName("stack")
		if v.Kind() != reflect.Interface || v.IsNil() {
			return
		}
		pt := v.Elem().Type()
		if pt.Kind() != reflect.Pointer || pt.Elem().Kind() != reflect.Struct {
			return
		}
		f, ok := pt.Elem().FieldByName("segments")
		if !ok || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Pointer {
			return
		}
		frameStack.segs = f.Offset
		frameStack.typ = *(*uintptr)(iface)
	})
	if frameStack.typ == 0 || *(*uintptr)(iface) != frameStack.typ {
		return nil
	}
	cs := *(*unsafe.Pointer)(unsafe.Add(iface, word))
	if cs == nil {
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Add(cs, frameStack.segs))
}

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
		if top := min(max(*(*int)(unsafe.Add(reg, peek.regTop)), 0)+warmSlotsAbove, len(arr), maxWarmSlots); top > 0 {
			w.add(unsafe.Pointer(&arr[0]), uintptr(top)*unsafe.Sizeof(arr[0]))
		}
	}
	if cf, parent := callFrames(th); cf != nil && frameSize != 0 {
		// The running frame and the ones the resume pushes above it, up
		// to its segment's end; its parent too when it lies just below
		// in the same segment.
		at := uintptr(*(*int)(unsafe.Add(cf, frameIdx)) % lua.FramesPerSegment)
		lo, hi := uintptr(cf), uintptr(cf)+min(1+warmFramesAbove, lua.FramesPerSegment-at)*frameSize
		if p := uintptr(parent); p != 0 && p < lo && lo-p <= at*frameSize {
			lo, parent = p, nil
		}
		w.addAt(lo, hi-lo)
		w.add(parent, frameSize)
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
		w.add(stackSegments(th), 64) // the first 8 segments' pointers
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

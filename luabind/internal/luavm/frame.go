package luavm

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// A Frame is one call frame of a thread (gopher-lua's unexported
// callFrame): the function it runs, where it is in that function's code,
// where its registers start on the thread's value stack, and the frame
// under it. The zero Frame is no frame. A Frame is valid while it stays
// on its thread's call stack: gopher-lua reuses a popped frame's memory
// for the next call.
type Frame struct{ p unsafe.Pointer }

// CurrentFrame is the frame th runs now, or is suspended in: the top of
// its call stack. It is the zero Frame when th runs nothing, or when OK
// is false.
func CurrentFrame(th *lua.LState) Frame {
	if !layout.ok {
		return Frame{}
	}
	return currentFrame(th)
}

// currentFrame is CurrentFrame without the test of layout.ok.
func currentFrame(th *lua.LState) Frame {
	return Frame{*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), layout.stateFrame))}
}

// IsZero reports whether f is no frame.
func (f Frame) IsZero() bool { return f.p == nil }

// Parent is the frame under f, which called it; zero at the bottom of
// the call stack. f must not be zero.
func (f Frame) Parent() Frame {
	return Frame{*(*unsafe.Pointer)(unsafe.Add(f.p, layout.frameParent))}
}

// Function is the function f runs, a Lua or a Go one (IsG). f must not be
// zero.
func (f Frame) Function() *lua.LFunction {
	return *(**lua.LFunction)(unsafe.Add(f.p, layout.frameFn))
}

// PC is the index, in the code of the Lua function f runs, of f's next
// instruction: the VM fetches an instruction and moves PC past it before
// running it, so the instruction f runs (or, under the running frame,
// the call it waits in) is the one at PC-1. f must not be zero.
func (f Frame) PC() int {
	return *(*int)(unsafe.Add(f.p, layout.framePc))
}

// LocalBase is where f's registers start on its thread's value stack:
// register i is the slot LocalBase+i. f must not be zero.
func (f Frame) LocalBase() int {
	return *(*int)(unsafe.Add(f.p, layout.frameLocalBase))
}

// TailCalls is how many tail calls f's Lua function replaced (each a
// level of the call stack that lua.LState.GetStack counts). f must not be
// zero.
func (f Frame) TailCalls() int {
	return *(*int)(unsafe.Add(f.p, layout.frameTailCall))
}

// Depth is f's place on its thread's call stack, 0 at the bottom. The
// call stack keeps its frames in segments of lua.FramesPerSegment frames
// each, one after another in memory: f is at Depth %
// lua.FramesPerSegment in its segment. f must not be zero.
func (f Frame) Depth() int {
	return *(*int)(unsafe.Add(f.p, layout.frameIdx))
}

// Addr is the address of f's memory, FrameSize bytes, for a prefetch:
// it keeps nothing alive.
func (f Frame) Addr() uintptr { return uintptr(f.p) }

// FrameSize is the size of one call frame in memory (0 when OK is
// false).
func FrameSize() uintptr { return layout.frameSize }

// NextInstruction returns th's current frame and the instruction its VM
// has fetched and is about to run, when that instruction's opcode (its
// top 6 bits) is one of ops, a bit per opcode; otherwise the zero Frame.
// The VM asks its context's Done after each fetch, so a budget that Done
// calls sees each instruction here before it runs. A Go function's
// frame, or one whose PC is outside its code, gives the zero Frame.
//
// It is the budget's test at every instruction, small enough to inline:
// ops must be 0 when OK is false (nothing is read then).
func NextInstruction(th *lua.LState, ops uint64) (Frame, uint32) {
	if ops != 0 {
		if cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), layout.stateFrame)); cf != nil {
			if p := (*(**lua.LFunction)(unsafe.Add(cf, layout.frameFn))).Proto; p != nil {
				if pc := *(*int)(unsafe.Add(cf, layout.framePc)) - 1; uint(pc) < uint(len(p.Code)) {
					if inst := p.Code[pc]; ops>>(inst>>26)&1 != 0 {
						return Frame{cf}, inst
					}
				}
			}
		}
	}
	return Frame{}, 0
}

// Register returns register i of f, a Lua frame of th (the value stack's
// slot f.LocalBase()+i), or lua.LNil when that slot is outside the stack.
// f must not be zero.
func Register(th *lua.LState, f Frame, i int) lua.LValue {
	arr := *(*[]lua.LValue)(unsafe.Add(*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), layout.stateReg)), layout.regArray))
	if i += *(*int)(unsafe.Add(f.p, layout.frameLocalBase)); uint(i) < uint(len(arr)) {
		return arr[i]
	}
	return lua.LNil
}

// GetStack is th.GetStack(level) that sets dbg to describe the frame
// found, instead of making a new lua.Debug, and reports whether a frame
// was found: level 0 is the running (or suspended) function, each level
// up its caller, a Lua frame's tail calls counting as levels; a level
// that falls inside a run of tail calls gives the bottom frame, as in
// gopher-lua. When OK is false it calls th.GetStack and copies its
// result into dbg.
func GetStack(th *lua.LState, level int, dbg *lua.Debug) bool {
	if !layout.ok {
		d, ok := th.GetStack(level)
		if ok {
			*dbg = *d
		}
		return ok
	}
	f, ok := stackLevel(th, level)
	if ok {
		*dbg = lua.Debug{}
		*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(dbg), layout.debugFrame)) = f.p
	}
	return ok
}

// stackLevel is the frame of th at level as GetStack finds it (by the
// same steps), false past the bottom.
func stackLevel(th *lua.LState, level int) (Frame, bool) {
	frame := currentFrame(th)
	bottom := frame
	for ; level > 0 && frame.p != nil; frame = frame.Parent() {
		level--
		if !frame.Function().IsG {
			level -= frame.TailCalls()
		}
	}
	switch {
	case level == 0 && frame.p != nil:
		return frame, true
	case level < 0 && bottom.p != nil:
		// GetStack's stack.At(0): the first frame, which has no parent.
		for p := bottom; p.p != nil; p = p.Parent() {
			bottom = p
		}
		return bottom, true
	}
	return Frame{}, false
}

// debugFrame is the frame dbg describes.
func debugFrame(dbg *lua.Debug) Frame {
	return Frame{*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(dbg), layout.debugFrame))}
}

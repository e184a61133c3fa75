package luabind

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Reading a coroutine's call frames without gopher-lua's GetStack, which
// makes a new lua.Debug for every level the memory walk looks at
// (sizer.visit). stackFrame finds the frame GetStack(level) would find,
// by the same steps, and the walk sets it into one lua.Debug of its own.
// The offsets of lua.Debug.frame and callFrame.TailCall are found by name
// at init, like vmpeek.go's; when either is missing (or peeking is off)
// stackPeek.ok is false and the walk calls GetStack.
var stackPeek struct {
	ok         bool
	debugFrame uintptr // lua.Debug.frame
	tailCall   uintptr // callFrame.TailCall
}

func init() {
	df, ok1 := reflect.TypeFor[lua.Debug]().FieldByName("frame")
	cf, ok2 := reflect.TypeFor[lua.LState]().FieldByName("currentFrame")
	if !ok1 || !ok2 || df.Type != cf.Type || df.Type.Kind() != reflect.Pointer {
		return
	}
	tc, ok3 := df.Type.Elem().FieldByName("TailCall")
	if !ok3 || tc.Type.Kind() != reflect.Int {
		return
	}
	stackPeek.debugFrame, stackPeek.tailCall = df.Offset, tc.Offset
	stackPeek.ok = true
}

// stackFrame returns the call frame of th at level as GetStack(level)
// finds it: level 0 is the running (or suspended) function, each level
// up its caller, a Lua frame's tail calls counting as levels; a level
// that falls inside a run of tail calls gives the bottom frame. ok is
// false past the bottom. Only with peek.ok and stackPeek.ok.
func stackFrame(th *lua.LState, level int) (frame unsafe.Pointer, ok bool) {
	frame = frameOf(th)
	bottom := frame
	for ; level > 0 && frame != nil; frame = *(*unsafe.Pointer)(unsafe.Add(frame, peek.frameParent)) {
		level--
		if fn := *(**lua.LFunction)(unsafe.Add(frame, peek.frameFn)); !fn.IsG {
			level -= *(*int)(unsafe.Add(frame, stackPeek.tailCall))
		}
	}
	switch {
	case level == 0 && frame != nil:
		return frame, true
	case level < 0 && bottom != nil:
		// GetStack's stack.At(0): the first frame, which has no parent.
		for p := bottom; p != nil; p = *(*unsafe.Pointer)(unsafe.Add(p, peek.frameParent)) {
			bottom = p
		}
		return bottom, true
	}
	return nil, false
}

// setDebugFrame makes dbg describe frame, as GetStack's result would.
func setDebugFrame(dbg *lua.Debug, frame unsafe.Pointer) {
	*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(dbg), stackPeek.debugFrame)) = frame
}

// debugFrameOf is the frame dbg describes (for tests).
func debugFrameOf(dbg *lua.Debug) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(dbg), stackPeek.debugFrame))
}

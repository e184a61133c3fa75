package luavm

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Stack returns th's value stack as gopher-lua holds it and its top (one
// past the last slot in use): every slot, past the top too, in a slice
// that shares the stack's memory (valid until the stack grows; a write
// to it writes the stack). Both are zero when OK is false.
func Stack(th *lua.LState) (slots []lua.LValue, top int) {
	if !layout.ok {
		return nil, 0
	}
	return stackOf(th)
}

// stackOf is Stack without the test of layout.ok.
func stackOf(th *lua.LState) ([]lua.LValue, int) {
	reg := registry(th)
	return *(*[]lua.LValue)(unsafe.Add(reg, layout.regArray)), *(*int)(unsafe.Add(reg, layout.regTop))
}

// registry is th's registry, the struct that holds its value stack.
func registry(th *lua.LState) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), layout.stateReg))
}

// ClearStack sets every slot of th's value stack to Go's nil and its top
// to 0, as in a new thread. It is only for a thread that runs nothing
// (its call stack is empty), and does nothing when OK is false.
func ClearStack(th *lua.LState) {
	if !layout.ok {
		return
	}
	reg := registry(th)
	clear(*(*[]lua.LValue)(unsafe.Add(reg, layout.regArray)))
	*(*int)(unsafe.Add(reg, layout.regTop)) = 0
}

// HasOpenUpvalues reports whether some local of th's frames is still
// captured by a closure as an open upvalue (gopher-lua closes them when
// their frame returns); true when OK is false.
func HasOpenUpvalues(th *lua.LState) bool {
	return !layout.ok || *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), layout.stateUpvalues)) != nil
}

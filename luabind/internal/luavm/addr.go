package luavm

import (
	"reflect"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The addresses of a thread's inner objects, for a prefetch ahead of its
// resume (luabind's warming of bodies): each is an integer, which keeps
// nothing alive, and 0 when it cannot be read.

// StackAddr is the address of th's registry, the struct that holds its
// value stack's slice and top (64 bytes hold what a resume reads of it).
func StackAddr(th *lua.LState) uintptr {
	if !layout.ok {
		return 0
	}
	return uintptr(registry(th))
}

// CallStackAddr is the address of th's call-frame stack, the struct that
// a push, pop or look-up of a frame reads first.
func CallStackAddr(th *lua.LState) uintptr {
	if !layout.ok {
		return 0
	}
	return uintptr(*(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), layout.stateStack)))
}

// frameStack is where the call-frame stack of a state made with
// MinimizeStackMemory keeps the slice of its segments: typ is
// LState.stack's type word for that stack, segs the offset of the slice
// in the struct it points to. Found by reflection on the first thread
// asked about (the stack's type is unexported); typ stays 0 when the
// stack is not as expected.
var frameStack struct {
	once sync.Once
	typ  uintptr
	segs uintptr
}

// CallStackSegmentsAddr is the address of the array of the segments of
// th's call-frame stack, which every push, pop and look-up of a frame
// reads (8 segments' pointers in 64 bytes). It is 0 unless th's state was
// made with lua.Options.MinimizeStackMemory, whose call stack is kept in
// segments.
func CallStackSegmentsAddr(th *lua.LState) uintptr {
	if !layout.ok {
		return 0
	}
	iface := unsafe.Add(unsafe.Pointer(th), layout.stateStack-wordSize)
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
		return 0
	}
	cs := *(*unsafe.Pointer)(unsafe.Add(iface, wordSize))
	if cs == nil {
		return 0
	}
	return uintptr(*(*unsafe.Pointer)(unsafe.Add(cs, frameStack.segs)))
}

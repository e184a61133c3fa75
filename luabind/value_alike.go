package luabind

import (
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
)

// noValue is the value of a slot past the end of a state (engine.Value's
// zero value); it is only read.
var noValue engine.Value

// storedAlike reports whether a and b are stored alike, word for word (or
// byte for byte where a Value is not a whole number of words): then they
// are the same value to Lua. Values stored differently may still be the
// same (two copies of a string's text; padding the compiler left as it
// was), which the caller then tells with the slower same.
func storedAlike(a, b *engine.Value) bool {
	const size = unsafe.Sizeof(engine.Value{})
	if size%8 == 0 {
		return *(*[size / 8]uint64)(unsafe.Pointer(a)) == *(*[size / 8]uint64)(unsafe.Pointer(b))
	}
	return *(*[size]byte)(unsafe.Pointer(a)) == *(*[size]byte)(unsafe.Pointer(b))
}

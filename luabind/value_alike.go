package luabind

import (
	"reflect"
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
)

// noValue is the value of a slot past the end of a state (engine.Value's
// zero value); it is only read.
var noValue engine.Value

// valueSize is an engine.Value's size in bytes; storedAlike reads it as
// 8-byte words when it is 16 or 32 bytes (else it always answers false,
// and same decides).
const valueSize = unsafe.Sizeof(engine.Value{})

// valueMask has, for each of the first four words of an engine.Value, the
// bits of the bytes its fields occupy, found by reflection: the padding
// between or after the fields is left out, since the compiler need not
// write it when it stores a value (two copies of one value may differ
// there).
var valueMask = func() (m [4]uint64) {
	t := reflect.TypeFor[engine.Value]()
	for i := range t.NumField() {
		f := t.Field(i)
		for b := f.Offset; b < f.Offset+f.Type.Size() && b < 32; b++ {
			m[b/8] |= 0xff << (8 * (b % 8))
		}
	}
	return m
}()

// storedAlike reports whether a and b are stored alike, their fields'
// bytes word for word: then they are the same value to Lua. Values
// stored differently may still be the same (two copies of a string's
// text), which the caller then tells with the slower same.
func storedAlike(a, b *engine.Value) bool {
	p, q := unsafe.Pointer(a), unsafe.Pointer(b)
	switch valueSize {
	case 32:
		return (word(p, 0)^word(q, 0))&valueMask[0]|(word(p, 8)^word(q, 8))&valueMask[1]|
			(word(p, 16)^word(q, 16))&valueMask[2]|(word(p, 24)^word(q, 24))&valueMask[3] == 0
	case 16:
		return (word(p, 0)^word(q, 0))&valueMask[0]|(word(p, 8)^word(q, 8))&valueMask[1] == 0
	}
	return false
}

// word is the 8 bytes at offset off from p.
func word(p unsafe.Pointer, off uintptr) uint64 { return *(*uint64)(unsafe.Add(p, off)) }

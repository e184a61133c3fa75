package luabind

import (
	"reflect"
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
)

// noValue is the value of a slot past the end of a state (engine.Value's
// zero value); it is only read.
var noValue engine.Value

// valueSize is an engine.Value's size in bytes, valueWords the whole
// 8-byte words in it; storedAlike needs valueSize to be a whole number of
// words (else it always answers false, and same decides).
const (
	valueSize  = unsafe.Sizeof(engine.Value{})
	valueWords = valueSize / 8
)

// valueMask has, for each word of an engine.Value, the bits of the bytes
// its fields occupy, found by reflection: the padding between or after
// the fields is left out, since the compiler need not write it when it
// stores a value (two copies of one value may differ there).
var valueMask = func() (m [valueWords]uint64) {
	t := reflect.TypeFor[engine.Value]()
	for i := range t.NumField() {
		f := t.Field(i)
		for b := f.Offset; b < f.Offset+f.Type.Size() && b/8 < valueWords; b++ {
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
	if valueSize%8 != 0 {
		return false
	}
	p, q := (*[valueWords]uint64)(unsafe.Pointer(a)), (*[valueWords]uint64)(unsafe.Pointer(b))
	var d uint64
	for i := range p {
		d |= (p[i] ^ q[i]) & valueMask[i]
	}
	return d == 0
}

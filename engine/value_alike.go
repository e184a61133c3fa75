package engine

import "unsafe"

// alike reports whether a and b are stored alike, word for word (or byte
// for byte where a Value is not a whole number of words): then they are
// the same value, Equal unless a NaN. Values are not comparable with ==
// (a string's text lies behind a pointer, see Value), so the planner's
// duplicate checks use alike as the cheap test before Equal.
func alike(a, b *Value) bool {
	if valueInWords {
		return *(*valueWords)(unsafe.Pointer(a)) == *(*valueWords)(unsafe.Pointer(b))
	}
	return *(*valueBytes)(unsafe.Pointer(a)) == *(*valueBytes)(unsafe.Pointer(b))
}

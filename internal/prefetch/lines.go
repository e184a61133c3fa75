package prefetch

import "unsafe"

// Slice prefetches the 64-byte cache lines that hold s's elements
// (for an empty s, at most the line its data pointer lies in).
func Slice[T any](s []T) {
	p := unsafe.Pointer(unsafe.SliceData(s))
	Lines(p, int((uintptr(p)&63+uintptr(len(s))*unsafe.Sizeof(s[0])+63)/64))
}

// NumLines returns how many 64-byte cache lines hold the size bytes from
// p on: what Span(p, size) prefetches.
func NumLines[T any](p *T, size uintptr) int {
	return int((uintptr(unsafe.Pointer(p))&63 + size + 63) / 64)
}

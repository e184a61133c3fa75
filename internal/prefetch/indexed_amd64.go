package prefetch

import "unsafe"

// indexed is Indexed from its slices' first elements: ptrs points at the
// first of the pointers, idx and lines at the first of n indexes and
// counts; hot is the hot bytes plus 63.
//
//go:noescape
func indexed(ptrs unsafe.Pointer, idx *int32, lines *uint8, n int, hot uintptr)

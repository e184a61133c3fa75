package prefetch

import "unsafe"

// Indexed prefetches, for each i below len(idx), lines of *ptrs[idx[i]]
// from its address on: lines[i] of them when it is 1 to 127, else (0,
// 128 and more) the lines that hold its first hot bytes. It reads idx,
// lines and the pointers, nothing of the objects themselves; it does
// nothing when lines is shorter than idx. Every idx[i] must be an index
// of ptrs: it is not checked.
//
// It is the loop of a caller that prefetches the next few objects of a
// list in one call instead of one call per object.
func Indexed[T any](ptrs []*T, idx []int32, lines []uint8, hot uintptr) {
	if len(lines) >= len(idx) {
		indexed(unsafe.Pointer(unsafe.SliceData(ptrs)), unsafe.SliceData(idx), unsafe.SliceData(lines), len(idx), hot+63)
	}
}

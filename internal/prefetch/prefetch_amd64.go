package prefetch

import "unsafe"

// Lines prefetches the given number of 64-byte cache lines from p on
// (PREFETCHT0), four a round while four or more are left.
//
//go:noescape
func Lines(p unsafe.Pointer, lines int)

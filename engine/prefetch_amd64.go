package engine

import "unsafe"

// prefetch asks the processor to bring the given number of 64-byte cache
// lines from p on into its cache, without waiting for them (PREFETCHT0).
// It reads nothing the program sees and never faults, so p may point
// anywhere.
//
//go:noescape
func prefetch(p unsafe.Pointer, lines int)

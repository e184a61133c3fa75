package luabind

// prefetchLines asks the processor to bring the given number of 64-byte
// cache lines from address p on into its cache, without waiting for them
// (PREFETCHT0). It reads nothing the program sees and never faults, so p
// may be any address, even that of memory freed since (see warm.go).
func prefetchLines(p uintptr, lines int)

// prefetchSpans is prefetchLines for each of the n spans from spans on:
// each an address in its low 56 bits and a number of lines in its top
// byte (see warmSpans).
//
//go:noescape
func prefetchSpans(spans *uint64, n int)

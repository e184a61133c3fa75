package luabind

// prefetchSpans is prefetch.Lines for each of the n spans from spans on:
// each an address in its low 56 bits and a number of lines in its top
// byte (see warmSpans).
//
//go:noescape
func prefetchSpans(spans *uint64, n int)

//go:build !amd64

package luabind

// prefetchLines is a no-op where this package has no prefetch instruction
// (see prefetch_amd64.go).
func prefetchLines(p uintptr, lines int) {}

// prefetchSpans is a no-op here too.
func prefetchSpans(spans *uint64, n int) {}

//go:build !amd64

package luabind

// prefetchSpans is a no-op where this package has no prefetch
// instruction (see prefetch_amd64.go).
func prefetchSpans(spans *uint64, n int) {}

//go:build !amd64

package engine

import "unsafe"

// prefetch is a no-op where the engine has no prefetch instruction (see
// prefetch_amd64.go).
func prefetch(p unsafe.Pointer, lines int) {}

// prefetchAgents is a no-op where prefetch is (see prefetch_amd64.go).
func prefetchAgents(agents unsafe.Pointer, lane *int32, hints *uint8, n int, hot uintptr) {}

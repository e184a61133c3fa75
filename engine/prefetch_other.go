//go:build !amd64

package engine

import "unsafe"

// prefetchAgents is a no-op off amd64 (see prefetch_amd64.go).
func prefetchAgents(agents unsafe.Pointer, lane *int32, hints *uint8, n int, hot uintptr) {}

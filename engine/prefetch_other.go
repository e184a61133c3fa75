//go:build !amd64

package engine

import "unsafe"

// prefetch is a no-op where the engine has no prefetch instruction (see
// prefetch_amd64.go).
func prefetch(p unsafe.Pointer, lines int) {}

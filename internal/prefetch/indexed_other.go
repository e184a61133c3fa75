//go:build !amd64

package prefetch

import "unsafe"

// indexed is a no-op where this package has no prefetch instruction (see
// indexed_amd64.go).
func indexed(ptrs unsafe.Pointer, idx *int32, lines *uint8, n int, hot uintptr) {}

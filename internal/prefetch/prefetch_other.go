//go:build !amd64

package prefetch

import "unsafe"

// Lines is a no-op where this package has no prefetch instruction (see
// prefetch_amd64.go).
func Lines(p unsafe.Pointer, lines int) {}

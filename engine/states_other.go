//go:build !amd64

package engine

import "unsafe"

// valuesDiffer reports whether the n Values at x and y differ in any
// byte (see states_amd64.go).
func valuesDiffer(x, y unsafe.Pointer, n int) bool {
	return !statesAlikeGo(unsafe.Slice((*Value)(x), n), unsafe.Slice((*Value)(y), n))
}

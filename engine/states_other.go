//go:build !amd64

package engine

import "unsafe"

// valuesDiffer reports whether the n Values at x and y differ in any
// byte (see states_amd64.go).
func valuesDiffer(x, y unsafe.Pointer, n int) bool {
	return !statesAlikeGo(unsafe.Slice((*Value)(x), n), unsafe.Slice((*Value)(y), n))
}

// stateMoved reports whether a.State may differ from post (see
// states_amd64.go).
func stateMoved(a *Agent) bool {
	n := int(a.postN)
	return n == 0 || n != len(a.State) || valuesDiffer(unsafe.Pointer(&a.State[0]), unsafe.Pointer(&a.stateBuf[n&15]), n)
}

// Package prefetch asks the processor to bring memory into its cache
// ahead of use, for the engine's tick and luabind's warming of bodies
// (docs/semantics.md). A prefetch reads nothing the program sees, never
// waits and never faults, so any address may be given, even that of
// memory freed since; off amd64 the calls do nothing.
package prefetch

import "unsafe"

// Span prefetches the 64-byte cache lines that hold the size bytes from p
// on (nothing when p is nil).
func Span(p unsafe.Pointer, size uintptr) {
	if a := uintptr(p); a != 0 {
		Lines(p, int((a&63+size+63)/64))
	}
}

// Boxed prefetches the size bytes from where the interface value x points
// (its data word: the object of a pointer, the box of any other value);
// nothing when x is nil. It reads nothing behind that address.
func Boxed(x any, size uintptr) {
	Span((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1], size)
}

package engine

import "unsafe"

// valuesDiffer reports whether the n Values at x and y differ in any
// byte (a Value is all of its two words: see changedSlots). x and y
// must each point at n Values.
//
//go:noescape
func valuesDiffer(x, y unsafe.Pointer, n int) bool

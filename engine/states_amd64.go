package engine

import "unsafe"

// valuesDiffer reports whether the n Values at x and y differ in any
// byte (a Value is all of its two words: see changedSlots). x and y
// must each point at n Values. It reads no byte outside them.
//
//go:noescape
func valuesDiffer(x, y unsafe.Pointer, n int) bool

// cpuHasAVX2 reports whether the processor and the system let
// valuesDiffer use AVX2 (states_amd64.s).
func cpuHasAVX2() bool

// useAVX2 makes valuesDiffer compare 32 bytes a load (AVX2) rather than
// 16 (SSE2): for a soldier's 7 state variables about 22 instructions a
// call instead of 51. Set once at start-up; the tests turn it off to check
// the SSE2 path too.
var useAVX2 = cpuHasAVX2()

// stateMoved reports whether a.State may differ from post: true when
// post does not lie in stateBuf (postN is 0) or State's length is not
// postN, else whether State and post differ in any byte (valuesDiffer).
// It reads a's fields itself (states_amd64.s), which spares the tick
// handing over three words on each of its one or two calls.
//
//go:noescape
func stateMoved(a *Agent) bool

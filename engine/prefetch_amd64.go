package engine

import "unsafe"

// prefetch asks the processor to bring the given number of 64-byte cache
// lines from p on into its cache, without waiting for them (PREFETCHT0).
// It reads nothing the program sees and never faults, so p may point
// anywhere.
//
//go:noescape
func prefetch(p unsafe.Pointer, lines int)

// prefetchAgents prefetches, for each of the n agents agents[lane[i]]
// (agents points at the first of a []*Agent, lane at n indexes into it,
// hints at their n prefetch hints, see hintApart), the lines its hint
// says from the agent's address on, or those of its hot fields for a
// hint that leaves the states apart; hot is hotTo+63. It reads the
// indexes, the agent pointers and the hints, nothing of the agents
// themselves. Every lane[i] must be an index of agents.
//
//go:noescape
func prefetchAgents(agents unsafe.Pointer, lane *int32, hints *uint8, n int, hot uintptr)

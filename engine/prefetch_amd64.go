package engine

import "unsafe"

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

package engine

import "unsafe"

// agentHotLines is the number of 64-byte lines, from its start, of the
// part of an Agent that a tick reads (up to the hot part of its reactive
// state; see the field order of Agent).
const agentHotLines = int((unsafe.Offsetof(Agent{}.cooldown) + 63) / 64)

// prefetchAgent prefetches the part of a's struct that a tick reads.
func prefetchAgent(a *Agent) { prefetch(unsafe.Pointer(a), agentHotLines) }

// prefetchStates prefetches a's state and the state after its body's last
// resume (side by side when NewAgent made them, see makeStates). a's
// struct should be in the cache already (prefetchAgent).
func prefetchStates(a *Agent) {
	if n := len(a.State); n > 0 {
		prefetch(unsafe.Pointer(&a.State[0]), (n*int(unsafe.Sizeof(Value{}))+63)/64)
	}
	if n := len(a.post); n > 0 {
		prefetch(unsafe.Pointer(&a.post[0]), (n*int(unsafe.Sizeof(Value{}))+63)/64)
	}
}

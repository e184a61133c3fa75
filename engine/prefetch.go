package engine

import "unsafe"

// agentHotLines is the number of 64-byte lines, from its start, of the
// part of an Agent that a tick reads: the exported fields, the hot ones
// and stateBuf (see the field order of Agent).
const agentHotLines = int((unsafe.Offsetof(Agent{}.cooldown) + 63) / 64)

// ownStates reports whether a's State and post lie in its stateBuf, where
// prefetchAgent fetches them.
func ownStates(a *Agent) bool {
	return len(a.State) > 0 && &a.State[0] == &a.stateBuf[0]
}

// prefetchAgent prefetches the part of a's struct that a tick reads.
func prefetchAgent(a *Agent) { prefetch(unsafe.Pointer(a), agentHotLines) }

// prefetchStates prefetches a's state and the state after its body's last
// resume (side by side when NewAgent made them, see makeStates). a's
// struct should be in the cache already (prefetchAgent).
func prefetchStates(a *Agent) {
	const size = int(unsafe.Sizeof(Value{}))
	st, post := a.State, a.post
	if len(st) == 0 || len(post) == 0 || ownStates(a) { // prefetchAgent has them
		return
	}
	p, q := uintptr(unsafe.Pointer(&st[0])), uintptr(unsafe.Pointer(&post[0]))
	if q == p+uintptr(len(st)*size) { // side by side, as makeStates makes them
		prefetch(unsafe.Pointer(&st[0]), int((p+uintptr((len(st)+len(post))*size)+63)/64-p/64))
		return
	}
	prefetch(unsafe.Pointer(&st[0]), int((p+uintptr(len(st)*size)+63)/64-p/64))
	prefetch(unsafe.Pointer(&post[0]), int((q+uintptr(len(post)*size)+63)/64-q/64))
}

// touchStates prefetches the first line of a's states only: it starts
// the page walk, so the prefetches of the other lines, a little later,
// find the page.
func touchStates(a *Agent) {
	if len(a.State) > 0 && !ownStates(a) {
		prefetch(unsafe.Pointer(&a.State[0]), 1)
	}
}

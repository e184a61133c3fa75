package engine

import "unsafe"

// hotTo is the size of the first part of an Agent, the fields a tick
// reads (see the field order of Agent); stateBuf follows it.
const hotTo = unsafe.Offsetof(Agent{}.stateBuf)

// prefetchSpan prefetches the lines that hold the size bytes from p: from
// p on, 64 bytes apart, each address lies in the next line, so as many
// prefetches as the bytes span lines reach them all (and no pointer before
// p is made).
func prefetchSpan(p unsafe.Pointer, size uintptr) {
	skip := uintptr(p) & 63 // p's offset in its line
	prefetch(p, int((skip+size+63)/64))
}

// ownStates reports whether a's State and post lie in its stateBuf, where
// touchStates fetches them.
func ownStates(a *Agent) bool {
	return len(a.State) > 0 && &a.State[0] == &a.stateBuf[0]
}

// prefetchAgent prefetches the hot fields of a's struct, those a tick
// reads (it reads none of them itself). The states follow, once these
// lines are in (touchStates, prefetchStates).
func prefetchAgent(a *Agent) { prefetchSpan(unsafe.Pointer(a), hotTo) }

// prefetchStates prefetches a's state and the state after its body's last
// resume (side by side when NewAgent made them, see makeStates). a's
// struct should be in the cache already (prefetchAgent).
func prefetchStates(a *Agent) {
	const size = int(unsafe.Sizeof(Value{}))
	st, post := a.State, a.post
	if len(st) == 0 || len(post) == 0 || ownStates(a) { // touchStates has them
		return
	}
	p, q := unsafe.Pointer(&st[0]), unsafe.Pointer(&post[0])
	if uintptr(q) == uintptr(p)+uintptr(len(st)*size) { // side by side, as makeStates makes them
		prefetchSpan(p, uintptr((len(st)+len(post))*size))
		return
	}
	prefetchSpan(p, uintptr(len(st)*size))
	prefetchSpan(q, uintptr(len(post)*size))
}

// touchStates prefetches a's State and post when they lie in its
// stateBuf (the same page as the hot fields, see prefetchAgent, which
// should be in the cache already), else the first line of its states
// only: that starts the page walk, so the prefetches of the other lines,
// a little later (prefetchStates), find the page.
func touchStates(a *Agent) {
	n := len(a.State)
	switch {
	case n == 0:
	case ownStates(a):
		prefetchSpan(unsafe.Pointer(&a.stateBuf[0]), uintptr(2*n)*unsafe.Sizeof(Value{}))
	default:
		prefetch(unsafe.Pointer(&a.State[0]), 1)
	}
}

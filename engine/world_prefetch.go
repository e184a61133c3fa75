package engine

import "github.com/moonmind-ai/moonmind/internal/prefetch"

// hotTo is the size of the first part of an Agent on a 64-bit machine,
// the fields a tick reads (see the field order of Agent); stateBuf
// follows it. valueSize is the size of a Value there (a pointer and a
// word). TestAgentHotFieldsComeFirst checks both; elsewhere they only
// size prefetches, which do nothing off amd64.
const (
	hotTo     uintptr = 152
	valueSize uintptr = 16
	// utilityTo is the end of Agent.utility: the struct up to there is
	// what a think that scores its running pick again reads (lodHint).
	utilityTo uintptr = 520
)

// lodHint is prefetchHint under a level of detail. The think of an agent
// at a lowered rate mostly scores its running pick again (the re-score
// falls due in the ticks it skipped), so for such an agent the struct is
// fetched up to its utility planner (utilityTo), which tickLane then
// prefetches too (rethinkAhead). An agent that thinks every tick gets
// prefetchHint: its re-scores are a tick in many.
func lodHint(a *Agent) uint8 {
	h := prefetchHint(a)
	if h == hintApart || a.lod.rate == 0 {
		return h
	}
	return max(h, uint8(prefetch.NumLines(a, utilityTo)))
}

// rethinkAhead prefetches what a's think with dt reads of its utility
// planner when it will score its running pick again: the planner's first
// line (its settings) and the memo of its last re-score. tickLane calls
// it a few agents ahead under a level of detail, once lodHint's lines of
// the agent are in the cache.
func rethinkAhead(a *Agent, dt float64) {
	if a.rescoreDue(a.time + dt) {
		if u := a.utility; u != nil {
			prefetch.Ptr(&u.Domain)
			prefetch.Ptr(&u.Explain)
			prefetch.Ptr(&u.memo)
		}
	}
}

// ownStates reports whether a's State and post lie in its stateBuf, where
// touchStates fetches them.
func ownStates(a *Agent) bool {
	return len(a.State) > 0 && &a.State[0] == &a.stateBuf[0]
}

// A prefetch hint (prefetchHint) says what of an agent its next tick
// reads, worked out at the end of its last tick: hintApart plus nothing
// else when its states lie elsewhere (their address is in the struct),
// else the number of 64-byte lines from the agent's address that hold its
// hot fields and its states (they lie in stateBuf, right after). The zero
// hint is not known yet (the agent's first tick in its place in the lane)
// and is read as hintApart: the struct's hot lines first (tickLane's
// prefetch.Indexed, from the agent's address on to hotTo), the states
// from the struct later (touchStates, prefetchStates).
const hintApart = 0x80

// allOwn is the hint tickLane keeps after a lane's last: every agent's
// states lay in its stateBuf at the last tick (no hint had hintApart).
const allOwn = 1

// prefetchHint returns a's prefetch hint for its next tick (see
// hintApart): while it ticks, its struct is in the cache.
func prefetchHint(a *Agent) uint8 {
	n := uintptr(len(a.State))
	if !ownStates(a) { // as touchStates: post follows State in stateBuf
		return hintApart
	}
	return uint8(prefetch.NumLines(a, hotTo+2*n*valueSize)) // at most 1+4+4 lines: 16 values of 16 bytes
}

// statesApart reports whether hint h (see hintApart) leaves the agent's
// states to touchStates and prefetchStates.
func statesApart(h uint8) bool { return h == 0 || h >= hintApart }

// prefetchStates prefetches a's state and the state after its body's last
// resume. a's struct should be in the cache already (tickLane's
// prefetch.Indexed).
func prefetchStates(a *Agent) {
	if len(a.State) == 0 || len(a.post) == 0 || ownStates(a) { // touchStates has them
		return
	}
	prefetch.Slice(a.State)
	prefetch.Slice(a.post)
}

// touchStates prefetches a's State and post when they lie in its
// stateBuf (the same page as the hot fields, which should be in the
// cache already), else the first line of its states
// only: that starts the page walk, so the prefetches of the other lines,
// a little later (prefetchStates), find the page.
func touchStates(a *Agent) {
	n := len(a.State)
	switch {
	case n == 0:
	case ownStates(a):
		prefetch.Slice(a.stateBuf[:2*n])
	default:
		prefetch.Slice(a.State[:1])
	}
}

package engine

import "github.com/moonmind-ai/moonmind/internal/prefetch"

// Warmer is a Task that can ask the processor, a little ahead of its next
// resume, to bring into its cache the memory that resume will read (a
// script body's coroutine, its stack and call frames, its npc object).
// With thousands of agents nothing of a task is still in the cache from
// its previous tick, and a resume that chases pointers waits for memory
// at each step of the chain. A World's tick calls Warm for the agents a
// few places ahead in its order whose running task will be resumed this
// tick (a Sleeper's skipped resumes are not warmed), once per step:
// Warm(0) warmAhead (4) agents ahead, Warm(1) warmGap (2) agents later,
// so 2 agents ahead.
//
// Warm must change nothing that the task, the agent or the game can see:
// it may only read the task's own memory and issue prefetches (which never
// fault and never wait), so warming changes no decision and no record.
// Warm(0) should read nothing of the task (the task's own memory is not
// in the cache yet: it may prefetch that memory, from its receiver's
// address); Warm(1) may read what Warm(0) prefetched. A task that was
// warmed may still not be resumed (its agent replans, its body is
// interrupted), and one may be resumed without being warmed (the first
// agents of a tick, a Task whose agent the World does not tick in order).
// Like every Task it is called from one goroutine at a time: the one that
// ticks its agent, between that agent's ticks.
type Warmer interface {
	Task
	Warm(step int)
}

// warmAhead is how many agents ahead of its agent's tick a task gets
// Warm(0), and warmGap how many agents later it gets Warm(1). Each step
// waits for memory the one before asked for: Warm(1) reads what Warm(0)
// prefetched, the resume what Warm(1) prefetched, and an agent whose task
// is not resumed ticks in about 100 ns, less than a miss that goes to
// memory takes. Measured on 10,000 soldiers (4 identical worlds ticked
// in turn, 1,800 ticks each, so every world saw the same ticks): 4 and 2
// took 5-7% less CPU time per agent-tick than 2 and 1; 6 and 3 the same
// as 4 and 2.
const warmAhead, warmGap = 4, 2 // warmGap a power of 2 (see next)

// plainTaskBytes is how much of a task that is not a Warmer (a Go body's,
// which has no prefetch of its own to ask for) laneWarmer prefetches,
// warmAhead agents ahead of its resume: the first bytes of the object its
// Task value points to, where a Go task keeps what a resume reads first.
// With 100,000 Go-bodied soldiers under a level of detail the resume's
// first read of its task was 6% of the tick's profile.
const plainTaskBytes = 256

// laneWarmer is the part of tickLane that warms the tasks of the agents
// ahead (see Warmer): it keeps the Warmers it gave Warm(0) in the last
// warmGap calls, so a task's two steps are warmGap agents apart, and asks
// the type of an agent's task once.
type laneWarmer struct {
	ring [warmGap]Warmer
	full [warmGap]bool // ring[k] holds a Warmer still to get Warm(1)
}

// next shows the warmer agent a, warmAhead places ahead of the agent at
// place j in the lane, about to tick (a is &noWarmer past the lane's end), and
// makes this tick's Warm calls: step 1 for the task it gave step 0
// warmGap calls ago, step 0 for a's task when it will be resumed. It is
// small enough to inline: most agents have no Warmer to warm this tick
// (the mark says whether the task is one, see Agent.setTask, and a task
// in a sleep window will not be resumed), and no call is made for them.
func (lw *laneWarmer) next(j int, a *Agent) {
	if lw.full[j&(warmGap-1)] || a.asleep < 2 && a.marks&(markWarmer|markPlain) != 0 {
		lw.warm(j, a)
	}
}

// noWarmer is the agent tickLane shows a laneWarmer past its lane's end.
var noWarmer Agent

// warm is next's work when there is some.
func (lw *laneWarmer) warm(j int, a *Agent) {
	k := j & (warmGap - 1)
	if lw.full[k] {
		// The slot is left holding the Warmer (full says it is done
		// with): no store, no write barrier; tickLane's laneWarmer, and
		// with it the reference, ends with the lane's tick.
		lw.ring[k].Warm(1)
		lw.full[k] = false
	}
	if a.marks&markPlain != 0 && a.asleep <= 1 {
		prefetch.Boxed(a.task, plainTaskBytes)
		return
	}
	if a.marks&markWarmer != 0 && a.task != nil && a.asleep <= 1 {
		if w, ok := a.task.(Warmer); ok {
			w.Warm(0)
			lw.ring[k], lw.full[k] = w, true
		}
	}
}

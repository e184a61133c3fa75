package engine

// Warmer is a Task that can ask the processor, a little ahead of its next
// resume, to bring into its cache the memory that resume will read (a
// script body's coroutine, its stack and call frames, its npc object).
// With thousands of agents nothing of a task is still in the cache from
// its previous tick, and a resume that chases pointers waits for memory
// at each step of the chain. A World's tick calls Warm for the agents a
// few places ahead in its order whose running task will be resumed this
// tick (a Sleeper's skipped resumes are not warmed), once per step:
// Warm(0) two agents ahead, Warm(1) one agent ahead.
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

// warmSteps is how many Warm calls, one agent apart, a task gets before
// its resume; the first is made warmSteps agents ahead.
const warmSteps = 2

// laneWarmer is the part of tickLane that warms the tasks of the agents
// ahead (see Warmer): it keeps the Warmer of the agent it was shown last,
// so a task's two steps are one agent apart, and asks the type of an
// agent's task once.
type laneWarmer struct {
	last Warmer
}

// next shows the warmer agent a, warmSteps places ahead of the agent
// about to tick (nil past the lane's end), and makes this tick's Warm
// calls: step 1 for the task of the agent shown last, step 0 for a's
// task when it will be resumed. It is small enough to inline: most agents
// have no Warmer to warm (the mark says so, see Agent.setTask), and no
// call is made for them.
func (lw *laneWarmer) next(a *Agent) {
	if lw.last != nil || a != nil && a.marks&markWarmer != 0 {
		lw.warm(a)
	}
}

// warm is next's work when there is some.
func (lw *laneWarmer) warm(a *Agent) {
	if w := lw.last; w != nil {
		w.Warm(1)
	}
	lw.last = nil
	if a != nil && a.marks&markWarmer != 0 && a.task != nil && a.asleep <= 1 {
		if w, ok := a.task.(Warmer); ok {
			w.Warm(0)
			lw.last = w
		}
	}
}

package engine

// Sleeper is a Task that can tell, after a resume, that its next resumes
// will only count time: a body waiting for a number of seconds (luabind's
// npc:wait). The agent then skips those resumes instead of making them,
// which spares it reading the task's memory on every tick of the wait;
// everything else in those ticks (the replanning checks, the re-scores,
// the records) happens as before, so skipping changes no decision and no
// record. Like every Task it is called from one goroutine at a time.
type Sleeper interface {
	Task
	// Asleep returns how many of the next resumes, each of dt seconds,
	// would each only count the time and report Running with no error,
	// reading and writing nothing else, whatever the state: 0 when the
	// next resume may do more. It is called after a resume that reported
	// Running.
	Asleep(dt float64) int
	// Slept tells the task that n of the resumes Asleep allowed, each of
	// dt seconds, were skipped: it counts their time as those resumes
	// would have. The agent calls it before it next calls Resume or
	// Interrupt (so never with n = 0).
	Slept(n int, dt float64)
}

// SleepResumes is Sleeper.Asleep for a task that sleeps sleepFor seconds
// and has slept slept of them, counting its wait as luabind's npc:wait
// does (a wait is over once the time slept, added one dt at a time, is
// within 1e-9 s of sleepFor): how many of the next resumes, of dt seconds
// each, leave the wait not over, at most 255; 0 when dt is not positive.
func SleepResumes(slept, sleepFor, dt float64) int {
	if !(dt > 0) {
		return 0
	}
	n := 0
	for n < 255 {
		slept += dt
		if !(slept < sleepFor-1e-9) {
			break
		}
		n++
	}
	return n
}

// AddSleeps is Sleeper.Slept's arithmetic: slept after n skipped resumes
// of dt seconds, added one at a time as the resumes would have.
func AddSleeps(slept float64, n int, dt float64) float64 {
	for range n {
		slept += dt
	}
	return slept
}

// maxSleep is the most resumes one Asleep lets the agent skip (asleep is
// a byte); a longer wait is asked again after a resume.
const maxSleep = 254

// A resume that reports Running asks a Sleeper how many of its next
// resumes of dt seconds may be skipped, and opens that window: asleep is
// then the resumes left to skip plus one, and sleptOf the number allowed
// (see Agent.resume, which does this itself: it is on every resume).

// skipSleep reports whether this tick's resume of the running task, of dt
// seconds, may be skipped: the task said it would only count time, the
// tick's dt is the one it said that for (the last tick's, a.clock.dt),
// and changed (the slots the world changed since the last resume, see
// worldChanges) is known, so that post can be kept without comparing the
// states again (see skippedResume).
func (a *Agent) skipSleep(dt float64, changed uint64) bool {
	return a.asleep > 1 && dt == a.clock.dt && changed != allSlots
}

// skippedResume is what the skipped resume leaves: one credit less, and
// post brought up to date as notePost does. Nothing wrote the state since
// worldChanges found the slots in changed (the checks read it only), so
// changed is what notePost would find.
func (a *Agent) skippedResume(changed uint64) {
	a.asleep--
	if a.picked {
		a.sinceRescore |= changed
	} else {
		a.sinceRescore = allSlots
	}
	if changed != 0 {
		copy(a.postState(), a.State)
	}
}

// wake closes a sleep window before the task is resumed or interrupted:
// the task counts the resumes that were skipped (Sleeper.Slept).
func (a *Agent) wake() {
	if k := int(a.sleptOf) - int(a.asleep-1); k > 0 {
		a.task.(Sleeper).Slept(k, a.clock.dt)
	}
	a.asleep, a.sleptOf = 0, 0
}

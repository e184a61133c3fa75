package luabind

// A body sleeping in npc:wait is an engine.Sleeper: until the wait is
// over its resumes only add the tick's dt to the time slept (see
// coTask.waitOver), so the agent may skip them and tell it afterwards.

// Asleep implements engine.Sleeper: while the body sleeps in npc:wait,
// the number of the next resumes of dt seconds after which the wait is
// still not over (at most 255), as waitOver counts them; else 0.
func (t *luaTask) Asleep(dt float64) int {
	if t.done || !t.sleeping || !(dt > 0) {
		return 0
	}
	n, slept := 0, t.slept
	for n < 255 {
		slept += dt
		if !(slept < t.sleepFor-1e-9) {
			break
		}
		n++
	}
	return n
}

// Slept implements engine.Sleeper: it counts n skipped resumes of dt
// seconds as waitOver would have, one addition each.
func (t *luaTask) Slept(n int, dt float64) {
	for range n {
		t.slept += dt
	}
}

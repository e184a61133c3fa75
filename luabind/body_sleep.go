package luabind

import "github.com/moonmind-ai/moonmind/engine"

// A body sleeping in npc:wait is an engine.Sleeper: until the wait is
// over its resumes only add the tick's dt to the time slept (see
// coTask.waitOver), so the agent may skip them and tell it afterwards.

// Asleep implements engine.Sleeper: while the body sleeps in npc:wait,
// the number of the next resumes of dt seconds after which the wait is
// still not over (at most 255), as waitOver counts them; else 0.
func (t *luaTask) Asleep(dt float64) int {
	if t.done || !t.sleeping {
		return 0
	}
	return engine.SleepResumes(t.slept, t.sleepFor, dt)
}

// Slept implements engine.Sleeper: it counts n skipped resumes of dt
// seconds as waitOver would have, one addition each.
func (t *luaTask) Slept(n int, dt float64) { t.slept = engine.AddSleeps(t.slept, n, dt) }

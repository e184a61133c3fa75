package engine

import "github.com/moonmind-ai/moonmind/engine/record"

// Record adds a record made outside the engine (by an adapter such as
// luabind's npc:llm_plan, or the reactive layer's events, plans and
// intentions) to the agent's flight recorder, stamped with the agent's tick,
// time and name, and routed like the engine's own records.
// Call it only from the goroutine that ticks the agent.
func (a *Agent) Record(e record.Event) { a.emit(e) }

func (a *Agent) emit(e record.Event) {
	e.Tick, e.Time, e.Agent = a.tick, a.time, a.Name
	if a.Recorder != nil {
		a.Recorder.Add(e)
	}
	if a.buffered {
		// In a world, records wait for the end of the tick, and only when
		// the world hands them on: without World.OnEvent the recorder is
		// their one reader.
		if w := a.world; w != nil && w.OnEvent != nil {
			a.pending = append(a.pending, e)
			a.handOn = true
		}
	} else if a.OnEvent != nil {
		a.OnEvent(e)
	}
}

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

// recScratch holds the lists of an agent's last pick and plan records
// (record.Event's Plan, Scores and Considerations), for reuse while no one
// keeps a record past its making: the flight recorder encodes a record
// into its own bytes, so a long run of picks and plans allocates nothing
// for them.
type recScratch struct {
	names  []string
	scores []record.ActionScore
	cons   []record.ConsiderationScore
}

// recordsKept reports whether a record the agent makes now outlives
// emit: World.OnEvent (for an agent in a world) or Agent.OnEvent
// receives it, and may keep it. When not, the lists in its records are
// the agent's scratch (recScratch).
func (a *Agent) recordsKept() bool {
	if a.buffered {
		w := a.world
		return w != nil && w.OnEvent != nil
	}
	return a.OnEvent != nil
}

// planNames returns the names of steps for a record: a new list when the
// record may be kept (recordsKept), else the agent's scratch.
func (a *Agent) planNames(steps []*Action) []string {
	if a.recordsKept() {
		return names(steps)
	}
	out := a.rec.names[:0]
	for _, s := range steps {
		out = append(out, s.Name)
	}
	a.rec.names = out
	return out
}

package engine

import (
	"slices"

	"github.com/moonmind-ai/moonmind/engine/perception"
)

// Conditions, considerations and effects read an agent's perception
// memory by the names memory.<source>.<field> (perception.Family): each
// such name is a state variable of the domain that no declaration
// provides and no effect may assign. A domain that reads any has one
// more sensor, memorySensor, after the roles' own: on every think it
// brings the memory to the agent's time (things lost, things forgotten)
// and writes each field read into its variable, so the planners, which
// read only the state, see the memory as it is when the agent decides.

// memorySensor is the name of the sensor that fills a domain's memory
// variables.
const memorySensor = "memory"

// memRead is one memory variable of a domain: its slot, and the source
// and field it holds.
type memRead struct {
	slot   int
	source string
	field  perception.Field
}

// bindMemory finds the memory variables the compiled conditions,
// considerations and effects read (the schema's names of the memory's
// family; the expression language checked each) and gives the domain the
// sensor that fills them.
func (c *compiler) bindMemory() {
	d := c.d
	for slot, name := range d.Schema.Names() {
		if source, f, ok := perception.ParseName(name); ok {
			d.memReads = append(d.memReads, memRead{slot: slot, source: source, field: f})
		}
	}
	if len(d.memReads) == 0 {
		return
	}
	if i := slices.IndexFunc(d.Sensors, func(s *Sensor) bool { return s.Name == memorySensor }); i >= 0 {
		c.add(d.Sensors[i].Pos, "sensor \""+memorySensor+"\": the name is taken by the sensor that reads the perception memory for the conditions that name memory.<source>.<field>; rename the sensor", nil)
		return
	}
	d.Sensors = append(d.Sensors, &Sensor{Name: memorySensor, Index: len(d.Sensors),
		Run: func(a *Agent, _ float64) error { a.readMemory(); return nil }})
}

// readMemory writes the memory variables of the agent's domain from its
// memory at its time. The reactive layer sees no belief event for them
// (perception has its own events: perceived, lost, forgotten).
func (a *Agent) readMemory() {
	m := a.Memory()
	m.Update(a.time) // once, for every variable read below
	seen := a.rx.seen
	for _, r := range a.Domain.memReads {
		v := m.ValueNow(r.source, r.field, a.time)
		a.State[r.slot] = v
		if r.slot < len(seen) {
			seen[r.slot] = v
		}
	}
}

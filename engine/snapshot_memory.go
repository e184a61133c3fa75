package engine

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine/perception"
)

// memorySnap is an agent's perception memory in a snapshot (Memory).
type memorySnap struct {
	HalfLife snapNum        `json:"halfLife,omitempty"`
	Forget   snapNum        `json:"forget,omitempty"`
	Capacity int            `json:"capacity,omitempty"`
	Things   []rememberSnap `json:"things,omitempty"`
}

// rememberSnap is one remembered thing: its source, sense, last known
// position, the time it was last perceived and its confidence then.
type rememberSnap struct {
	Source   string  `json:"source"`
	Sense    string  `json:"sense"`
	X        snapNum `json:"x"`
	Y        snapNum `json:"y"`
	At       snapNum `json:"at"`
	Strength snapNum `json:"strength"`
}

// saveMemory returns the agent's memory for a snapshot, nil when it has
// none.
func saveMemory(a *Agent) *memorySnap {
	m := a.mem
	if m == nil {
		return nil
	}
	s := &memorySnap{HalfLife: snapNum(m.HalfLife), Forget: snapNum(m.Forget), Capacity: m.Capacity}
	for _, r := range m.Held() {
		s.Things = append(s.Things, rememberSnap{Source: r.Source, Sense: r.Sense.String(),
			X: snapNum(r.X), Y: snapNum(r.Y), At: snapNum(r.At), Strength: snapNum(r.Strength)})
	}
	return s
}

// loadMemory sets the agent's memory from its snapshot (nil: none). A
// thing needs a source, a known sense, a time that is a finite number and
// a strength from 0 to 1.
func (a *Agent) loadMemory(s *memorySnap, where string) error {
	a.mem = nil
	if s == nil {
		return nil
	}
	m := perception.New(perception.Spec{HalfLife: float64(s.HalfLife), Forget: float64(s.Forget), Capacity: s.Capacity})
	if c := capacityOf(m); len(s.Things) > c {
		return fmt.Errorf("engine: restore: %s: the memory holds %d things, more than its capacity %d", where, len(s.Things), c)
	}
	things := make([]perception.Remembered, 0, len(s.Things))
	for i, t := range s.Things {
		sense, ok := perception.ParseSense(t.Sense)
		at, st := float64(t.At), float64(t.Strength)
		switch {
		case t.Source == "":
			return fmt.Errorf("engine: restore: %s: remembered thing %d has no source", where, i+1)
		case !ok:
			return fmt.Errorf("engine: restore: %s: remembered %q: no sense %q (sight, sound, damage or told)", where, t.Source, t.Sense)
		case !(at >= -maxRestoreTime && at <= maxRestoreTime):
			return fmt.Errorf("engine: restore: %s: remembered %q: time %s is not a finite number", where, t.Source, formatSnapFloat(at))
		case !(st >= 0 && st <= 1):
			return fmt.Errorf("engine: restore: %s: remembered %q: strength %s is not from 0 to 1", where, t.Source, formatSnapFloat(st))
		}
		things = append(things, perception.Remembered{Source: t.Source, Sense: sense, X: float64(t.X), Y: float64(t.Y), At: at, Strength: st})
	}
	m.Hold(things)
	a.mem = m
	return nil
}

// capacityOf is the most things m holds: its Capacity, or the default.
func capacityOf(m *perception.Memory) int {
	if m.Capacity <= 0 {
		return perception.DefaultCapacity
	}
	return m.Capacity
}

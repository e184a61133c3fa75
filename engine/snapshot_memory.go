package engine

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine/perception"
)

// memorySnap is an agent's perception memory in a snapshot (Memory).
type memorySnap struct {
	HalfLife  snapNum        `json:"halfLife,omitempty"`
	Forget    snapNum        `json:"forget,omitempty"`
	Capacity  int            `json:"capacity,omitempty"`
	LoseAfter snapNum        `json:"loseAfter,omitempty"`
	Things    []rememberSnap `json:"things,omitempty"`
	// Changes are the changes not yet taken by the reactive layer.
	Changes []changeSnap `json:"changes,omitempty"`
}

// changeSnap is one change waiting for the reactive layer: its kind, the
// time, and the thing as it was then.
type changeSnap struct {
	Kind  string       `json:"kind"`
	At    snapNum      `json:"at"`
	Thing rememberSnap `json:"thing"`
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
	Lost     bool    `json:"lost,omitempty"`
}

func rememberOf(r perception.Remembered) rememberSnap {
	return rememberSnap{Source: r.Source, Sense: r.Sense.String(),
		X: snapNum(r.X), Y: snapNum(r.Y), At: snapNum(r.At), Strength: snapNum(r.Strength), Lost: r.Lost}
}

// saveMemory returns the agent's memory for a snapshot, nil when it has
// none.
func saveMemory(a *Agent) *memorySnap {
	m := a.mem
	if m == nil {
		return nil
	}
	s := &memorySnap{HalfLife: snapNum(m.HalfLife), Forget: snapNum(m.Forget), Capacity: m.Capacity, LoseAfter: snapNum(m.LoseAfter)}
	for _, r := range m.Held() {
		s.Things = append(s.Things, rememberOf(r))
	}
	for _, c := range m.Changes() {
		s.Changes = append(s.Changes, changeSnap{Kind: c.Kind.String(), At: snapNum(c.At), Thing: rememberOf(c.Thing)})
	}
	return s
}

// loadMemory sets the agent's memory from its snapshot (nil: none); see
// loadRemembered for what each thing needs.
func (a *Agent) loadMemory(s *memorySnap, where string) error {
	a.mem = nil
	if s == nil {
		return nil
	}
	m := perception.New(perception.Spec{HalfLife: float64(s.HalfLife), Forget: float64(s.Forget), Capacity: s.Capacity,
		LoseAfter: float64(s.LoseAfter), Notify: a.Domain.Memory.Notify})
	if c := m.Cap(); len(s.Things) > c {
		return fmt.Errorf("engine: restore: %s: the memory holds %d things, more than its capacity %d", where, len(s.Things), c)
	}
	things := make([]perception.Remembered, 0, len(s.Things))
	for i, t := range s.Things {
		r, err := loadRemembered(t, i, where)
		if err != nil {
			return err
		}
		things = append(things, r)
	}
	m.Hold(things)
	changes := make([]perception.Change, 0, len(s.Changes))
	for i, c := range s.Changes {
		k, ok := perception.ParseChangeKind(c.Kind)
		at := float64(c.At)
		if !ok {
			return fmt.Errorf("engine: restore: %s: memory change %d: no kind %q (perceived, lost or forgotten)", where, i+1, c.Kind)
		}
		if !(at >= -maxRestoreTime && at <= maxRestoreTime) {
			return fmt.Errorf("engine: restore: %s: memory change %d: time %s is not a finite number", where, i+1, formatSnapFloat(at))
		}
		r, err := loadRemembered(c.Thing, i, where)
		if err != nil {
			return err
		}
		changes = append(changes, perception.Change{Kind: k, Thing: r, At: at})
	}
	m.HoldChanges(changes)
	a.mem = m
	return nil
}

// loadRemembered is thing i of a snapshot's memory: it needs a source, a
// known sense, a time that is a finite number and a strength from 0 to 1.
func loadRemembered(t rememberSnap, i int, where string) (perception.Remembered, error) {
	sense, ok := perception.ParseSense(t.Sense)
	at, st := float64(t.At), float64(t.Strength)
	switch {
	case t.Source == "":
		return perception.Remembered{}, fmt.Errorf("engine: restore: %s: remembered thing %d has no source", where, i+1)
	case !ok:
		return perception.Remembered{}, fmt.Errorf("engine: restore: %s: remembered %q: no sense %q (sight, sound, damage or told)", where, t.Source, t.Sense)
	case !(at >= -maxRestoreTime && at <= maxRestoreTime):
		return perception.Remembered{}, fmt.Errorf("engine: restore: %s: remembered %q: time %s is not a finite number", where, t.Source, formatSnapFloat(at))
	case !(st >= 0 && st <= 1):
		return perception.Remembered{}, fmt.Errorf("engine: restore: %s: remembered %q: strength %s is not from 0 to 1", where, t.Source, formatSnapFloat(st))
	}
	return perception.Remembered{Source: t.Source, Sense: sense, X: float64(t.X), Y: float64(t.Y), At: at, Strength: st, Lost: t.Lost}, nil
}

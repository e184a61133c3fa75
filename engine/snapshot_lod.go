package engine

import (
	"fmt"
	"math"
)

// lodSnap is an agent's level of detail in a snapshot (lodState), its
// times on the world's level-of-detail clock (worldSnap.LODTime): when it
// last thought (it is owed the time since) and, while its rate is
// lowered, when it is looked at next. So a restored world thinks on the
// same ticks, with the same dts, as the saved one would have.
type lodSnap struct {
	Thought snapNum `json:"thought"`
	Next    snapNum `json:"next,omitempty"`
	Rate    snapNum `json:"rate"`
	Level   int32   `json:"level"`
	Shown   int32   `json:"shown"`
}

// saveLOD returns the agent's level of detail in world w for a snapshot,
// nil when it has none (level of detail off, or never on).
func saveLOD(w *World, a *Agent) *lodSnap {
	if !w.lod.on {
		return nil
	}
	s := a.lod
	next := 0.0
	if s.rate > 0 {
		next = s.next
	}
	return &lodSnap{Thought: snapNum(s.thought), Next: snapNum(next), Rate: snapNum(s.rate), Level: s.level, Shown: s.shown}
}

// loadLOD sets the agent's level of detail from its snapshot (nil: none),
// whose level-of-detail clock read now: relative to now, as for an agent
// in no world (see lodState), for adopt to place on the world's clock.
// The times must be finite numbers, the agent must not have thought after
// now, and a rate must be a finite number >= 0.
func (a *Agent) loadLOD(s *lodSnap, now float64, where string) error {
	a.lod = lodState{}
	if s == nil {
		return nil
	}
	thought, next, rate := float64(s.Thought), float64(s.Next), float64(s.Rate)
	if !(thought >= -maxRestoreTime && thought <= now) || !(next >= -maxRestoreTime && next <= maxRestoreTime) || !(rate >= 0 && rate <= maxRestoreTime) {
		return fmt.Errorf("engine: restore: %s: level of detail thought %s, next %s, rate %s: each must be a finite number, thought at most the clock's %s, rate >= 0",
			where, formatSnapFloat(thought), formatSnapFloat(next), formatSnapFloat(rate), formatSnapFloat(now))
	}
	a.lod = lodState{thought: thought - now, next: next - now, rate: rate, level: s.Level, shown: s.Shown}
	return nil
}

// lodExact sets the level of detail of the agent just adopted (the last
// of Agents) to its snapshot's exactly, for a whole world restored with
// the saved clock: adopt's trip through relative times may round.
func (w *World) lodExact(a *Agent, s *lodSnap) {
	if s == nil {
		return
	}
	a.lod.thought = float64(s.Thought)
	at := math.Inf(-1)
	if a.lod.rate > 0 {
		a.lod.next = float64(s.Next)
		at = a.lod.next
	}
	w.lod.at[len(w.lod.at)-1] = at
}

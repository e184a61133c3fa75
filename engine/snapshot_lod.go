package engine

import "fmt"

// lodSnap is an agent's level of detail in a snapshot (lodState): what
// it is owed and when it thinks next, so a restored world thinks on the
// same ticks as the saved one would have.
type lodSnap struct {
	Owed  snapNum `json:"owed"`
	Due   snapNum `json:"due"`
	Rate  snapNum `json:"rate"`
	Level int32   `json:"level"`
	Shown int32   `json:"shown"`
}

// saveLOD returns the agent's level of detail for a snapshot, nil when it
// has none (level of detail off, or never on).
func saveLOD(a *Agent) *lodSnap {
	if a.lod == (lodState{}) {
		return nil
	}
	s := a.lod
	return &lodSnap{Owed: snapNum(s.owed), Due: snapNum(s.due), Rate: snapNum(s.rate), Level: s.level, Shown: s.shown}
}

// loadLOD sets the agent's level of detail from its snapshot (nil: none).
// Owed time and a rate must be finite numbers >= 0, and due a finite
// number.
func (a *Agent) loadLOD(s *lodSnap, where string) error {
	a.lod = lodState{}
	if s == nil {
		return nil
	}
	owed, due, rate := float64(s.Owed), float64(s.Due), float64(s.Rate)
	if !(owed >= 0 && owed <= maxRestoreTime) || !(rate >= 0 && rate <= maxRestoreTime) || !(due >= -maxRestoreTime && due <= maxRestoreTime) {
		return fmt.Errorf("engine: restore: %s: level of detail owed %s, due %s, rate %s: each must be a finite number, owed and rate >= 0",
			where, formatSnapFloat(owed), formatSnapFloat(due), formatSnapFloat(rate))
	}
	a.lod = lodState{owed: owed, due: due, rate: rate, level: s.Level, shown: s.Shown}
	return nil
}

package sim

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine"
)

// The battle's level of detail (docs/lod.md): the soldiers near the one
// the player watches (Sim.Focus) think at every tick, those further off
// less often, as a game with many NPCs would spare its frame for those the
// player can see. With no focus every soldier thinks at every tick.

// Think rates of the levels: near the focus, in the middle distance, far.
var thinkRates = []float64{60, 15, 5}

// Distances from the focus, in pixels, where the middle and far levels
// begin.
const (
	lodMiddle = 260.0
	lodFar    = 520.0
)

// setLOD gives a new round's world the battle's level of detail.
func (s *Sim) setLOD() {
	s.World.LOD = engine.LOD{Level: s.lodLevel, Rates: thinkRates}
}

// lodLevel is a soldier's level of detail: 0 within lodMiddle pixels of
// the focus (or with no focus, or a dead one), 1 within lodFar, else 2.
// It only reads the soldiers (LOD.Level).
func (s *Sim) lodLevel(a *engine.Agent) int {
	so, _ := a.Data.(*Soldier)
	f := s.focus
	if so == nil || f == nil || f.Dead {
		return 0
	}
	switch d := dist(so.X, so.Y, f.X, f.Y); {
	case d < lodMiddle:
		return 0
	case d < lodFar:
		return 1
	}
	return 2
}

// SetFocus makes the soldier named name (the one the player watches) the
// centre of the level of detail; "" or an unknown name sets none, so every
// soldier thinks at every tick.
func (s *Sim) SetFocus(name string) {
	s.focusName = name
	s.focus = s.Soldier(name)
}

// LODLine says, for the panel, how many living soldiers think at each
// rate: "thinking around blue1: 4 every tick, 3 at 15/s, 5 at 5/s", or
// "every soldier thinks every tick" with no focus.
func (s *Sim) LODLine() string {
	if s.focus == nil || s.focus.Dead {
		return "every soldier thinks every tick"
	}
	var n [3]int
	for _, so := range s.Soldiers {
		if !so.Dead {
			n[min(s.lodLevel(so.Agent), 2)]++
		}
	}
	return fmt.Sprintf("thinking around %s: %d every tick, %d at %g/s, %d at %g/s",
		s.focusName, n[0], n[1], thinkRates[1], n[2], thinkRates[2])
}

package sim

import "github.com/moonmind-ai/moonmind/engine/perception"

// perceive tells a soldier's perception memory (docs/perception.md) where
// its target is while it sees it, as "enemy": with no news for the role's
// lose_after the memory loses it, and squad.lua's search walks to where it
// was last seen.
func (s *Sim) perceive(so, t *Soldier) {
	if t != nil && !t.Dead && s.Sees(so, t) {
		so.Agent.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: t.X, Y: t.Y})
	}
}

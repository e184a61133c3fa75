package sim

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine"
)

// Soldier is one NPC on the field: its body (position, health) on the Go
// side and its mind, an engine.Agent running scripts/soldier.lua. X and Y
// are in pixels; Health runs from 100 down to 0.
type Soldier struct {
	Name         string
	Team         int // 0 or 1
	X, Y         float64
	HomeX, HomeY float64 // where the soldier spawned
	Health       float64
	Dead         bool
	DiedAt       float64  // world time of death, in seconds
	Target       *Soldier // the enemy the soldier aims at, or nil
	InCover      bool     // at a cover spot of its team (the in_cover sensor)
	Cover        int      // index in Sim.Covers of the cover it last headed for, -1 for none
	Shots        int      // rounds fired
	Hits         int      // rounds that hit
	Agent        *engine.Agent
}

// Ammo returns the rounds left in the soldier's magazine (its "ammo" state).
func (so *Soldier) Ammo() float64 {
	n, _ := so.Agent.Get("ammo").AsNumber()
	return n
}

// Magazines returns the spare magazines the soldier carries.
func (so *Soldier) Magazines() float64 {
	n, _ := so.Agent.Get("magazines").AsNumber()
	return n
}

// Doing returns the name of the action the soldier runs now: "dead",
// "idle" when it runs none, or the action's name.
func (so *Soldier) Doing() string {
	if so.Dead {
		return "dead"
	}
	if a := so.Agent.Running(); a != nil {
		return a.Name
	}
	return "idle"
}

func dist(x0, y0, x1, y1 float64) float64 { return math.Hypot(x1-x0, y1-y0) }

// sense writes every living soldier's sensor state: enemy_visible,
// enemy_health (of its target, 0 when it has none), enemy_distance (to its
// target in pixels, SightRange when it has none), in_cover and health. A
// soldier keeps its target while the target lives and stays in sight;
// otherwise it aims at the nearest living enemy in sight.
func (s *Sim) sense() {
	for _, so := range s.Soldiers {
		if so.Dead {
			continue
		}
		t := so.Target
		if t == nil || t.Dead || dist(so.X, so.Y, t.X, t.Y) > s.Config.SightRange {
			t = s.nearestEnemy(so)
		}
		so.Target = t
		a := so.Agent
		a.Set("enemy_visible", engine.BoolValue(t != nil))
		hp, d := 0.0, s.Config.SightRange
		if t != nil {
			hp, d = t.Health, dist(so.X, so.Y, t.X, t.Y)
		}
		a.Set("enemy_health", engine.NumberValue(hp))
		a.Set("enemy_distance", engine.NumberValue(d))
		so.InCover = s.coverAt(so) >= 0
		a.Set("in_cover", engine.BoolValue(so.InCover))
		a.Set("health", engine.NumberValue(so.Health))
	}
}

// nearestEnemy returns the nearest living enemy within sight, the first in
// spawn order on a tie, or nil.
func (s *Sim) nearestEnemy(so *Soldier) *Soldier {
	var best *Soldier
	bestD := s.Config.SightRange
	for _, e := range s.Soldiers {
		if e.Team == so.Team || e.Dead {
			continue
		}
		if d := dist(so.X, so.Y, e.X, e.Y); d <= bestD && (best == nil || d < bestD) {
			best, bestD = e, d
		}
	}
	return best
}

// coverAt returns the index in Covers of the cover of so's team whose spot
// so stands at (within CoverRadius), or -1.
func (s *Sim) coverAt(so *Soldier) int {
	for i, c := range s.Covers {
		if c.Team == so.Team && dist(so.X, so.Y, c.SpotX, c.SpotY) <= CoverRadius {
			return i
		}
	}
	return -1
}

// freeCover returns the index of the cover of so's team with the nearest
// spot that no living teammate has headed for, or the nearest of all when
// every one is taken; -1 when the team has none.
func (s *Sim) freeCover(so *Soldier) int {
	best, bestFree := -1, -1
	bd, bfd := math.Inf(1), math.Inf(1)
	for i, c := range s.Covers {
		if c.Team != so.Team {
			continue
		}
		d := dist(so.X, so.Y, c.SpotX, c.SpotY)
		if d < bd {
			best, bd = i, d
		}
		taken := false
		for _, o := range s.Soldiers {
			if o != so && !o.Dead && o.Team == so.Team && o.Cover == i {
				taken = true
				break
			}
		}
		if !taken && d < bfd {
			bestFree, bfd = i, d
		}
	}
	if bestFree >= 0 {
		return bestFree
	}
	return best
}

package sim

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
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
	// Facing is the direction the soldier looks, in radians (0 is +x,
	// pi/2 is +y, down the screen): towards its target, else where it walks.
	Facing float64
	// FiredAt is the world time of its last shot, in seconds (-Inf before
	// the first).
	FiredAt float64
	// HeardX, HeardY is where the last enemy shot it heard was fired from;
	// HeardAt the world time it heard it (-Inf when it has heard none).
	HeardX, HeardY, HeardAt float64
	// SeenAt is the world time it last saw its target, in seconds.
	SeenAt float64
	Agent  *engine.Agent

	path     []Point // the walk move_to or advance follows, next waypoint first
	pathGoal Point   // where path leads
	// lookX, lookY is where npc:look_at turned it, kept while it walks
	// until the world time lookUntil (coordination.go).
	lookX, lookY, lookUntil float64
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

// Sensor variables the Sim writes into every living soldier's state
// before each World.Tick (a script that does not declare one just does
// not get it):
//
//	enemy_visible   bool: an enemy is in sight (within SightRange, no wall
//	                between), or its target was within the last SightMemory seconds
//	enemy_health    the target's health, 0 when there is none
//	enemy_distance  pixels to the target, SightRange when there is none
//	in_cover        bool: standing on a cover spot of its team
//	health          its own health, 100 down to 0
//	heard_shot      bool: it heard an enemy shot within the last HearingMemory seconds
//	heard_x, heard_y  where the last enemy shot it heard came from, in pixels
//	crate_empty     bool: the crate nearest to it has no magazine left
//	medic           health its team's medic can still give out this round
//
// sense writes them. A soldier keeps its target while the target lives
// and was in sight within SightMemory seconds (so ducking behind a wall for
// a moment does not end a fight); otherwise it aims at the nearest living
// enemy in sight.
func (s *Sim) sense() {
	for _, so := range s.Soldiers {
		if so.Dead {
			continue
		}
		t := so.Target
		if t != nil && !t.Dead && s.Sees(so, t) {
			so.SeenAt = s.World.Time
		} else if t == nil || t.Dead || s.World.Time-so.SeenAt > s.Config.SightMemory {
			if t = s.nearestEnemy(so); t != nil {
				so.SeenAt = s.World.Time
			}
		}
		so.Target = t
		s.perceive(so, t)
		a := so.Agent
		a.Set("enemy_visible", expr.BoolValue(t != nil))
		hp, d := 0.0, s.Config.SightRange
		if t != nil {
			hp, d = t.Health, dist(so.X, so.Y, t.X, t.Y)
		}
		a.Set("enemy_health", expr.NumberValue(hp))
		a.Set("enemy_distance", expr.NumberValue(d))
		so.InCover = s.coverAt(so) >= 0
		a.Set("in_cover", expr.BoolValue(so.InCover))
		a.Set("health", expr.NumberValue(so.Health))
		a.Set("heard_shot", expr.BoolValue(s.World.Time-so.HeardAt <= s.Config.HearingMemory))
		a.Set("heard_x", expr.NumberValue(so.HeardX))
		a.Set("heard_y", expr.NumberValue(so.HeardY))
		empty := false
		if i := s.nearestCrate(so, false); i >= 0 {
			empty = s.Crates[i].Stock == 0
		}
		a.Set("crate_empty", expr.BoolValue(empty))
		a.Set("medic", expr.NumberValue(s.Medic[so.Team]))
		if t != nil {
			so.Facing = math.Atan2(t.Y-so.Y, t.X-so.X)
		}
	}
}

// Sees reports whether so can see e: within SightRange, no wall between.
func (s *Sim) Sees(so, e *Soldier) bool {
	return dist(so.X, so.Y, e.X, e.Y) <= s.Config.SightRange && s.Field.Sight(Point{so.X, so.Y}, Point{e.X, e.Y})
}

// nearestCrate returns the index of the crate on so's half of the field
// nearest so (with stock only, when stocked; then the nearest of all when
// none has any), or -1 when the map has none.
func (s *Sim) nearestCrate(so *Soldier, stocked bool) int {
	best, bd := -1, math.Inf(1)
	for i, c := range s.Crates {
		if stocked && c.Stock == 0 || (c.X < s.Field.Width()/2) != (so.Team == 0) {
			continue
		}
		if d := dist(so.X, so.Y, c.X, c.Y); d < bd {
			best, bd = i, d
		}
	}
	if best < 0 && stocked {
		return s.nearestCrate(so, false)
	}
	return best
}

// nearestEnemy returns the nearest living enemy in sight (Sees), the first
// in spawn order on a tie, or nil.
func (s *Sim) nearestEnemy(so *Soldier) *Soldier {
	var best *Soldier
	bestD := s.Config.SightRange
	for _, e := range s.Soldiers {
		if e.Team == so.Team || e.Dead {
			continue
		}
		if d := dist(so.X, so.Y, e.X, e.Y); d <= bestD && (best == nil || d < bestD) && s.Field.Sight(Point{so.X, so.Y}, Point{e.X, e.Y}) {
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

package sim

import (
	"fmt"
	"math"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// hostFuncs returns the npc methods soldier.lua calls:
//
//	npc:move_to(x, y)      walks there at Config.Speed along an A* path around
//	                       walls (spans ticks; ends on the nearest open tile
//	                       when (x, y) is not walkable)
//	npc:advance(seconds)   walks towards the nearest living enemy, seen or
//	                       not, until one is in sight or seconds have passed
//	npc:nearest(kind)      x, y of the nearest "ammo_crate" (with stock, if
//	                       any has), living "enemy" in sight, free "cover"
//	                       spot of its team, or its team's "rally" point
//	npc:position()         x, y
//	npc:shoot()            fires one round at the target; returns whether it hit
//	npc:take_magazine()    takes a magazine from the crate it stands at: the one
//	                       its step holds, else one no holder waits for;
//	                       returns false when there is none (empty, or no crate)
//	npc:object_at(name)    x, y of the smart object of that name (a crate, or a
//	                       medic at its rally point); nothing for another name
//	npc:target_at()        x, y of the enemy it aims at; nothing when none
//	npc:look_at(x, y, s)   turns to look at (x, y) and keeps looking there for
//	                       s seconds (default 1) while it walks; at once
//	npc:face(x, y)         turns to look at (x, y); at once
//	npc:mates()            the names of its living squad mates, in spawn order
//	                       (several results: { npc:mates() } makes a list)
//	npc:next_crate(x, y)   x, y of the nearest crate on its half with stock,
//	                       other than the one at (x, y); nothing when none has
func (s *Sim) hostFuncs() map[string]luabind.HostFunc {
	return map[string]luabind.HostFunc{
		"face":          s.face,
		"mates":         s.mates,
		"next_crate":    s.nextCrate,
		"move_to":       s.moveTo,
		"advance":       s.advance,
		"nearest":       s.nearest,
		"position":      s.position,
		"shoot":         s.shoot,
		"take_magazine": s.takeMagazine,
		"object_at":     s.objectAt,
		"target_at":     s.targetAt,
		"look_at":       s.lookAt,
	}
}

func soldierOf(c *luabind.HostCall) (*Soldier, error) {
	so, ok := c.Agent.Data.(*Soldier)
	if !ok {
		return nil, fmt.Errorf("sim: agent %q is not a soldier", c.Agent.Name)
	}
	return so, nil
}

func numbers(c *luabind.HostCall, fn string, n int) ([]float64, error) {
	if len(c.Args) < n {
		return nil, fmt.Errorf("sim: %s wants %d numbers, got %d arguments", fn, n, len(c.Args))
	}
	out := make([]float64, n)
	for i := range n {
		f, ok := c.Args[i].AsNumber()
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("sim: %s argument #%d: want a finite number, got %s", fn, i+1, c.Args[i])
		}
		out[i] = f
	}
	return out, nil
}

// moveTo walks toward (x, y) along an A* path by Speed*DT each tick and
// is done on arrival (at once when no path leads there). A dead soldier
// does not move, and its call never finishes (its agent is out of the
// world from the next tick on).
func (s *Sim) moveTo(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	xy, err := numbers(c, "move_to", 2)
	if err != nil {
		return true, err
	}
	if so.Dead {
		return false, nil
	}
	goal := s.Field.NearestOpen(xy[0], xy[1])
	if c.First || so.pathGoal != goal || so.path == nil {
		so.path, so.pathGoal = s.Field.Path(Point{so.X, so.Y}, goal), goal
	}
	return s.walk(so, s.Config.Speed*c.DT), nil
}

// walk moves so up to step pixels along its path and reports whether it
// has arrived (or has no path to follow).
func (s *Sim) walk(so *Soldier, step float64) bool {
	for step > 0 && len(so.path) > 0 {
		p := so.path[0]
		d := dist(so.X, so.Y, p.X, p.Y)
		if d > 1e-9 {
			so.Facing = math.Atan2(p.Y-so.Y, p.X-so.X)
		}
		if d <= step {
			so.X, so.Y = p.X, p.Y
			so.path = so.path[1:]
			step -= d
			continue
		}
		so.X += (p.X - so.X) / d * step
		so.Y += (p.Y - so.Y) / d * step
		step = 0
	}
	s.keepLooking(so)
	if len(so.path) == 0 {
		so.path = nil
		return true
	}
	return false
}

// advance walks towards the nearest living enemy (the soldiers know where
// the enemy squad is; they just cannot shoot what they do not see) and is
// done as soon as an enemy is in sight, after the seconds given (default
// 2), or when no enemy is left.
func (s *Sim) advance(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	if so.Dead {
		return false, nil
	}
	if c.First {
		secs := 2.0
		if len(c.Args) > 0 {
			xs, err := numbers(c, "advance", 1)
			if err != nil {
				return true, err
			}
			secs = xs[0]
		}
		c.Memo = secs
	}
	left := c.Memo.(float64) - c.DT
	c.Memo = left
	var e *Soldier
	bd := math.Inf(1)
	for _, o := range s.Soldiers {
		if o.Team != so.Team && !o.Dead {
			if d := dist(so.X, so.Y, o.X, o.Y); d < bd {
				e, bd = o, d
			}
		}
	}
	if e == nil || left < 0 || s.nearestEnemy(so) != nil {
		so.path = nil
		return true, nil
	}
	goal := s.Field.NearestOpen(e.X, e.Y)
	if so.path == nil || dist(goal.X, goal.Y, so.pathGoal.X, so.pathGoal.Y) > 2*TileSize {
		so.path, so.pathGoal = s.Field.Path(Point{so.X, so.Y}, goal), goal
	}
	if s.walk(so, s.Config.Speed*c.DT) {
		return true, nil
	}
	return false, nil
}

// takeMagazine takes one magazine from the crate within CrateRadius of the
// soldier and returns true: from the crate its step holds when it stands
// there, else (a soldier trying another crate) only a magazine no holder
// of that crate waits for. It returns false when there is none to take or
// no crate.
func (s *Sim) takeMagazine(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	ok := false
	if i := s.nearestCrate(so, false); i >= 0 && !so.Dead {
		cr := &s.Crates[i]
		mine := s.heldCrate(so) == i
		if dist(so.X, so.Y, cr.X, cr.Y) <= CrateRadius && cr.Stock > 0 && (mine || s.unclaimed(i) > 0) {
			cr.Stock--
			ok = true
			s.syncObjects()
		} else if mine && dist(so.X, so.Y, cr.X, cr.Y) <= CrateRadius {
			s.EmptyClaims++ // it reached the crate it held, and found it empty
		}
	}
	c.Results = []expr.Value{expr.BoolValue(ok)}
	return true, nil
}

// nearest returns x, y of the nearest crate with stock ("ammo_crate"; the
// nearest of all when none has any), living enemy in
// sight ("enemy"), cover spot of the soldier's team that no living teammate
// has headed for ("cover"; the nearest taken one when all are; the soldier
// then counts as heading for it), or the team's rally point ("rally"). An
// unknown kind, or none on the field, is an error.
func (s *Sim) nearest(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	kind := ""
	if len(c.Args) > 0 {
		kind, _ = c.Args[0].AsString()
	}
	x, y, found := 0.0, 0.0, false
	switch kind {
	case "ammo_crate":
		if i := s.nearestCrate(so, true); i >= 0 {
			x, y, found = s.Crates[i].X, s.Crates[i].Y, true
		}
	case "enemy":
		if e := s.nearestEnemy(so); e != nil {
			x, y, found = e.X, e.Y, true
		}
	case "cover":
		if i := s.freeCover(so); i >= 0 {
			so.Cover = i
			x, y, found = s.Covers[i].SpotX, s.Covers[i].SpotY, true
		}
	case "rally":
		r := s.Rallies[so.Team]
		x, y, found = r.X, r.Y, true
	default:
		return true, fmt.Errorf("sim: nearest: unknown kind %q (want \"ammo_crate\", \"enemy\", \"cover\" or \"rally\")", kind)
	}
	if !found {
		return true, fmt.Errorf("sim: nearest: no %s on the field", kind)
	}
	c.Results = []expr.Value{expr.NumberValue(x), expr.NumberValue(y)}
	return true, nil
}

// position returns the soldier's x, y.
func (s *Sim) position(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	c.Results = []expr.Value{expr.NumberValue(so.X), expr.NumberValue(so.Y)}
	return true, nil
}

// HitChance is the chance that a round fired across d pixels hits: 0.5 at
// point blank, falling linearly to 0.1 at 800 pixels and beyond.
func HitChance(d float64) float64 {
	return math.Max(0.1, 0.5*(1-d/1000))
}

// HitChanceAt is the chance that so's round hits target t: HitChance of
// their distance, times Config.CoverFactor when t is in cover.
func (s *Sim) HitChanceAt(so, t *Soldier) float64 {
	p := HitChance(dist(so.X, so.Y, t.X, t.Y))
	if t.InCover {
		p *= s.Config.CoverFactor
	}
	return p
}

// shoot fires one round at the soldier's target: a tracer, a hit with
// HitChanceAt drawn from World.Rand, and Damage off the target's health on a
// hit. It returns whether the round hit; with no living target (or a dead
// shooter) nothing is fired and it returns false. A miss flies on past the
// target and stops at the first wall; a target out of sight (kept for
// SightMemory) is never hit, the wall between takes the round. Enemies within
// HearingRange hear the shot (the heard_shot sensor).
func (s *Sim) shoot(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	t := so.Target
	if so.Dead || t == nil || t.Dead || t.Health <= 0 {
		c.Results = []expr.Value{expr.BoolValue(false)}
		return true, nil
	}
	r := s.World.Rand
	hit := r.Float64() < s.HitChanceAt(so, t)
	if !s.Field.Sight(Point{so.X, so.Y}, Point{t.X, t.Y}) {
		hit = false // fire at a target behind a wall: the wall takes it
	}
	tr := Tracer{X0: so.X, Y0: so.Y, X1: t.X, Y1: t.Y, Team: so.Team, Hit: hit}
	so.Shots++
	so.FiredAt = s.World.Time
	so.Facing = math.Atan2(t.Y-so.Y, t.X-so.X)
	if hit {
		so.Hits++
		t.Health = math.Max(0, t.Health-s.Config.Damage)
	} else {
		// A miss flies past the target and on, to a wall or 120 px beyond.
		d := math.Max(dist(so.X, so.Y, t.X, t.Y), 1)
		ux, uy := (t.X-so.X)/d, (t.Y-so.Y)/d
		end := Point{t.X + ux*120 + (r.Float64()*2-1)*24, t.Y + uy*120 + (r.Float64()*2-1)*24}
		p, clear := s.Field.FirstWall(Point{so.X, so.Y}, end)
		tr.X1, tr.Y1, tr.Wall = p.X, p.Y, !clear
	}
	s.Tracers = append(s.Tracers, tr)
	for _, o := range s.Soldiers {
		if o.Team != so.Team && !o.Dead && dist(o.X, o.Y, so.X, so.Y) <= s.Config.HearingRange {
			o.HeardX, o.HeardY, o.HeardAt = so.X, so.Y, s.World.Time
		}
	}
	c.Results = []expr.Value{expr.BoolValue(hit)}
	return true, nil
}

// face turns the soldier to look at (x, y), in pixels; a point it stands
// on leaves its facing as it was. It is done at once.
func (s *Sim) face(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	xy, err := numbers(c, "face", 2)
	if err != nil {
		return true, err
	}
	if !so.Dead && dist(so.X, so.Y, xy[0], xy[1]) > 1e-9 {
		so.Facing = math.Atan2(xy[1]-so.Y, xy[0]-so.X)
	}
	return true, nil
}

// mates returns the names of the soldier's living squad mates (itself
// left out), in spawn order, as several results.
func (s *Sim) mates(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	c.Results = nil
	for _, o := range s.Soldiers {
		if o != so && o.Team == so.Team && !o.Dead {
			c.Results = append(c.Results, expr.StringValue(o.Name))
		}
	}
	return true, nil
}

// nextCrate returns x, y of the crate on the soldier's half nearest to it
// that has a magazine left and does not stand at (x, y) (within
// CrateRadius), or no result when there is none.
func (s *Sim) nextCrate(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	xy, err := numbers(c, "next_crate", 2)
	if err != nil {
		return true, err
	}
	best, bd := -1, math.Inf(1)
	for i, cr := range s.Crates {
		if cr.Stock == 0 || (cr.X < s.Field.Width()/2) != (so.Team == 0) || dist(cr.X, cr.Y, xy[0], xy[1]) <= CrateRadius {
			continue
		}
		if d := dist(so.X, so.Y, cr.X, cr.Y); d < bd {
			best, bd = i, d
		}
	}
	c.Results = nil
	if best >= 0 {
		c.Results = append(c.Results, expr.NumberValue(s.Crates[best].X), expr.NumberValue(s.Crates[best].Y))
	}
	return true, nil
}

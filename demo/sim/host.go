package sim

import (
	"fmt"
	"math"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
)

// hostFuncs returns the npc methods soldier.lua calls:
//
//	npc:move_to(x, y)     walks at Config.Speed until it arrives (spans ticks)
//	npc:nearest(kind)     x, y of the nearest "ammo_crate", living "enemy",
//	                      free "cover" spot of its team, or its team's "rally" point
//	npc:position()        x, y
//	npc:shoot()           fires one round at the target; returns whether it hit
func (s *Sim) hostFuncs() map[string]luabind.HostFunc {
	return map[string]luabind.HostFunc{
		"move_to":  s.moveTo,
		"nearest":  s.nearest,
		"position": s.position,
		"shoot":    s.shoot,
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

// moveTo walks toward (x, y) by Speed*DT each tick and is done on arrival.
// A dead soldier does not move, and its call never finishes (its agent is
// out of the world from the next tick on).
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
	x := math.Max(0, math.Min(s.Config.Width, xy[0]))
	y := math.Max(0, math.Min(s.Config.Height, xy[1]))
	d := dist(so.X, so.Y, x, y)
	step := s.Config.Speed * c.DT
	if d <= step || d < 1e-9 {
		so.X, so.Y = x, y
		return true, nil
	}
	so.X += (x - so.X) / d * step
	so.Y += (y - so.Y) / d * step
	return false, nil
}

// nearest returns x, y of the nearest crate ("ammo_crate"), living enemy in
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
		best := math.Inf(1)
		for _, cr := range s.Crates {
			if d := dist(so.X, so.Y, cr.X, cr.Y); d < best {
				x, y, best, found = cr.X, cr.Y, d, true
			}
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
	c.Results = []engine.Value{engine.NumberValue(x), engine.NumberValue(y)}
	return true, nil
}

// position returns the soldier's x, y.
func (s *Sim) position(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	c.Results = []engine.Value{engine.NumberValue(so.X), engine.NumberValue(so.Y)}
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
// shooter) nothing is fired and it returns false.
func (s *Sim) shoot(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	t := so.Target
	if so.Dead || t == nil || t.Dead || t.Health <= 0 {
		c.Results = []engine.Value{engine.BoolValue(false)}
		return true, nil
	}
	r := s.World.Rand
	hit := r.Float64() < s.HitChanceAt(so, t)
	tr := Tracer{X0: so.X, Y0: so.Y, X1: t.X, Y1: t.Y, Team: so.Team, Hit: hit}
	so.Shots++
	if hit {
		so.Hits++
		t.Health = math.Max(0, t.Health-s.Config.Damage)
	} else {
		// A miss flies past the target and on a little.
		tr.X1 += (r.Float64()*2 - 1) * 24
		tr.Y1 += (r.Float64()*2 - 1) * 24
	}
	s.Tracers = append(s.Tracers, tr)
	c.Results = []engine.Value{engine.BoolValue(hit)}
	return true, nil
}

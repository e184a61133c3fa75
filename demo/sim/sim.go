// Package sim is the demo's battlefield without a window: two squads of
// soldiers whose minds are scripts/soldier.lua, the crates, the cover
// (low walls and rocks: a soldier behind one is harder to hit) and a rally
// point per team (a medic heals there), the host functions the script
// calls (move_to, nearest, position, shoot), the sensors that write each
// soldier's state before every World.Tick, and the debug overlay's data
// (Sim.Overlay: a soldier's utility scores, goal, plan and latest
// records). It does not import ebiten, so tests run it headless; package
// game draws it.
//
//	s, err := sim.New(sim.Config{Seed: 1, ScriptsDir: "scripts"})
//	if err != nil { ... }
//	defer s.Close()
//	for range 600 {
//		s.Step(1.0 / 60) // ten seconds of battle
//	}
//
// A Sim is deterministic for a seed and a sequence of dt: every random draw
// comes from World.Rand. It is not safe for concurrent use.
package sim

import (
	"fmt"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
)

// Config sets up a Sim. The zero value of every field means the default
// given beside it.
type Config struct {
	Seed       uint64 // the world's random seed (default 0, a valid seed)
	ScriptsDir string // the folder holding soldier.lua (default "scripts")
	Squad      int    // soldiers per team (default 3)

	Width, Height float64 // the field, in pixels (default 960 x 540)
	Speed         float64 // walking speed, pixels per second (default 90)
	SightRange    float64 // how far a soldier sees an enemy, pixels (default 800)
	// SpawnAmmo is the rounds in a soldier's magazine at spawn, give or
	// take up to 3 drawn from World.Rand so the soldiers fall out of step
	// (default 15).
	SpawnAmmo float64
	Damage    float64 // health a hit takes (default 5)
	// CoverFactor scales the hit chance against a soldier in cover
	// (default 0.35: cover stops about two rounds in three that would hit).
	CoverFactor float64
	// HealRate is the health per second a soldier at its own rally point
	// regains, up to 100 (default 8): the medic there.
	HealRate float64
	// RoundPause is how long, in seconds, the field stays still after a
	// squad is wiped out before both squads respawn (default 3). A negative
	// value never starts a new round.
	RoundPause float64
	// OnEvent, when set, receives every soldier's decisions.
	OnEvent func(engine.Event)
	// NoGOAP turns the soldiers' GOAP planning off, so only the utility
	// planner decides (the demo's main sets it for MOONMIND_GOAP=off).
	NoGOAP bool
}

func (c *Config) defaults() {
	if c.ScriptsDir == "" {
		c.ScriptsDir = "scripts"
	}
	if c.Squad <= 0 {
		c.Squad = 3
	}
	if c.Width <= 0 {
		c.Width = 960
	}
	if c.Height <= 0 {
		c.Height = 540
	}
	if c.Speed <= 0 {
		c.Speed = 90
	}
	if c.SightRange <= 0 {
		c.SightRange = 800
	}
	if c.SpawnAmmo <= 0 {
		c.SpawnAmmo = 15
	}
	if c.Damage <= 0 {
		c.Damage = 5
	}
	if c.RoundPause == 0 {
		c.RoundPause = 3
	}
	if c.CoverFactor <= 0 {
		c.CoverFactor = 0.35
	}
	if c.HealRate <= 0 {
		c.HealRate = 8
	}
}

// TracerLife is how long, in seconds, a tracer stays on the field.
const TracerLife = 0.18

// Crate is an ammo crate: soldiers fetch magazines from the nearest one.
type Crate struct{ X, Y float64 }

// Cover is a low wall or a rock on a team's half of the field. A soldier
// of that team standing at its spot (SpotX, SpotY: CoverSpotOffset pixels
// behind it, on the team's side) is in cover: enemy rounds hit it with
// Config.CoverFactor times the usual chance.
type Cover struct {
	X, Y         float64
	SpotX, SpotY float64
	Team         int
	Wall         bool // a low wall (drawn as a bar); otherwise a rock
}

// Cover geometry, in pixels.
const (
	// CoverSpotOffset is how far behind its cover a soldier stands.
	CoverSpotOffset = 18
	// CoverRadius is how near a cover spot a soldier must be to count as
	// in cover: on the spot (move_to ends exactly there), not on its way.
	CoverRadius = 0.01
	// RallyRadius is how near its rally point a soldier must be to be
	// healed there.
	RallyRadius = 24
)

// Rally is a team's rally point, far back on its half: soldiers retreat
// there, and the medic heals them there (Config.HealRate).
type Rally struct {
	X, Y float64
	Team int
}

// Tracer is one shot on its way: from the shooter to where the round went.
// Age is in seconds since the shot.
type Tracer struct {
	X0, Y0, X1, Y1 float64
	Team           int
	Hit            bool
	Age            float64
}

// Sim is the battlefield: a World of soldier agents, the crates, the
// tracers in flight and the round count.
type Sim struct {
	Config Config
	// World is the current round's world (each round has its own, so
	// World.Time is the round's time). Its Workers stays 0: the soldiers
	// share one Lua runtime and read each other's positions.
	World    *engine.World
	Domain   *engine.Domain
	Soldiers []*Soldier // both squads, team 0 first; dead soldiers stay
	Crates   []Crate
	Covers   []Cover  // three per team, team 0's first
	Rallies  [2]Rally // by team
	Tracers  []Tracer
	Round    int    // the round being fought, from 1
	Wins     [2]int // rounds won by each team
	Winner   int    // the team that won the round just ended, 2 for a draw, -1 while fighting

	rt      *luabind.Runtime
	pause   float64                // seconds left before the next round
	explain *engine.UtilityPlanner // the overlay's planner (Explain on)
}

// New loads soldier.lua from cfg.ScriptsDir, places the crates, the cover
// and the rally points and spawns the first round. The error is a script
// that does not load or compile.
func New(cfg Config) (*Sim, error) {
	cfg.defaults()
	s := &Sim{Config: cfg, Winner: -1}
	s.rt = luabind.NewRuntime(luabind.Options{ScriptsDir: cfg.ScriptsDir, Host: s.hostFuncs()})
	d, err := s.rt.LoadDomain(filepath.Join(cfg.ScriptsDir, "soldier.lua"))
	if err != nil {
		s.rt.Close()
		return nil, fmt.Errorf("sim: %w", err)
	}
	s.Domain = d
	w, h := cfg.Width, cfg.Height
	s.Crates = []Crate{{0.07 * w, 0.3 * h}, {0.07 * w, 0.7 * h}, {0.93 * w, 0.3 * h}, {0.93 * w, 0.7 * h}}
	for team := range 2 {
		x, back := 0.3*w, -1.0 // team 0 holds the left half and faces right
		if team == 1 {
			x, back = w-x, 1
		}
		for i, fy := range []float64{0.2, 0.5, 0.8} {
			s.Covers = append(s.Covers, Cover{X: x, Y: fy * h, SpotX: x + back*CoverSpotOffset, SpotY: fy * h,
				Team: team, Wall: i != 1})
		}
		rx := 0.1 * w
		if team == 1 {
			rx = w - rx
		}
		s.Rallies[team] = Rally{X: rx, Y: 0.5 * h, Team: team}
	}
	s.explain = engine.NewUtilityPlanner(d)
	s.explain.Explain = true
	s.spawn()
	return s, nil
}

// Close releases the Lua state. The Sim must not be stepped afterwards.
func (s *Sim) Close() { s.rt.Close() }

// spawn starts a round: a fresh World (seeded with Config.Seed for the
// first round, then with a draw from the last round's World.Rand) and fresh
// soldiers for both squads in two lines facing each other, each with about
// SpawnAmmo rounds.
func (s *Sim) spawn() {
	s.Round++
	s.Winner = -1
	for _, so := range s.Soldiers {
		s.rt.Forget(so.Agent)
	}
	seed := s.Config.Seed
	if s.World != nil {
		seed = s.World.Rand.Uint64()
	}
	s.World = engine.NewWorld(seed)
	s.World.OnEvent = s.Config.OnEvent
	s.Soldiers = s.Soldiers[:0]
	s.Tracers = s.Tracers[:0]
	n := s.Config.Squad
	for team := range 2 {
		x := 0.23 * s.Config.Width
		if team == 1 {
			x = s.Config.Width - x
		}
		for i := range n {
			y := s.Config.Height * float64(i+1) / float64(n+1)
			name := fmt.Sprintf("%s%d", teamNames[team], i+1)
			so := &Soldier{Name: name, Team: team, X: x, Y: y, HomeX: x, HomeY: y, Health: 100, Cover: -1}
			so.Agent = engine.NewAgent(name, s.Domain)
			if s.Config.NoGOAP {
				so.Agent.SetPlannerHandle(nil)
			}
			so.Agent.Data = so
			ammo := max(1, s.Config.SpawnAmmo+float64(s.World.Rand.IntN(7)-3))
			so.Agent.Set("ammo", engine.NumberValue(ammo))
			s.Soldiers = append(s.Soldiers, so)
			s.World.Add(so.Agent)
		}
	}
}

var teamNames = [2]string{"blue", "red"}

// TeamName returns "blue" for team 0 and "red" for team 1.
func TeamName(team int) string { return teamNames[team&1] }

// Step advances the battle by dt seconds (dt > 0): sensors, then one
// World.Tick, then the dead fall, the medics heal and tracers fade; when a
// squad is wiped out the next round starts RoundPause seconds later.
func (s *Sim) Step(dt float64) {
	s.sense()
	s.World.Tick(dt)
	s.reap()
	s.heal(dt)
	live := s.Tracers[:0]
	for _, t := range s.Tracers {
		t.Age += dt
		if t.Age < TracerLife {
			live = append(live, t)
		}
	}
	s.Tracers = live
	if s.Winner < 0 {
		alive := s.Alive()
		switch {
		case alive[0] == 0 && alive[1] == 0:
			s.Winner = 2 // a draw: nobody scores
		case alive[0] == 0:
			s.Winner = 1
		case alive[1] == 0:
			s.Winner = 0
		default:
			return
		}
		if s.Winner < 2 {
			s.Wins[s.Winner]++
		}
		s.pause = s.Config.RoundPause
		return
	}
	if s.Config.RoundPause < 0 {
		return
	}
	s.pause -= dt
	if s.pause <= 0 {
		s.spawn()
	}
}

// Alive returns how many soldiers of each team are alive.
func (s *Sim) Alive() [2]int {
	var n [2]int
	for _, so := range s.Soldiers {
		if !so.Dead {
			n[so.Team]++
		}
	}
	return n
}

// Soldier returns the soldier with that name in the current round, or nil.
func (s *Sim) Soldier(name string) *Soldier {
	for _, so := range s.Soldiers {
		if so.Name == name {
			return so
		}
	}
	return nil
}

// reap lays down the soldiers killed this tick and takes their agents out
// of the world (World.Remove), so their plans stop.
func (s *Sim) reap() {
	for _, so := range s.Soldiers {
		if !so.Dead && so.Health <= 0 {
			so.Dead, so.Health, so.Target, so.InCover = true, 0, nil, false
			so.DiedAt = s.World.Time
			s.World.Remove(so.Agent)
		}
	}
}

// heal gives every living soldier at its own rally point HealRate health
// per second, up to 100.
func (s *Sim) heal(dt float64) {
	for _, so := range s.Soldiers {
		if so.Dead || so.Health >= 100 {
			continue
		}
		r := s.Rallies[so.Team]
		if dist(so.X, so.Y, r.X, r.Y) <= RallyRadius {
			so.Health = min(100, so.Health+s.Config.HealRate*dt)
		}
	}
}

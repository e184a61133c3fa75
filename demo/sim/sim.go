// Package sim is the demo's battlefield without a window: two squads of
// soldiers whose minds are scripts/squad.lua (scripts/soldier.lua plus
// advance, regroup and crates that run empty), on a tile map (Field:
// walls that block walking, sight and rounds, sandbags that give cover,
// crates, rally points where a medic heals), with line of sight, A* paths
// on the tile grid, the host functions the script calls (move_to,
// advance, nearest, position, shoot, take_magazine), the sensors that
// write each soldier's state before every World.Tick, and the debug
// overlay's data (Sim.Overlay: a soldier's utility scores, goal, plan and
// latest records). It does not import ebiten, so tests run it headless; package
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
	"math"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/assets"
	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// Config sets up a Sim. The zero value of every field means the default
// given beside it.
type Config struct {
	Seed       uint64 // the world's random seed (default 0, a valid seed)
	ScriptsDir string // the folder holding the role and the modules it extends (default "scripts")
	// Role is the soldiers' role file in ScriptsDir (default DefaultRole).
	Role string
	// Map is the battlefield's tile map (default assets.Field; see
	// assets.Legend and ParseField).
	Map string
	// Squad is the soldiers per team, 1 to the map's spawn points of a
	// team (default 6; at most 8 on the default map).
	Squad int

	Speed      float64 // walking speed, pixels per second (default 90)
	SightRange float64 // how far a soldier sees an enemy, pixels, walls permitting (default 520)
	// SightMemory is how long, in seconds, a soldier keeps a target that
	// went out of sight (default 3): enemy_visible stays true, and its
	// rounds go where it last saw the target.
	SightMemory float64
	// HearingRange is how far, in pixels, a soldier hears an enemy's shot
	// (walls do not stop sound; default 600). HearingMemory is how long,
	// in seconds, the heard_shot sensor stays true after one (default 2).
	HearingRange, HearingMemory float64
	// SpawnAmmo is the rounds in a soldier's magazine at spawn, give or
	// take up to 3 drawn from World.Rand so the soldiers fall out of step
	// (default 15).
	SpawnAmmo float64
	Damage    float64 // health a hit takes (default 15)
	// CoverFactor scales the hit chance against a soldier in cover
	// (default 0.35: cover stops about two rounds in three that would hit).
	CoverFactor float64
	// HealRate is the health per second a soldier at its own rally point
	// regains, up to 100 (default 8): the medic there.
	HealRate float64
	// MedicSupply is the health each team's medic can give out in a round
	// (default 150); once it is spent nobody heals, so rounds end.
	MedicSupply float64
	// CrateStock is the magazines a crate holds at the start of a round
	// (default 4); CrateRefill is the seconds a crate takes to get one
	// back, up to CrateStock (default 6).
	CrateStock  int
	CrateRefill float64
	// RoundLimit is the longest a round lasts, in seconds of game time
	// (default 120): then the squad with more soldiers standing wins, or
	// on a tie the one with more health left, or it is a draw.
	RoundLimit float64
	// RoundPause is how long, in seconds, the field stays still after a
	// squad is wiped out before both squads respawn (default 3). A negative
	// value never starts a new round.
	RoundPause float64
	// OnEvent, when set, receives every soldier's decisions.
	OnEvent func(record.Event)
	// NoGOAP turns the soldiers' GOAP planning off, so only the utility
	// planner decides (the demo's main sets it for MOONMIND_GOAP=off).
	NoGOAP bool
	// PlanBudget is the world's planning budget per tick, in node
	// expansions (see engine.World.PlanBudget); the default (0) is
	// unlimited.
	PlanBudget int
	// Commander is the language model the squad leaders (blue1, red1) ask
	// for orders at the start of each round, through npc:llm_plan. The
	// default (nil) has no model: npc:llm_plan answers nil, "unavailable"
	// at once and the battle runs as it would without it.
	Commander *llm.DynamicPlanner
	// CommanderTicks, when positive, hands every answer of the commander
	// to its leader exactly this many ticks after the request (see
	// luabind.LLMOptions.DeliverAfterTicks), so a run with a model is
	// deterministic; the default (0) never makes a tick wait.
	CommanderTicks int
}

// DefaultRole is the soldiers' role file when Config.Role is empty:
// squad.lua, which extends soldier.lua with the battlefield's actions.
const DefaultRole = "squad.lua"

func (c *Config) defaults() {
	if c.ScriptsDir == "" {
		c.ScriptsDir = "scripts"
	}
	if c.Role == "" {
		c.Role = DefaultRole
	}
	if c.Map == "" {
		c.Map = assets.Field
	}
	orPositive(&c.Squad, 6)
	orPositive(&c.Speed, 90)
	orPositive(&c.SightRange, 520)
	orPositive(&c.SightMemory, 3)
	orPositive(&c.HearingRange, 600)
	orPositive(&c.HearingMemory, 2)
	orPositive(&c.SpawnAmmo, 15)
	orPositive(&c.Damage, 15)
	orPositive(&c.RoundLimit, 120)
	orNonZero(&c.RoundPause, 3)
	orPositive(&c.CoverFactor, 0.35)
	orPositive(&c.HealRate, 8)
	orPositive(&c.MedicSupply, 150)
	orPositive(&c.CrateStock, 4)
	orPositive(&c.CrateRefill, 6)
}

// orPositive sets *v to def when it is 0 or negative (a field left out).
func orPositive[T int | float64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// orNonZero sets *v to def when it is 0 (a field left out); a negative
// value is kept.
func orNonZero[T int | float64](v *T, def T) {
	if *v == 0 {
		*v = def
	}
}

// TracerLife is how long, in seconds, a tracer stays on the field;
// FlashLife how long a muzzle flash shows at its start.
const (
	TracerLife = 0.18
	FlashLife  = 0.07
)

// Crate is an ammo crate: soldiers fetch magazines from the nearest one
// that has any (npc:take_magazine takes one). Stock is the magazines in
// it now.
type Crate struct {
	X, Y   float64
	Stock  int
	refill float64 // seconds until the next magazine comes back
}

// Cover is a cover spot of a team: a soldier of that team standing on it
// (SpotX, SpotY, a tile beside low cover) is in cover, and enemy rounds
// hit it with Config.CoverFactor times the usual chance. X, Y is the
// sandbag tile it hides behind.
type Cover struct {
	X, Y         float64
	SpotX, SpotY float64
	Team         int
}

// Cover geometry, in pixels.
const (
	// CoverRadius is how near a cover spot a soldier must be to count as
	// in cover: on the spot (move_to ends exactly there), not on its way.
	CoverRadius = 0.01
	// RallyRadius is how near its rally point a soldier must be to be
	// healed there.
	RallyRadius = 24
	// CrateRadius is how near a crate a soldier must be to take a magazine.
	CrateRadius = 12
)

// Rally is a team's rally point, far back on its half: soldiers retreat
// there, and the medic heals them there (Config.HealRate).
type Rally struct {
	X, Y float64
	Team int
}

// Tracer is one shot on its way: from the shooter to where the round went
// (the target on a hit; past it, or the first wall, on a miss). Age is in
// seconds since the shot.
type Tracer struct {
	X0, Y0, X1, Y1 float64
	Team           int
	Hit            bool
	Wall           bool // the round struck a wall at X1, Y1
	Age            float64
}

// Sim is the battlefield: a World of soldier agents on a tile map, the
// crates, the tracers in flight and the round count.
type Sim struct {
	Config Config
	Field  *Field
	// World is the current round's world (each round has its own, so
	// World.Time is the round's time). Its Workers stays 0: the soldiers
	// share one Lua runtime and read each other's positions.
	World    *engine.World
	Domain   *engine.Domain
	Soldiers []*Soldier // both squads, team 0 first; dead soldiers stay
	Crates   []Crate
	Covers   []Cover  // the map's cover spots, team 0's first
	Rallies  [2]Rally // by team
	Tracers  []Tracer
	Round    int    // the round being fought, from 1
	Wins     [2]int // rounds won by each team
	Winner   int    // the team that won the round just ended, 2 for a draw, -1 while fighting
	TimeUp   bool   // the round just ended at Config.RoundLimit, not with a squad wiped out
	Ticks    int    // Steps since New, over all rounds
	// Medic is the health each team's medic has left to give this round.
	Medic [2]float64
	// EmptyClaims counts, over all rounds, the soldiers that reached the
	// crate their step held and found it empty: the crates' slots (one per
	// magazine) keep it at 0 unless something else empties a crate.
	EmptyClaims int

	rt  *luabind.Runtime
	llm *luabind.LLM
	// The round's smart objects (coordination.go): a crate object per
	// crate, by index, and each team's medic.
	crateObjs []*engine.Object
	medics    [2]*engine.Object
	pause     float64                // seconds left before the next round
	explain   *engine.UtilityPlanner // the overlay's planner (Explain on)
	// focus is the soldier the level of detail centres on (SetFocus), of
	// the name focusName, or nil.
	focus     *Soldier
	focusName string
}

// New parses the map, loads cfg.Role from cfg.ScriptsDir and spawns the
// first round. The error is a map that does not parse or a script that
// does not load or compile.
func New(cfg Config) (*Sim, error) {
	cfg.defaults()
	f, err := ParseField(cfg.Map)
	if err != nil {
		return nil, err
	}
	cfg.Squad = min(cfg.Squad, len(f.Spawns[0]), len(f.Spawns[1]))
	if cfg.Squad == 0 {
		return nil, fmt.Errorf("sim: the map has no spawn point for one of the teams")
	}
	s := &Sim{Config: cfg, Field: f, Winner: -1}
	s.rt = luabind.NewRuntime(luabind.Options{ScriptsDir: cfg.ScriptsDir, Host: s.hostFuncs()})
	// A model's answer can take seconds: the leader's intention waits for
	// it (10 s of game time at most) while the tick goes on.
	s.llm, err = s.rt.EnableLLM(luabind.LLMOptions{Planner: cfg.Commander, Unavailable: cfg.Commander == nil, Timeout: 10,
		DeliverAfterTicks: cfg.CommanderTicks})
	if err != nil {
		s.rt.Close()
		return nil, fmt.Errorf("sim: %w", err)
	}
	d, err := s.rt.LoadDomain(filepath.Join(cfg.ScriptsDir, cfg.Role))
	if err != nil {
		s.llm.Close()
		s.rt.Close()
		return nil, fmt.Errorf("sim: %w", err)
	}
	s.Domain = d
	for team := range 2 {
		for i, p := range f.CoverSpots[team] {
			c := f.CoverOf[team][i]
			s.Covers = append(s.Covers, Cover{X: c.X, Y: c.Y, SpotX: p.X, SpotY: p.Y, Team: team})
		}
		r := f.Rallies[team]
		s.Rallies[team] = Rally{X: r.X, Y: r.Y, Team: team}
	}
	s.explain = engine.NewUtilityPlanner(d)
	s.explain.Explain = true
	s.spawn()
	return s, nil
}

// Close drops the commander's pending requests and releases the Lua
// state. The Sim must not be stepped afterwards.
func (s *Sim) Close() {
	s.llm.Close()
	s.rt.Close()
}

// Restart starts a new round at once, as if the current one had ended
// (the score stays).
func (s *Sim) Restart() { s.spawn() }

// spawn starts a round: a fresh World (seeded with Config.Seed for the
// first round, then with a draw from the last round's World.Rand), full
// crates and fresh soldiers for both squads at the map's spawn points,
// each with about SpawnAmmo rounds.
func (s *Sim) spawn() {
	s.Round++
	s.Winner, s.TimeUp = -1, false
	for _, so := range s.Soldiers {
		s.rt.Forget(so.Agent)
	}
	seed := s.Config.Seed
	if s.World != nil {
		seed = s.World.Rand.Uint64()
	}
	s.World = engine.NewWorld(seed)
	s.World.OnEvent = s.Config.OnEvent
	s.World.PlanBudget = s.Config.PlanBudget
	s.setLOD()
	s.Soldiers = s.Soldiers[:0]
	s.Tracers = s.Tracers[:0]
	s.Crates = s.Crates[:0]
	s.Medic = [2]float64{s.Config.MedicSupply, s.Config.MedicSupply}
	for _, p := range s.Field.Crates {
		s.Crates = append(s.Crates, Crate{X: p.X, Y: p.Y, Stock: s.Config.CrateStock})
	}
	for team := range 2 {
		for i := range s.Config.Squad {
			p := s.Field.Spawns[team][i]
			name := fmt.Sprintf("%s%d", teamNames[team], i+1)
			so := &Soldier{Name: name, Team: team, X: p.X, Y: p.Y, HomeX: p.X, HomeY: p.Y, Health: 100, Cover: -1,
				HeardAt: math.Inf(-1), FiredAt: math.Inf(-1)}
			if team == 1 {
				so.Facing = math.Pi
			}
			so.Agent = engine.NewAgent(name, s.Domain)
			if s.Config.NoGOAP {
				so.Agent.SetPlannerHandle(nil)
			}
			so.Agent.Data = so
			ammo := max(1, s.Config.SpawnAmmo+float64(s.World.Rand.IntN(7)-3))
			so.Agent.Set("ammo", expr.NumberValue(ammo))
			s.Soldiers = append(s.Soldiers, so)
			s.World.Add(so.Agent)
		}
	}
	s.addObjects()
	// The squads' groups take the role's own squad variables, so Join
	// cannot fail, and every round's world is new.
	_ = s.makeSquads()
	s.SetFocus(s.focusName) // the new round's soldier of that name
}

var teamNames = [2]string{"blue", "red"}

// TeamName returns "blue" for team 0 and "red" for team 1.
func TeamName(team int) string { return teamNames[team&1] }

// Step advances the battle by dt seconds (dt > 0): sensors, then one
// World.Tick, then the dead fall, the medics heal, crates refill and tracers
// fade; when a squad is wiped out (or the round reaches RoundLimit) the next
// round starts RoundPause seconds later.
func (s *Sim) Step(dt float64) {
	s.Ticks++
	s.sense()
	s.World.Tick(dt)
	s.reap()
	s.heal(dt)
	s.restock(dt)
	s.syncObjects()
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
		case s.World.Time >= s.Config.RoundLimit:
			s.Winner = s.onPoints()
			s.TimeUp = true
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

// heal gives every living soldier at its own rally point that holds a
// slot of its team's medic (MedicSlots) HealRate health per second, up to
// 100, while the medic has supply left.
func (s *Sim) heal(dt float64) {
	for _, so := range s.Soldiers {
		if so.Dead || so.Health >= 100 || so.Agent.Holds() != s.medics[so.Team] {
			continue
		}
		r := s.Rallies[so.Team]
		if dist(so.X, so.Y, r.X, r.Y) <= RallyRadius && s.Medic[so.Team] > 0 {
			h := min(100-so.Health, s.Config.HealRate*dt, s.Medic[so.Team])
			so.Health += h
			s.Medic[so.Team] -= h
		}
	}
}

// restock gives every crate below Config.CrateStock one magazine back
// every Config.CrateRefill seconds.
func (s *Sim) restock(dt float64) {
	for i := range s.Crates {
		c := &s.Crates[i]
		if c.Stock >= s.Config.CrateStock {
			c.refill = s.Config.CrateRefill
			continue
		}
		c.refill -= dt
		if c.refill <= 0 {
			c.Stock++
			c.refill = s.Config.CrateRefill
		}
	}
}

// onPoints returns the winner of a round that ran out of time: the team
// with more soldiers standing, then with more health left; 2 for a draw.
func (s *Sim) onPoints() int {
	alive := s.Alive()
	var hp [2]float64
	for _, so := range s.Soldiers {
		if !so.Dead {
			hp[so.Team] += so.Health
		}
	}
	switch {
	case alive[0] != alive[1]:
		return map[bool]int{true: 0, false: 1}[alive[0] > alive[1]]
	case hp[0] != hp[1]:
		return map[bool]int{true: 0, false: 1}[hp[0] > hp[1]]
	}
	return 2
}

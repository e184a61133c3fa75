package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// MedicSlots is how many soldiers a team's medic tends at once: the
// medic is a smart object of kind "medic" at the team's rally point, and
// retreat and regroup (squad.lua) each hold one of its slots while they
// run; only a soldier holding one is healed there.
const MedicSlots = 2

// Coordination is what the squads share, for the overlay: each team's
// squad board (what it knows of the enemy) and who holds which smart
// object.
type Coordination struct {
	// EnemyX, EnemyY is where the squad last saw an enemy (squad.enemy_x,
	// squad.enemy_y); Sightings counts the squad's reports this round (0:
	// none yet).
	EnemyX, EnemyY float64
	Sightings      float64
	// Holds names the smart object the soldier's running step holds
	// ("crate3", "medic_blue"), "" for none.
	Holds string
	// Claims lists the objects held now, each as "crate3 by blue2".
	Claims []string
}

// addObjects puts the round's smart objects in the world: a crate per
// crate of the map ("crate1", ..., in map order), its slots the magazines
// in it, and each team's medic ("medic_blue", "medic_red"), MedicSlots
// slots while it has supply left. A soldier claims the nearest of its own
// half's crates and its own team's medic (World.ObjectCost: the others
// cost +Inf).
func (s *Sim) addObjects() {
	s.crateObjs = s.crateObjs[:0]
	for i, c := range s.Crates {
		o := &engine.Object{Name: fmt.Sprintf("crate%d", i+1), Kind: "crate", Slots: c.Stock, Data: i}
		s.crateObjs = append(s.crateObjs, o)
		_ = s.World.AddObject(o) // new names in a new world
	}
	for team := range 2 {
		o := &engine.Object{Name: "medic_" + teamNames[team], Kind: "medic", Slots: MedicSlots, Data: team}
		s.medics[team] = o
		_ = s.World.AddObject(o)
	}
	s.World.ObjectCost = s.objectCost
}

// objectCost is a soldier's cost of claiming o: the distance to it, +Inf
// for a crate on the enemy's half or the enemy's medic.
func (s *Sim) objectCost(a *engine.Agent, o *engine.Object) float64 {
	so, ok := a.Data.(*Soldier)
	if !ok {
		return math.Inf(1)
	}
	switch i := o.Data.(type) {
	case int:
		if o.Kind == "medic" {
			if i != so.Team {
				return math.Inf(1)
			}
			r := s.Rallies[i]
			return dist(so.X, so.Y, r.X, r.Y)
		}
		c := s.Crates[i]
		if (c.X < s.Field.Width()/2) != (so.Team == 0) {
			return math.Inf(1)
		}
		return dist(so.X, so.Y, c.X, c.Y)
	}
	return math.Inf(1)
}

// syncObjects gives every object the slots it offers now: a crate one per
// magazine in it, a medic MedicSlots while it has supply, else none. A
// soldier's fetchMagazine holds its crate until it is back from it, so no
// two soldiers walk to a crate for one magazine (a holder on its way back
// keeps its slot though it has its magazine: a crate's last magazine can
// wait a moment for the next soldier). The Sim ticks
// its world on one goroutine (Workers 0), so take_magazine calls it at
// once: the claims at the end of a tick see the crates as they are.
func (s *Sim) syncObjects() {
	for i, o := range s.crateObjs {
		o.Slots = s.Crates[i].Stock
	}
	for team, o := range s.medics {
		if o == nil {
			continue
		}
		o.Slots = 0
		if s.Medic[team] > 0 {
			o.Slots = MedicSlots
		}
	}
}

// heldCrate returns the index of the crate so's running step holds, or -1.
func (s *Sim) heldCrate(so *Soldier) int {
	if o := so.Agent.Holds(); o != nil && o.Kind == "crate" {
		if i, ok := o.Data.(int); ok {
			return i
		}
	}
	return -1
}

// unclaimed is the magazines of crate i that no soldier holding it waits
// for: what a soldier that does not hold it may take.
func (s *Sim) unclaimed(i int) int {
	return s.Crates[i].Stock - len(s.crateObjs[i].Holders())
}

// makeSquads puts each team's soldiers in a group of the world, "blue"
// and "red", when the role declares squad variables (its squad table).
func (s *Sim) makeSquads() error {
	spec := engine.GroupSpecOf(s.Domain, "squad")
	if len(spec.Vars) == 0 {
		return nil
	}
	for team := range 2 {
		g, err := s.World.NewGroup(teamNames[team], spec)
		if err != nil {
			return err
		}
		for _, so := range s.Soldiers {
			if so.Team == team {
				if err := g.Join(so.Agent); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Coordination returns what so's squad knows and the claims of the
// world's smart objects now.
func (s *Sim) Coordination(so *Soldier) Coordination {
	var c Coordination
	if g := s.World.Group(teamNames[so.Team]); g != nil {
		c.EnemyX, _ = g.Get("enemy_x").AsNumber()
		c.EnemyY, _ = g.Get("enemy_y").AsNumber()
		c.Sightings, _ = g.Get("sightings").AsNumber()
	}
	if o := so.Agent.Holds(); o != nil && !so.Dead {
		c.Holds = o.Name
	}
	for _, o := range s.World.Objects() {
		for _, a := range o.Holders() {
			c.Claims = append(c.Claims, o.Name+" by "+a.Name)
		}
	}
	return c
}

// objectAt is npc:object_at(name): x, y of the smart object of that name
// (a crate, or a team's rally point for its medic); nothing for an
// unknown name, such as nil when the step holds nothing.
func (s *Sim) objectAt(c *luabind.HostCall) (bool, error) {
	c.Results = nil
	name := ""
	if len(c.Args) > 0 {
		name, _ = c.Args[0].AsString()
	}
	o := s.World.Object(name)
	if o == nil {
		return true, nil
	}
	x, y := 0.0, 0.0
	if o.Kind == "medic" {
		r := s.Rallies[o.Data.(int)]
		x, y = r.X, r.Y
	} else {
		cr := s.Crates[o.Data.(int)]
		x, y = cr.X, cr.Y
	}
	c.Results = []expr.Value{expr.NumberValue(x), expr.NumberValue(y)}
	return true, nil
}

// targetAt is npc:target_at(): x, y of the enemy the soldier aims at, or
// nothing when it has no target.
func (s *Sim) targetAt(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	c.Results = nil
	if t := so.Target; t != nil && !t.Dead && !so.Dead {
		c.Results = []expr.Value{expr.NumberValue(t.X), expr.NumberValue(t.Y)}
	}
	return true, nil
}

// lookAt is npc:look_at(x, y, seconds): the soldier turns to look at
// (x, y) and keeps looking there for the seconds given (default 1) while
// it walks, unless it has a target to aim at. It is done at once.
func (s *Sim) lookAt(c *luabind.HostCall) (bool, error) {
	so, err := soldierOf(c)
	if err != nil {
		return true, err
	}
	secs := 1.0
	if len(c.Args) > 2 {
		xs, err := numbers(&luabind.HostCall{Args: c.Args[2:]}, "look_at", 1)
		if err != nil {
			return true, err
		}
		secs = xs[0]
	}
	xy, err := numbers(c, "look_at", 2)
	if err != nil {
		return true, err
	}
	if !so.Dead {
		so.lookX, so.lookY, so.lookUntil = xy[0], xy[1], s.World.Time+secs
		s.keepLooking(so)
	}
	return true, nil
}

// keepLooking turns so toward where look_at asked it to look, while that
// lasts (walk calls it after each step).
func (s *Sim) keepLooking(so *Soldier) {
	if s.World.Time < so.lookUntil && dist(so.X, so.Y, so.lookX, so.lookY) > 1e-9 {
		so.Facing = math.Atan2(so.lookY-so.Y, so.lookX-so.X)
	}
}

// coordinationRecord writes RecordLine's words for a start record (the
// action and the smart object its step holds) and a group-write record
// (the squad variable, its value and the group).
func coordinationRecord(b *strings.Builder, e record.Event) {
	if e.Kind == record.EventGroupWrite {
		fmt.Fprintf(b, " %s=%s to %s", e.Belief, e.Value, e.Peer)
		return
	}
	b.WriteString(" " + e.Action)
	if e.Peer != "" {
		b.WriteString(" " + e.Peer)
	}
}

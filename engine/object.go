package engine

import (
	"math"
	"slices"
	"strconv"
)

// Object is a smart object of a World: something in the game (a crate, a
// medic, a microwave) of a kind that actions use, with a number of slots
// that agents claim. An action whose Uses names the kind is planned only
// while an object of that kind has a slot the agent may claim (a free
// one, or the one it holds). When the step of such an action starts, the
// agent claims a slot of the cheapest such object (World.ObjectCost; ties
// go to the object added first), and it holds the slot until the step
// ends: finished, failed or interrupted, or the agent is removed from the
// world (as when it moves to another world).
//
// Claims take effect at the end of the tick, on the caller's goroutine, in
// order of agent ID, so they do not depend on workers: within a tick every
// agent sees the claims as they were when the tick began. When more agents
// started a step on an object in one tick than it has free slots, the
// lowest IDs get them, and the others' steps are interrupted with a reason
// that names who holds the object; they plan again around it. A release
// also takes effect at the end of the tick, and agents that found no plan
// decide again then.
//
// An agent ticked outside a World (Agent.Tick alone) has no objects to
// claim: its actions that use objects are planned and run as any other.
//
// An Object is not safe for concurrent use: change it between ticks.
type Object struct {
	Name string // unique in its world
	Kind string // what actions name in Uses
	// Slots is how many agents may hold the object at once. Zero (or
	// less) offers nothing: the object has run out, until the game gives
	// it slots again.
	Slots int
	// Data is the game's (a position, the magazines left, ...); the
	// engine never reads it. Snapshots do not save it.
	Data    any
	holders []*Agent // in order of agent ID
	world   *World
}

// Holders returns the agents holding a slot of the object, in order of
// agent ID, in a new slice.
func (o *Object) Holders() []*Agent { return slices.Clone(o.holders) }

// free reports whether agent a may claim a slot of o: o has a free slot,
// or a holds one already.
func (o *Object) free(a *Agent) bool {
	return len(o.holders) < o.Slots || slices.Contains(o.holders, a)
}

// cost is what claiming o costs agent a (World.ObjectCost, or 0 without
// it); +Inf (or NaN) means a may not claim o at all.
func (o *Object) cost(a *Agent) float64 {
	if o.world == nil || o.world.ObjectCost == nil {
		return 0
	}
	c := o.world.ObjectCost(a, o)
	if math.IsNaN(c) {
		return math.Inf(1)
	}
	return c
}

// AddObject adds a smart object to the world. Its name must be new in
// the world and its kind not empty; either is an error. Call it between
// ticks.
func (w *World) AddObject(o *Object) error {
	switch {
	case o.Name == "" || o.Kind == "":
		return newError("AddObject: an object needs a name and a kind")
	case w.Object(o.Name) != nil:
		return newError("AddObject " + o.Name + ": the world has an object of that name")
	case o.world != nil:
		return newError("AddObject " + o.Name + ": the object is in a world already")
	}
	o.world = w
	w.objects = append(w.objects, o)
	return nil
}

// RemoveObject takes an object out of the world: the steps holding it go
// on, but hold nothing, and no plan uses it any more. It reports whether
// the object was in the world. Call it between ticks.
func (w *World) RemoveObject(o *Object) bool {
	i := slices.Index(w.objects, o)
	if i < 0 {
		return false
	}
	w.objects = slices.Delete(w.objects, i, i+1)
	for _, a := range o.holders {
		a.holds = nil
	}
	o.holders, o.world = nil, nil
	w.wakeUsers()
	return true
}

// Object returns the world's object of that name, or nil.
func (w *World) Object(name string) *Object {
	for _, o := range w.objects {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Objects returns the world's objects in the order added. The slice is
// the world's: do not modify it.
func (w *World) Objects() []*Object { return w.objects }

// Holds returns the smart object the agent's running step holds or has
// claimed this tick, or nil.
func (a *Agent) Holds() *Object { return a.holds }

// usable reports whether the agent may claim an object of kind now, and
// when not, why (for the plan's failure reason).
func (a *Agent) usable(kind string) (bool, string) {
	w := a.world
	if w == nil {
		return false, "the agent is in no world, which holds the objects"
	}
	var taken *Object
	n, barred, out := 0, 0, 0
	for _, o := range w.objects {
		if o.Kind != kind {
			continue
		}
		if math.IsInf(o.cost(a), 1) {
			barred++ // World.ObjectCost keeps the agent away from it
			continue
		}
		n++
		if o.free(a) {
			return true, ""
		}
		if o.Slots <= 0 {
			out++
		}
		if taken == nil && len(o.holders) > 0 && o.Slots > 0 {
			taken = o
		}
	}
	switch {
	case n == 0 && barred > 0:
		return false, "no " + kind + " in the world is for " + a.Name + " (the world's ObjectCost is +Inf for each)"
	case n == 0:
		return false, "no " + kind + " is in the world"
	case taken == nil:
		return false, "every " + kind + " has run out (no slots)"
	case n-out == 1 && out > 0:
		return false, "the only " + kind + " with slots (" + taken.Name + ") is claimed by " + holderNames(taken) + ", the others have run out"
	case n == 1:
		return false, "the only " + kind + " (" + taken.Name + ") is claimed by " + holderNames(taken)
	}
	return false, "every " + kind + " is claimed (" + taken.Name + " by " + holderNames(taken) + ")"
}

func holderNames(o *Object) string {
	s := ""
	for i, a := range o.holders {
		if i > 0 {
			s += ", "
		}
		s += a.Name
	}
	return s
}

// claimFor picks the object a step of act claims: among the objects of
// its kind that a may claim, the cheapest by World.ObjectCost, the first
// added among equals. It returns nil and why when there is none.
func (a *Agent) claimFor(act *Action) (*Object, string) {
	w := a.world
	if w == nil {
		return nil, "the agent is in no world, which holds the objects"
	}
	var best *Object
	bestCost := 0.0
	for _, o := range w.objects {
		if o.Kind != act.Uses || !o.free(a) {
			continue
		}
		c := o.cost(a)
		if math.IsInf(c, 1) {
			continue
		}
		if best == nil || c < bestCost {
			best, bestCost = o, c
		}
	}
	if best == nil {
		_, why := a.usable(act.Uses)
		return nil, why
	}
	return best, ""
}

// unusable marks in mask (made from the agent's excl buffer when nil) the
// actions whose kind of object the agent may not claim now, and returns
// it.
func (a *Agent) unusable(mask []bool) []bool {
	if !a.Domain.usesObjects || a.world == nil {
		return mask // an agent ticked outside a world claims nothing
	}
	for _, act := range a.Domain.Actions {
		if act.Uses == "" {
			continue
		}
		if ok, _ := a.usable(act.Uses); ok {
			continue
		}
		if mask == nil {
			if cap(a.excl) < len(a.cooldown) {
				a.excl = make([]bool, len(a.cooldown))
			}
			mask = a.excl[:len(a.cooldown)]
			clear(mask)
		}
		mask[act.Index] = true
	}
	return mask
}

// syncObjects makes the tick's claims and releases (see Object): it runs
// at the end of World.Tick, on the caller's goroutine, after every lane.
func (w *World) syncObjects() {
	changed := false
	// Releases: a holder whose running step no longer holds the object.
	for _, o := range w.objects {
		kept := o.holders[:0]
		for _, a := range o.holders {
			if a.holds == o && a.world == w && a.running != nil && a.running.Uses == o.Kind {
				kept = append(kept, a)
				continue
			}
			if a.holds == o && !a.claimNew {
				a.holds = nil
			}
			changed = true
		}
		clear(o.holders[len(kept):])
		o.holders = kept
	}
	// Claims, in order of agent ID (Agents is in order of ID).
	for _, a := range w.Agents {
		o := a.holds
		if o == nil || !a.claimNew {
			continue
		}
		a.claimNew = false
		if a.running == nil || a.running.Uses != o.Kind || o.world != w {
			a.holds = nil // the step ended in the tick it started
			continue
		}
		if slices.Contains(o.holders, a) {
			continue
		}
		if len(o.holders) < o.Slots {
			o.holders = append(o.holders, a)
			changed = true
			continue
		}
		a.holds = nil
		a.interruptAfterTick(o.Kind + " " + o.Name + " was claimed by " + holderNames(o) +
			" in the same tick (its " + strconv.Itoa(o.Slots) + " slot(s) go to the lowest agent IDs)")
		w.flush(a)
	}
	if changed {
		w.wakeUsers()
	}
}

// wakeUsers makes the agents whose roles use objects decide again at
// their next tick: a slot may have come free.
func (w *World) wakeUsers() {
	for _, a := range w.Agents {
		if a.Domain.usesObjects {
			a.failedState = a.failedState[:0]
			a.idle = false
		}
	}
}

// interruptAfterTick interrupts the running step between ticks, its
// records made as in the tick that ended.
func (a *Agent) interruptAfterTick(reason string) {
	now := a.time
	if t, ok := a.clock.last(); ok {
		a.time = t
	}
	a.interrupt(reason)
	a.time = now
}

// claim notes at the start of act's step the object it claims (see
// Object); it reports false, with the step failed, when none is free.
func (a *Agent) claim(act *Action) bool {
	if act.Uses == "" || a.world == nil {
		a.holds = nil
		return true
	}
	o, why := a.claimFor(act)
	if o == nil {
		a.fail(act, newError("action \""+act.Name+"\" uses a "+act.Uses+": "+why))
		return false
	}
	a.holds, a.claimNew = o, !slices.Contains(o.holders, a)
	return true
}

// dropClaim releases the slot agent a holds, if any (World.Remove): an
// agent that leaves the world, also to move to another, holds nothing.
func (w *World) dropClaim(a *Agent) {
	o := a.holds
	if o == nil {
		return
	}
	a.holds, a.claimNew = nil, false
	if i := slices.Index(o.holders, a); i >= 0 {
		o.holders = slices.Delete(o.holders, i, i+1)
		w.wakeUsers()
	}
}

// objectWhy says why act, which uses a kind of smart object, is left out
// of plans now, or "" when the agent may claim such an object.
func (a *Agent) objectWhy(act *Action) string {
	if ok, why := a.usable(act.Uses); !ok {
		return why
	}
	return ""
}

package engine

import (
	"slices"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// GroupSpec declares a group's blackboard: the scope its members read it
// under and its variables with their initial values.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type GroupSpec struct {
	// Scope is the prefix of the members' state variables that mirror the
	// board: with Scope "squad", board variable enemy_seen is the member's
	// state variable "squad.enemy_seen", which its conditions,
	// considerations, guards and bodies read and write like any other.
	// It must not be empty; an agent belongs to at most one group of a
	// scope.
	Scope string
	// Vars are the board's variables, named without the scope, in
	// declaration order, with their initial values.
	Vars []Var
}

// GroupSpecOf returns the GroupSpec of scope that domain d declares: every
// state variable named "scope.something", in schema order, with its
// initial value. A game that loads its roles from scripts builds its
// groups from a member's domain this way.
func GroupSpecOf(d *Domain, scope string) GroupSpec {
	spec := GroupSpec{Scope: scope}
	prefix := scope + "."
	for i, name := range d.Schema.Names() {
		if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" {
			spec.Vars = append(spec.Vars, Var{Name: rest, Value: d.Initial[i]})
		}
	}
	return spec
}

// Group is a set of agents of one World (a squad) sharing a blackboard of
// declared variables. Each member holds the board in its own state, under
// the group's scope ("squad.enemy_seen"), so the planners, conditions and
// bodies need nothing new to read it. When a member's tick writes one of
// these variables, the member sees its own write at once; at the end of
// the tick the world merges the writes into the board, member by member
// in order of agent ID (when two members write one variable in the same
// tick, the one with the higher ID wins), and gives every member the new
// value: from the next tick every member reads it, with any number of
// workers. A member that gets a value it did not have sees it as a belief
// event (from the group, by its name), so reactive plans can trigger on
// squad knowledge. The writer's own change is its own belief event, in
// its tick, as for any state it writes.
//
// Groups are saved by World.Snapshot with their members and restored with
// them. A Group is not safe for concurrent use: call its methods between
// ticks, on the goroutine that calls World.Tick.
type Group struct {
	name    string
	scope   string
	vars    []string   // board variable names, without the scope
	board   expr.State // the board's values, by index of vars
	before  expr.State // syncGroups's scratch: the board as every member was given it
	members []member   // in order of agent ID
	world   *World
}

// member is one agent of a group, with the slots of its state that hold
// the group's variables (by index of Group.vars).
type member struct {
	a     *Agent
	slots []int
}

// NewGroup adds a group to the world. Its name must be new in the world,
// its scope not empty, and its variable names new and not empty; each of
// these is an error naming what is wrong. Call it between ticks.
func (w *World) NewGroup(name string, spec GroupSpec) (*Group, error) {
	if name == "" {
		return nil, newError("NewGroup: the group has no name")
	}
	if w.Group(name) != nil {
		return nil, newError("NewGroup " + name + ": the world has a group of that name")
	}
	if spec.Scope == "" {
		return nil, newError("NewGroup " + name + ": GroupSpec.Scope is empty")
	}
	g := &Group{name: name, scope: spec.Scope, world: w}
	for _, v := range spec.Vars {
		if v.Name == "" || slices.Contains(g.vars, v.Name) {
			return nil, newError("NewGroup " + name + ": variable \"" + v.Name + "\" is empty or declared twice")
		}
		g.vars = append(g.vars, v.Name)
		g.board = append(g.board, v.Value)
	}
	w.groups = append(w.groups, g)
	return g, nil
}

// Group returns the world's group of that name, or nil.
func (w *World) Group(name string) *Group {
	for _, g := range w.groups {
		if g.name == name {
			return g
		}
	}
	return nil
}

// Groups returns the world's groups in the order they were made. The
// slice is the world's: do not modify it.
func (w *World) Groups() []*Group { return w.groups }

// RemoveGroup takes a group out of the world; its members keep the
// values their states hold. It reports whether the group was in the world.
func (w *World) RemoveGroup(g *Group) bool {
	i := slices.Index(w.groups, g)
	if i < 0 {
		return false
	}
	w.groups = slices.Delete(w.groups, i, i+1)
	g.members, g.world = nil, nil
	return true
}

// Name returns the group's name.
func (g *Group) Name() string { return g.name }

// Scope returns the prefix under which members read the board.
func (g *Group) Scope() string { return g.scope }

// Vars returns the board's variable names, without the scope, in
// declaration order. The slice is the group's: do not modify it.
func (g *Group) Vars() []string { return g.vars }

// Get returns a board variable by name, without the scope (Unknown when
// the board has no such variable).
func (g *Group) Get(name string) expr.Value {
	if i := slices.Index(g.vars, name); i >= 0 {
		return g.board[i]
	}
	return expr.Value{}
}

// Set writes a board variable from the game: the board and every member's
// state get the value at once, as a belief event for members that did not
// have it. An unknown variable is an error naming it. Call it between
// ticks.
func (g *Group) Set(name string, v expr.Value) error {
	i := slices.Index(g.vars, name)
	if i < 0 {
		return unknownName("group " + g.name + ": no variable \"" + name + "\"" + DidYouMean(name, g.vars))
	}
	g.board[i] = v
	for _, m := range g.members {
		m.give(i, v, g.name)
	}
	return nil
}

// Members returns the group's agents in order of agent ID, in a new slice.
func (g *Group) Members() []*Agent {
	out := make([]*Agent, len(g.members))
	for i, m := range g.members {
		out[i] = m.a
	}
	return out
}

// Join adds an agent of the group's world to the group: its state gets
// the board's values (a belief event for each it did not have). It is an
// error when the agent is in another world, already in a group of the
// same scope, or its domain lacks one of the board's variables under the
// scope (the message names the first missing one). Joining the group
// twice does nothing. Call it between ticks.
func (g *Group) Join(a *Agent) error {
	if g.world == nil || a.world != g.world {
		return newError("group " + g.name + ": agent " + a.Name + " is not in the group's world")
	}
	for _, o := range g.world.groups {
		if o.has(a) {
			if o == g {
				return nil
			}
			if o.scope == g.scope {
				return newError("group " + g.name + ": agent " + a.Name + " is in group " + o.name + " of the same scope \"" + g.scope + "\"")
			}
		}
	}
	m := member{a: a, slots: make([]int, len(g.vars))}
	for i, v := range g.vars {
		slot, ok := a.Domain.Schema.Lookup(g.scope + "." + v)
		if !ok {
			return unknownName("group " + g.name + ": agent " + a.Name + " has no state variable \"" + g.scope + "." + v +
				"\" (declare it in the agent's role)")
		}
		m.slots[i] = slot
	}
	at, _ := slices.BinarySearchFunc(g.members, a.ID, func(m member, id int) int { return m.a.ID - id })
	g.members = slices.Insert(g.members, at, m)
	for i, v := range g.board {
		m.give(i, v, g.name)
	}
	return nil
}

// Leave takes an agent out of the group; its state keeps the values it
// holds. It reports whether the agent was a member. World.Remove takes a
// removed agent out of all its groups.
func (g *Group) Leave(a *Agent) bool {
	for i, m := range g.members {
		if m.a == a {
			g.members = slices.Delete(g.members, i, i+1)
			return true
		}
	}
	return false
}

func (g *Group) has(a *Agent) bool {
	for _, m := range g.members {
		if m.a == a {
			return true
		}
	}
	return false
}

// give sets board variable i's slot of the member to v when it differs, as
// a belief told by the group.
func (m member) give(i int, v expr.Value, from string) {
	slot := m.slots[i]
	if old := m.a.State[slot]; old == v || old.Equal(v) {
		return
	}
	m.a.believe(slot, v, from)
}

// leaveGroups takes a out of every group of w (World.Remove).
func (w *World) leaveGroups(a *Agent) {
	for _, g := range w.groups {
		g.Leave(a)
	}
}

// syncGroups merges the tick's writes into every group's board and gives
// the new values to every member (see Group). It runs at the end of
// World.Tick, on the caller's goroutine, after every lane is done, so its
// order is that of the groups and of agent IDs, never of workers. A
// merged write is recorded on its writer (record.EventGroupWrite), and
// the writer's records are handed on at once.
func (w *World) syncGroups() {
	for _, g := range w.groups {
		changed := false
		g.before = append(g.before[:0], g.board...)
		for _, m := range g.members {
			wrote := false
			for i, slot := range m.slots {
				v := m.a.State[slot]
				if old := g.before[i]; old == v || old.Equal(v) {
					continue // not written: the member holds what it was given
				}
				g.board[i] = v
				changed, wrote = true, true
				if m.a.Recording() {
					m.a.emitAfterTick(record.Event{Kind: record.EventGroupWrite, Peer: g.name,
						Belief: g.scope + "." + g.vars[i], Value: shortValue(v)})
				}
			}
			if wrote {
				m.a.handOn = false
				w.flush(m.a)
			}
		}
		if !changed {
			continue
		}
		for _, m := range g.members {
			for i, v := range g.board {
				m.give(i, v, g.name)
			}
		}
	}
}

// emitAfterTick records e after the agent's tick, as made in that tick: with
// its tick number and the time the tick started, as the tick's own records.
func (a *Agent) emitAfterTick(e record.Event) {
	now := a.time
	if t, ok := a.clock.last(); ok {
		a.time = t
	}
	a.emit(e)
	a.time = now
}

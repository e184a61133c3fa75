package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// reach is what can ever happen in a role, read from its text alone: which
// state variables can ever hold another value than their initial one, and
// which actions can ever run. It is a least fixpoint over a relaxed
// reading: a variable can change when the game may write it, when a
// sensor, a reactive plan or a named condition writes it, or when an
// action that can run assigns it (by an effect or in its body); an action
// can run when its precondition holds in some state where the variables
// that can change take any value and the others keep their initial one.
//
// The game may write any variable the role itself never writes (the
// soldier's enemy_visible, set by a sensor written in Go); a variable the
// role writes only through actions is the role's own, and changes only
// when one of those actions runs. A relaxed reading claims no more than it
// can show: an action it says can never run cannot (short of the game
// writing a variable the role owns), while one it says can run may still
// never find its state.
type reach struct {
	d       *engine.Domain
	movable []bool // by slot: some reachable state holds another value
	canRun  []bool // by action index
	writers [][]*engine.Action
	// fed marks, by slot, the variables that change whatever the
	// actions do, for a reason the role's text shows: a sensor, a
	// reactive plan or a named condition writes it, or others write it
	// too (a squad variable, a fact).
	fed []bool
}

// tri is a three-valued truth: a condition that holds in no reachable
// state, in some, or in every one.
type tri uint8

const (
	never tri = iota
	maybe
	always
)

// reachOf reads d (and the sources of its Lua functions through sc) and
// computes its fixpoint.
func reachOf(d *engine.Domain, sc scans) *reach {
	n := d.Schema.Len()
	r := &reach{d: d, movable: make([]bool, n), canRun: make([]bool, len(d.Actions)), writers: make([][]*engine.Action, n)}
	all := false
	ownedByRole := make([]bool, n)
	bodies := make([][]string, len(d.Actions)) // by action index: what its body writes
	bodyAll := make([]bool, len(d.Actions))    // the body writes by computed names, or cannot be read
	for _, a := range d.Actions {
		for _, s := range a.Effects.Writes() {
			ownedByRole[s] = true
			r.writers[s] = append(r.writers[s], a)
		}
		t, ok := sc.entry(a.Pos, a.Name)
		bodyAll[a.Index] = t.Dynamic || !ok && a.Body != nil
		bodies[a.Index] = t.Writes
		for _, v := range t.Writes {
			if s, ok := d.Schema.Lookup(v); ok {
				ownedByRole[s] = true
				if !slices.Contains(r.writers[s], a) {
					r.writers[s] = append(r.writers[s], a)
				}
			}
		}
	}
	// Sensors, named conditions and reactive plans run whatever the
	// actions do: what they write can change from the start.
	r.fed = make([]bool, n)
	eachLuaEntry(d, sc, func(what string, _ engine.Pos, t luabind.Touches) {
		if strings.HasPrefix(what, "action ") {
			return
		}
		all = all || t.Dynamic
		for _, v := range t.Writes {
			if s, ok := d.Schema.Lookup(v); ok {
				r.fed[s] = true
			}
		}
	})
	for _, nc := range d.Conditions {
		r.fed[nc.Slot] = true // computed by its Lua test every tick
	}
	for s := range n {
		// Squad variables and facts are written by others too.
		if strings.Contains(d.Schema.Name(s), ".") {
			r.fed[s] = true
		}
		// What the role never writes is the game's to write.
		r.movable[s] = all || r.fed[s] || !ownedByRole[s]
	}
	// A worklist: an action is looked at again only when a variable its
	// precondition reads becomes movable, so a role of thousands of
	// chained actions is read in one pass over each.
	readers := make([][]*engine.Action, n) // by slot: the actions whose precondition reads it
	for _, a := range d.Actions {
		for _, s := range a.Pre.Reads() {
			readers[s] = append(readers[s], a)
		}
	}
	queue := slices.Clone(d.Actions)
	move := func(s int) {
		if !r.movable[s] {
			r.movable[s] = true
			queue = append(queue, readers[s]...)
		}
	}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		if r.canRun[a.Index] || r.holds(a.Pre) == never {
			continue
		}
		r.canRun[a.Index] = true
		for _, s := range a.Effects.Writes() {
			move(s)
		}
		for _, v := range bodies[a.Index] {
			if s, ok := d.Schema.Lookup(v); ok {
				move(s)
			}
		}
		if bodyAll[a.Index] {
			for s := range r.movable {
				move(s)
			}
		}
	}
	return r
}

// holds says whether c holds in no state the role can reach, in some, or
// in all of them.
func (r *reach) holds(c *expr.Condition) tri {
	if c.IsEmpty() {
		return always
	}
	// A variable missing from the state makes the whole condition false:
	// one that stays missing does so in every reachable state.
	for _, s := range c.Reads() {
		if !r.movable[s] && (s >= len(r.d.Initial) || !r.d.Initial[s].IsKnown()) {
			return never
		}
	}
	return r.node(c, c.Root())
}

func (r *reach) node(c *expr.Condition, n expr.Node) tri {
	touches := false
	for _, s := range n.Reads(nil) {
		touches = touches || r.movable[s]
	}
	if !touches {
		if n.Condition(c).Eval(r.d.Initial) {
			return always
		}
		return never
	}
	switch n.Op() {
	case expr.OpAnd:
		res := always
		for i := range n.NumKids() {
			switch r.node(c, n.Kid(i)) {
			case never:
				return never
			case maybe:
				res = maybe
			}
		}
		return res
	case expr.OpOr:
		res := never
		for i := range n.NumKids() {
			switch r.node(c, n.Kid(i)) {
			case always:
				return always
			case maybe:
				res = maybe
			}
		}
		return res
	case expr.OpNot:
		return always - r.node(c, n.Kid(0))
	}
	return maybe
}

// waitsForWorld reports whether the precondition of the action named
// name reads a variable that changes whatever the actions do (see fed).
func (r *reach) waitsForWorld(name string) bool {
	i := slices.IndexFunc(r.d.Actions, func(a *engine.Action) bool { return a.Name == name })
	if i < 0 {
		return false
	}
	return slices.ContainsFunc(r.d.Actions[i].Pre.Reads(), func(s int) bool { return r.fed[s] })
}

// causes returns the variables that keep action a from ever running:
// those its precondition reads that keep their initial value and would
// let it hold if they could change; all of the ones that keep their value
// when no single one would.
func (r *reach) causes(a *engine.Action) []int {
	var pinned, out []int
	for _, s := range a.Pre.Reads() {
		if r.movable[s] {
			continue
		}
		pinned = append(pinned, s)
		r.movable[s] = true
		if r.holds(a.Pre) != never {
			out = append(out, s)
		}
		r.movable[s] = false
	}
	if len(out) == 0 {
		return pinned
	}
	return out
}

// stuck describes why action a can never run: each variable of causes,
// its value and the actions that would change it.
func (r *reach) stuck(a *engine.Action, causes []int) string {
	var parts []string
	for _, s := range causes {
		name := r.d.Schema.Name(s)
		val := r.initial(s)
		var names []string
		self := false
		for _, w := range r.writers[s] {
			if w == a {
				self = true
				continue
			}
			names = append(names, fmt.Sprintf("%q", w.Name))
		}
		switch {
		case len(names) == 0 && self:
			parts = append(parts, fmt.Sprintf("%s stays %s, and only this action changes it", name, val))
		case len(names) == 0:
			parts = append(parts, fmt.Sprintf("%s stays %s", name, val))
		case len(names) == 1 && !self:
			parts = append(parts, fmt.Sprintf("%s stays %s, and only %s changes it, which can never run either", name, val, names[0]))
		default:
			if self {
				names = append(names, "this action")
			}
			parts = append(parts, fmt.Sprintf("%s stays %s, and only %s change it, none of which can ever run", name, val, joinWords(names, "and")))
		}
	}
	return strings.Join(parts, "; ")
}

// joinWords joins words as a sentence lists them: "a", "a and b",
// "a, b and c" (with "or" in place of "and" when asked).
func joinWords(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}

// deadAction is the finding on action a, which can never run, at its
// precondition.
func deadAction(d *engine.Domain, r *reach, a *engine.Action, fields fieldFinder) finding {
	causes := r.causes(a)
	var names []string
	for _, s := range causes {
		names = append(names, d.Schema.Name(s))
	}
	vars := joinWords(names, "or")
	return finding{fields.find(a.Pos, "pre"), "warning",
		fmt.Sprintf("action %q can never run: its precondition %q holds in no state the role can reach (%s): give %s a starting value that lets the chain begin, or change it in an action, a body or a sensor that does not need it (when the game sets it, name this finding in check_ignore)",
			a.Name, a.Pre.Source(), r.stuck(a, causes), vars), "dead-action:" + a.Name}
}

// unreachableGoal reports a goal that can stop holding (or never held)
// and that no action that can ever run is a candidate for: no chain of
// actions reaches it from any state the role can be in. "" when some
// candidate can run, when the goal has none at all (only the world makes
// it true), or when it holds for good. In this reading every such goal
// waits on a loop: the variables its actions need are changed only by
// actions that need them first.
func unreachableGoal(d *engine.Domain, r *reach, g *engine.Goal) string {
	hasCandidate := false
	for _, a := range d.Actions {
		if g.Candidate(a) {
			if r.canRun[a.Index] {
				return ""
			}
			hasCandidate = true
		}
	}
	if !hasCandidate || r.holds(g.Condition) == always {
		return ""
	}
	var names []string
	var vars []int
	for i, rel := range relevantTo(d, g) {
		if a := d.Actions[i]; rel && !r.canRun[i] {
			names = append(names, fmt.Sprintf("%q", a.Name))
			for _, s := range r.causes(a) {
				if !slices.Contains(vars, s) {
					vars = append(vars, s)
				}
			}
		}
	}
	var stays, varNames []string
	for _, s := range vars {
		varNames = append(varNames, r.d.Schema.Name(s))
		stays = append(stays, r.d.Schema.Name(s)+" stays "+r.initial(s))
	}
	return fmt.Sprintf("goal %q: no chain of actions reaches it from any state the role can be in: each action it needs (%s) waits for one of them to run first, so none can start (%s); give %s a starting value that lets the chain begin, or change it in an action, a body or a sensor that does not need it (when the game sets it, name this finding in check_ignore)",
		g.Name, joinWords(names, "and"), strings.Join(stays, ", "), joinWords(varNames, "or"))
}

// initial is the initial value of slot as a condition writes it, or
// "unknown".
func (r *reach) initial(s int) string {
	if s < len(r.d.Initial) && r.d.Initial[s].IsKnown() {
		return r.d.Initial[s].String()
	}
	return "unknown"
}

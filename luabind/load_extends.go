package luabind

import (
	"errors"
	"slices"
	"sort"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/perception"
	lua "github.com/yuin/gopher-lua"
)

// MaxExtendsDepth is the most roles one chain of extends may hold, the
// role itself and its root included. A deeper chain is refused at the
// extends that passes the limit.
const MaxExtendsDepth = 64

// parent reads the role named by extends: a module name whose file lies in
// the scripts folder ("squad.base" is squad/base.lua), else the name of a
// role this runtime loaded before. chain holds the files that extend it,
// the one naming it last. It returns nil when there is no parent to read
// (extends is not a string, which role reports).
func (rd *roleReader) parent(ext lua.LValue, chain []string) (*loadedRole, error) {
	name, ok := ext.(lua.LString)
	if !ok {
		return nil, nil // reported by role
	}
	at := rd.find(engine.Pos{File: rd.file, Line: 1, Col: 1}, `extends\s*=`)
	tooDeep := &engine.CompileError{Problems: []engine.Problem{{Pos: at,
		Msg: "role: extends \"" + string(name) + "\" makes a chain of more than " + itoa(MaxExtendsDepth) + " roles (luabind.MaxExtendsDepth)",
		Err: errors.New("extends chain too deep")}}}
	if len(chain) >= MaxExtendsDepth {
		return nil, tooDeep
	}
	if moduleName.MatchString(string(name)) {
		if p, err := rd.rt.ModulePath(string(name)); err == nil {
			lr, err := rd.rt.loadRole(p, chain)
			var cyc errExtendsCycle
			if errors.As(err, &cyc) {
				// Name the extends that closes the cycle, at its place.
				err = errors.New(at.String() + ": role: extends cycle: " + cyc.chain)
			}
			return lr, err
		}
	}
	if lr, ok := rd.rt.roles[string(name)]; ok {
		if len(chain)+lr.depth > MaxExtendsDepth {
			return nil, tooDeep
		}
		if rd.rt.reading != nil {
			rd.rt.reading[lr.path] = true
		}
		return lr, nil
	}
	known := make([]string, 0, len(rd.rt.roles))
	for n := range rd.rt.roles {
		known = append(known, n)
	}
	sort.Strings(known)
	return nil, &engine.CompileError{Problems: []engine.Problem{{Pos: at,
		Msg: "role: extends \"" + string(name) + "\" names no module in the scripts folder and no role loaded before" + didYouMean(string(name), known),
		Err: errors.New("unknown parent role")}}}
}

// spec is the role with its parents' merged in, as a subclass over its
// bases: each file's state variables, goals, actions, sensors and
// conditions replace its parent's of the same name in place, and its new
// ones follow the parent's, in declaration order. Each file's name and
// file are its own; decide mode, utility mode, role-level
// considerations (a list that replaces the parent's), think rates (lod)
// and memory settings are the nearest file's that sets them. It merges
// the whole chain in one pass, in time linear in what the files declare.
func (lr *loadedRole) spec() engine.RoleSpec {
	out := lr.own
	if !lr.extends {
		return out
	}
	var levels []*loadedRole // root first
	for l := lr; l != nil; l = l.parent {
		levels = append(levels, l)
		if out.Decide == "" {
			out.Decide = l.own.Decide
		}
		if out.UtilityMode == "" {
			out.UtilityMode = l.own.UtilityMode
		}
		if len(out.Considerations) == 0 {
			out.Considerations = l.own.Considerations
		}
		if out.ThinkRates == nil {
			out.ThinkRates = l.own.ThinkRates
		}
		if out.Memory == (perception.Spec{}) {
			out.Memory = l.own.Memory
		}
	}
	slices.Reverse(levels)
	var (
		state      = byName[engine.Var]{name: func(v engine.Var) string { return v.Name }}
		goals      = byName[engine.GoalSpec]{name: func(g engine.GoalSpec) string { return g.Name }}
		actions    = byName[engine.ActionSpec]{name: func(a engine.ActionSpec) string { return a.Name }}
		sensors    = byName[engine.SensorSpec]{name: func(s engine.SensorSpec) string { return s.Name }}
		conditions = byName[engine.ConditionSpec]{name: func(c engine.ConditionSpec) string { return c.Name }}
	)
	for i, l := range levels {
		// A root without extends is taken as it is written; every file
		// that names a parent is merged over it (or over nothing, when
		// its parent failed to load).
		verbatim := i == 0 && !l.extends
		state.add(l.own.State, verbatim)
		goals.add(l.own.Goals, verbatim)
		actions.add(l.own.Actions, verbatim)
		sensors.add(l.own.Sensors, verbatim)
		conditions.add(l.own.Conditions, verbatim)
	}
	out.State, out.Goals, out.Actions, out.Sensors, out.Conditions = state.out, goals.out, actions.out, sensors.out, conditions.out
	return out
}

// byName merges lists of named things, a child's over its parent's.
type byName[T any] struct {
	out   []T
	index map[string]int
	name  func(T) string
}

// add merges xs over what is there: a thing with a name already there
// replaces it in place, a new one follows. verbatim appends xs as they
// are, names repeated or not (a root's own list).
func (m *byName[T]) add(xs []T, verbatim bool) {
	if m.index == nil {
		m.index = make(map[string]int, len(xs))
	}
	for _, x := range xs {
		n := m.name(x)
		if i, ok := m.index[n]; ok && !verbatim {
			m.out[i] = x
			continue
		}
		m.index[n] = len(m.out)
		m.out = append(m.out, x)
	}
}

// errExtendsCycle is a role that extends itself through its parents; the
// reader of the extends that closes the cycle gives it a position.
type errExtendsCycle struct{ chain string }

func (e errExtendsCycle) Error() string { return "luabind: extends cycle: " + e.chain }

package luabind

import (
	"errors"
	"sort"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// parent reads the role named by extends: a module name whose file lies in
// the scripts folder ("squad.base" is squad/base.lua), else the name of a
// role this runtime loaded before.
func (rd *roleReader) parent(ext lua.LValue, chain []string) (engine.RoleSpec, error) {
	name, ok := ext.(lua.LString)
	if !ok {
		return engine.RoleSpec{}, nil // reported by role
	}
	at := rd.find(engine.Pos{File: rd.file, Line: 1, Col: 1}, `extends\s*=`)
	if moduleName.MatchString(string(name)) {
		if p, err := rd.rt.ModulePath(string(name)); err == nil {
			spec, err := rd.rt.loadRole(p, chain)
			var cyc errExtendsCycle
			if errors.As(err, &cyc) {
				// Name the extends that closes the cycle, at its place.
				err = errors.New(at.String() + ": role: extends cycle: " + cyc.chain)
			}
			return spec, err
		}
	}
	if lr, ok := rd.rt.roles[string(name)]; ok {
		if rd.rt.reading != nil {
			rd.rt.reading[lr.path] = true
		}
		return lr.spec, nil
	}
	known := make([]string, 0, len(rd.rt.roles))
	for n := range rd.rt.roles {
		known = append(known, n)
	}
	sort.Strings(known)
	return engine.RoleSpec{}, &engine.CompileError{Problems: []engine.Problem{{Pos: at,
		Msg: "role: extends \"" + string(name) + "\" names no module in the scripts folder and no role loaded before" + didYouMean(string(name), known),
		Err: errors.New("unknown parent role")}}}
}

// mergeRoles returns child over parent, as a subclass over its base: the
// child's state variables, goals, actions, sensors and conditions replace
// the parent's of the same name in place; the child's new ones follow the
// parent's, in declaration order. The child's name and file are kept; its
// decide mode, utility mode and role-level considerations (a list that
// replaces the parent's) win when it sets them.
func mergeRoles(parent, child engine.RoleSpec) engine.RoleSpec {
	out := child
	if out.Decide == "" {
		out.Decide = parent.Decide
	}
	if out.UtilityMode == "" {
		out.UtilityMode = parent.UtilityMode
	}
	if len(out.Considerations) == 0 {
		out.Considerations = parent.Considerations
	}
	out.State = mergeByName(parent.State, child.State, func(v engine.Var) string { return v.Name })
	out.Goals = mergeByName(parent.Goals, child.Goals, func(g engine.GoalSpec) string { return g.Name })
	out.Actions = mergeByName(parent.Actions, child.Actions, func(a engine.ActionSpec) string { return a.Name })
	out.Sensors = mergeByName(parent.Sensors, child.Sensors, func(s engine.SensorSpec) string { return s.Name })
	out.Conditions = mergeByName(parent.Conditions, child.Conditions, func(c engine.ConditionSpec) string { return c.Name })
	return out
}

func mergeByName[T any](parent, child []T, name func(T) string) []T {
	out := append([]T(nil), parent...)
	index := make(map[string]int, len(out))
	for i, x := range out {
		index[name(x)] = i
	}
	for _, x := range child {
		if i, ok := index[name(x)]; ok {
			out[i] = x
			continue
		}
		index[name(x)] = len(out)
		out = append(out, x)
	}
	return out
}

// errExtendsCycle is a role that extends itself through its parents; the
// reader of the extends that closes the cycle gives it a position.
type errExtendsCycle struct{ chain string }

func (e errExtendsCycle) Error() string { return "luabind: extends cycle: " + e.chain }

package luabind

import (
	"errors"
	"regexp"
	"sort"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// unique reports whether name is new in seen, and reports a duplicate
// declaration otherwise.
func (rd *roleReader) unique(seen map[string]engine.Pos, kind, name string, pos engine.Pos) bool {
	if name == "" {
		return true
	}
	if first, ok := seen[name]; ok {
		rd.add(pos, kind+" \""+name+"\" is declared twice (first at line "+itoa(first.Line)+")")
		return false
	}
	seen[name] = pos
	return true
}

// after returns where the search for the next declaration of a list
// starts: just past decl, when decl was found after from.
func after(from, decl engine.Pos) engine.Pos {
	if decl.Line > from.Line || (decl.Line == from.Line && decl.Col > from.Col) {
		decl.Col++
		return decl
	}
	return from
}

// sensors reads sensors = { { name = "see", every = 0.2, run = function(npc, dt) ... end }, ... }.
func (rd *roleReader) sensors(t *lua.LTable, top engine.Pos) []engine.SensorSpec {
	at := rd.find(top, `sensors\s*=`)
	seen := map[string]engine.Pos{}
	var out []engine.SensorSpec
	for i, st := range rd.list(t, "sensors", top) {
		name, pos, what := rd.entry(st, "sensor", sensorKeys, i, at)
		at = after(at, pos)
		spec := engine.SensorSpec{Name: name, Pos: pos, Every: rd.num(st, "every", what, pos)}
		if spec.Every < 0 {
			rd.add(rd.find(pos, `every\s*=`), what+": every must be a period in seconds >= 0")
		}
		switch f := st.RawGetString("run").(type) {
		case *lua.LFunction:
			spec.Run = rd.rt.sensorFunc(name, f)
		default:
			rd.add(rd.find(pos, `run\s*=`), what+": run must be a function(npc, dt), not "+f.Type().String())
			continue
		}
		if rd.unique(seen, "sensor", name, pos) {
			out = append(out, spec)
		}
	}
	return out
}

// conditions reads conditions = { name = function(npc) ... end, ... } (in
// name order) or a list of { name = ..., test = function(npc) ... end }
// (in declaration order).
func (rd *roleReader) conditions(t *lua.LTable, top engine.Pos) []engine.ConditionSpec {
	at := rd.find(top, `conditions\s*=`)
	v := t.RawGetString("conditions")
	ct, ok := v.(*lua.LTable)
	if v == lua.LNil {
		return nil
	}
	if !ok {
		rd.add(at, "role: conditions must be a table of name = function(npc), not "+v.Type().String())
		return nil
	}
	var out []engine.ConditionSpec
	if ct.Len() > 0 {
		seen := map[string]engine.Pos{}
		for i, c := range rd.list(t, "conditions", top) {
			name, pos, what := rd.entry(c, "condition", conditionKeys, i, at)
			at = after(at, pos)
			f, ok := c.RawGetString("test").(*lua.LFunction)
			if !ok {
				rd.add(rd.find(pos, `test\s*=`), what+": test must be a function(npc) returning a boolean, not "+c.RawGetString("test").Type().String())
				continue
			}
			if rd.unique(seen, "condition", name, pos) {
				out = append(out, engine.ConditionSpec{Name: name, Test: rd.rt.conditionFunc(name, f), Pos: pos})
			}
		}
		return out
	}
	ct.ForEach(func(k, v lua.LValue) {
		name, ok := k.(lua.LString)
		if !ok {
			rd.add(at, "conditions: keys must be condition names, not "+k.Type().String())
			return
		}
		pos := rd.find(at, regexp.QuoteMeta(string(name))+`\s*=`)
		f, ok := v.(*lua.LFunction)
		if !ok {
			rd.add(pos, "condition \""+string(name)+"\" must be a function(npc) returning a boolean, not "+v.Type().String())
			return
		}
		out = append(out, engine.ConditionSpec{Name: string(name), Test: rd.rt.conditionFunc(string(name), f), Pos: pos})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// sensorFunc makes a sensor's Run: fn(npc, dt) under the budget, with
// npc.state writable and npc:wait refused.
func (r *Runtime) sensorFunc(name string, fn *lua.LFunction) func(*engine.Agent, float64) error {
	return func(a *engine.Agent, dt float64) error {
		r.site = callSite{kind: siteSensor, name: name}
		_, err := r.call(a, modeSensor, fn, 0, r.npc(a), lua.LNumber(dt))
		return err
	}
}

// conditionFunc makes a named condition's Test: fn(npc) under the budget,
// with npc.state read-only. It must return a boolean (nil counts as
// false).
func (r *Runtime) conditionFunc(name string, fn *lua.LFunction) func(*engine.Agent) (bool, error) {
	return func(a *engine.Agent) (bool, error) {
		r.site = callSite{kind: siteCondition, name: name}
		rets, err := r.call(a, modeCondition, fn, 1, r.npc(a))
		if err != nil {
			return false, err
		}
		switch v := rets[0].(type) {
		case lua.LBool:
			return bool(v), nil
		case *lua.LNilType:
			return false, nil
		}
		// Located at the function's first line: the value it returned has
		// no line of its own.
		return false, errors.New(fn.Proto.SourceName + ":" + itoa(fn.Proto.LineDefined) + ": condition \"" + name + "\" returned a " +
			rets[0].Type().String() + ", not a boolean (return true or false)")
	}
}

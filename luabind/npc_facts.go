package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// npc.facts is the agent's blackboard of typed values (engine.Agent.Fact
// and SetFact): npc.facts.DraftSchedule reads the value of that type (a
// Lua table a body stored, a Go value the game stored, or nil), and
// npc.facts.DraftSchedule = value stores one, which also sets the type's
// boolean state variable (nil removes the value and sets it false). Only
// the domain's types (every action input and output) are keys. Bodies may
// write; conditions, sensors and considerations follow the same rules as
// for npc.state.

type factsProxy struct{ a *engine.Agent }

// goValue wraps a Go value that Lua cannot read, so a body can pass it on.
type goValue struct{ v any }

func (r *Runtime) facts(p *npcRef) *lua.LUserData {
	return r.proxy(&p.facts, factsProxy{p.a}, &r.fMeta, r.factsIndex, r.factsNewIndex)
}

// proxy returns *ud, made on first use: a userdata holding value whose
// metatable is *meta, made once per runtime with index and newIndex as
// __index and __newindex and protected from getmetatable. npc.facts and
// npc.squad are such proxies.
func (r *Runtime) proxy(ud **lua.LUserData, value any, meta **lua.LTable, index, newIndex lua.LGFunction) *lua.LUserData {
	if *ud != nil {
		return *ud
	}
	if *meta == nil {
		m := r.L.NewTable()
		m.RawSetString("__index", r.L.NewFunction(index))
		m.RawSetString("__newindex", r.L.NewFunction(newIndex))
		m.RawSetString("__metatable", lua.LString("protected"))
		*meta = m
	}
	*ud = r.L.NewUserData()
	(*ud).Value = value
	(*ud).Metatable = *meta
	return *ud
}

func (r *Runtime) checkFacts(L *lua.LState) *engine.Agent {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if p, ok := ud.Value.(factsProxy); ok {
			r.checkCurrent(L, p.a)
			return p.a
		}
	}
	L.ArgError(1, "npc.facts expected")
	return nil
}

func (r *Runtime) factsIndex(L *lua.LState) int {
	a := r.checkFacts(L)
	key := L.CheckString(2)
	if !a.Domain.IsType(key) {
		L.RaiseError("npc.facts.%s: no action has this type as input or output%s", key, didYouMean(key, a.Domain.Types()))
	}
	L.Push(r.toLuaFact(a.Fact(key)))
	return 1
}

func (r *Runtime) factsNewIndex(L *lua.LState) int {
	a := r.checkFacts(L)
	key := L.CheckString(2)
	if r.mode.readOnly() {
		L.RaiseError("npc.facts.%s: %s must not change facts", key, r.mode)
	}
	var v any
	switch x := L.Get(3).(type) {
	case *lua.LNilType:
	case *lua.LUserData:
		if g, ok := x.Value.(goValue); ok {
			v = g.v
		} else {
			v = x
		}
	default:
		v = x
	}
	if !a.SetFact(key, v) {
		L.RaiseError("npc.facts.%s: no action has this type as input or output%s", key, didYouMean(key, a.Domain.Types()))
	}
	return 0
}

// toLuaFact converts a blackboard value for Lua: Lua values as they are,
// state values and Go strings, numbers and booleans converted, anything
// else as an opaque userdata.
func (r *Runtime) toLuaFact(v any) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case lua.LValue:
		return x
	case expr.Value:
		return fromValue(x)
	case string:
		return lua.LString(x)
	case bool:
		return lua.LBool(x)
	case float64:
		return lua.LNumber(x)
	case int:
		return lua.LNumber(float64(x))
	}
	ud := r.L.NewUserData()
	ud.Value = goValue{v}
	return ud
}

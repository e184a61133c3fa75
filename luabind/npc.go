package luabind

import (
	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// The npc object a body receives is a userdata: npc.state reads and writes
// the agent's state, npc.name is the agent's name, and npc:wait(s) plus the
// host's methods are its methods. Its metatable is protected (__metatable),
// so scripts cannot replace it.

// prelude defines the yielding methods in Lua: a Go function cannot yield
// and later continue, so the loops that wait across ticks live here. Each
// resume passes the tick's dt (seconds) as the value of coroutine.yield().
const prelude = `
local methods, hoststart, hoststep = ...
local yield, select, type, error, tostring = coroutine.yield, select, type, error, tostring
local pack = function(...) return { n = select("#", ...), ... } end
local unpack = unpack

-- npc:wait(seconds): suspend the body until that much game time has passed.
function methods.wait(self, seconds)
  if type(seconds) ~= "number" then
    error("bad argument #1 to 'wait' (number expected, got " .. type(seconds) .. ")", 2)
  end
  local t = 0
  while t < seconds - 1e-9 do
    t = t + yield()
  end
end

-- npc:wait_until(fn): suspend the body until fn(npc) returns true.
function methods.wait_until(self, fn)
  if type(fn) ~= "function" then
    error("bad argument #1 to 'wait_until' (function expected, got " .. type(fn) .. ")", 2)
  end
  while not fn(self) do
    yield()
  end
end

-- Host methods: call the Go function once, then once per tick until done.
return function(name)
  return function(self, ...)
    local r = pack(hoststart(self, name, ...))
    while not r[1] do
      local dt = yield()
      r = pack(hoststep(r[2], dt))
    end
    return unpack(r, 2, r.n)
  end
end
`

type hostHandle struct {
	fn   HostFunc
	call HostCall
}

func (r *Runtime) initNPC() {
	L := r.L
	r.methods = L.NewTable()
	r.stMeta = L.NewTable()
	r.stMeta.RawSetString("__index", L.NewFunction(r.stateIndex))
	r.stMeta.RawSetString("__newindex", L.NewFunction(r.stateNewIndex))
	r.stMeta.RawSetString("__metatable", lua.LString("protected"))
	r.npcMeta = L.NewTable()
	r.npcMeta.RawSetString("__index", L.NewFunction(r.npcIndex))
	r.npcMeta.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("npc.%s: npc fields are read-only; write state through npc.state", L.CheckString(2))
		return 0
	}))
	r.npcMeta.RawSetString("__metatable", lua.LString("protected"))
	r.callMeta = L.NewTable()
	r.callMeta.RawSetString("__metatable", lua.LString("protected"))

	fn, err := L.LoadString(prelude)
	if err != nil {
		panic("luabind: prelude: " + err.Error()) // a bug in this package, not in a script
	}
	L.Push(fn)
	L.Push(r.methods)
	L.Push(L.NewFunction(r.hostStart))
	L.Push(L.NewFunction(r.hostStep))
	L.Call(3, 1)
	makeHost := L.Get(-1)
	L.Pop(1)
	for name := range r.opts.Host {
		L.Push(makeHost)
		L.Push(lua.LString(name))
		L.Call(1, 1)
		r.methods.RawSetString(name, L.Get(-1))
		L.Pop(1)
	}
}

// npc returns the npc userdata of an agent, made once per agent.
func (r *Runtime) npc(a *engine.Agent) *lua.LUserData {
	if ud, ok := r.npcs[a]; ok {
		return ud
	}
	ud := r.L.NewUserData()
	ud.Value = a
	ud.Metatable = r.npcMeta
	r.npcs[a] = ud
	return ud
}

// Forget drops the runtime's npc object for an agent that left the game.
func (r *Runtime) Forget(a *engine.Agent) { delete(r.npcs, a) }

func checkAgent(L *lua.LState, n int) *engine.Agent {
	ud, ok := L.Get(n).(*lua.LUserData)
	if ok {
		if a, ok := ud.Value.(*engine.Agent); ok {
			return a
		}
	}
	L.ArgError(n, "npc expected (call methods with a colon: npc:wait(1))")
	return nil
}

type stateProxy struct{ a *engine.Agent }

func (r *Runtime) npcIndex(L *lua.LState) int {
	a := checkAgent(L, 1)
	key := L.CheckString(2)
	switch key {
	case "state":
		ud := L.NewUserData()
		ud.Value = stateProxy{a}
		ud.Metatable = r.stMeta
		L.Push(ud)
	case "name":
		L.Push(lua.LString(a.Name))
	default:
		m := r.methods.RawGetString(key)
		if m == lua.LNil {
			L.RaiseError("npc has no field or method %q%s", key, didYouMean(key, r.methodNames()))
		}
		L.Push(m)
	}
	return 1
}

func (r *Runtime) methodNames() []string {
	names := []string{"state", "name"}
	r.methods.ForEach(func(k, _ lua.LValue) { names = append(names, k.String()) })
	return names
}

func checkState(L *lua.LState) *engine.Agent {
	ud, ok := L.Get(1).(*lua.LUserData)
	if ok {
		if p, ok := ud.Value.(stateProxy); ok {
			return p.a
		}
	}
	L.ArgError(1, "npc.state expected")
	return nil
}

func (r *Runtime) stateIndex(L *lua.LState) int {
	a := checkState(L)
	key := L.CheckString(2)
	if _, ok := a.Domain.Schema.Lookup(key); !ok {
		L.RaiseError("npc.state.%s: no such state variable%s", key, didYouMean(key, a.Domain.Schema.Names()))
	}
	L.Push(fromValue(a.Get(key)))
	return 1
}

func (r *Runtime) stateNewIndex(L *lua.LState) int {
	a := checkState(L)
	key := L.CheckString(2)
	v, err := toValue(L.Get(3))
	if err != nil {
		L.RaiseError("npc.state.%s: %s", key, err.Error())
	}
	if !a.Set(key, v) {
		L.RaiseError("npc.state.%s: no such state variable%s", key, didYouMean(key, a.Domain.Schema.Names()))
	}
	return 0
}

func didYouMean(name string, names []string) string {
	if s := engine.Suggest(name, names); s != "" {
		return " (did you mean \"" + s + "\"?)"
	}
	return ""
}

// hostStart(npc, name, ...) calls a host method for the first time. It
// returns true and the results when done, else false and a handle.
func (r *Runtime) hostStart(L *lua.LState) int {
	a := checkAgent(L, 1)
	name := L.CheckString(2)
	h := &hostHandle{fn: r.opts.Host[name], call: HostCall{Agent: a, Name: name, First: true}}
	for i := 3; i <= L.GetTop(); i++ {
		v, err := toValue(L.Get(i))
		if err != nil {
			L.ArgError(i-2, err.Error())
		}
		h.call.Args = append(h.call.Args, v)
	}
	return r.hostRun(L, h)
}

// hostStep(handle, dt) calls a waiting host method again.
func (r *Runtime) hostStep(L *lua.LState) int {
	ud := L.CheckUserData(1)
	h, ok := ud.Value.(*hostHandle)
	if !ok {
		L.ArgError(1, "host call handle expected")
	}
	h.call.First = false
	h.call.DT = float64(L.CheckNumber(2))
	return r.hostRun(L, h)
}

func (r *Runtime) hostRun(L *lua.LState, h *hostHandle) int {
	done, err := h.fn(&h.call)
	if err != nil {
		L.RaiseError("npc:%s: %s", h.call.Name, err.Error())
	}
	if !done {
		ud := L.NewUserData()
		ud.Value = h
		ud.Metatable = r.callMeta
		L.Push(lua.LFalse)
		L.Push(ud)
		return 2
	}
	L.Push(lua.LTrue)
	for _, v := range h.call.Results {
		L.Push(fromValue(v))
	}
	return 1 + len(h.call.Results)
}

package luabind

import (
	"fmt"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// The npc object a body receives is a userdata: npc.state reads and writes
// the agent's state, npc.name is the agent's name, and npc:wait(s) plus the
// host's methods are its methods. Its metatable is protected (__metatable),
// so scripts cannot replace it.

// prelude defines the yielding methods in Lua: a Go function cannot yield
// and later continue, so the loops that wait across ticks live here. Each
// resume passes the tick's dt (seconds) as the value of coroutine.yield().
const prelude = `
local methods, hoststart, inbody, SLEEP, HOST, raise, hoststartcolon, badseconds = ...
local yield, type = coroutine.yield, type

-- raise(msg) raises msg naming the script line that called the npc
-- method (scriptWhere), not this prelude's line.

-- npc:wait(seconds): suspend the body until that much game time has
-- passed. The engine counts the time in Go and does not resume the
-- coroutine until it has passed.
local function colon(self, name)
  if type(self) ~= "userdata" then
    raise("npc:" .. name .. " is a method: call it with a colon, npc:" .. name .. "(...), not npc." .. name .. "(...)")
  end
end

function methods.wait(self, seconds)
  colon(self, "wait")
  inbody("wait")
  if type(seconds) ~= "number" then
    raise("bad argument #1 to 'wait' (number expected, got " .. type(seconds) .. ")")
  end
  if seconds > 1e-9 then
    yield(SLEEP, seconds)
    return
  end
  if not (seconds >= 0) then
    badseconds(seconds) -- NaN or below 0: raises
  end
end

-- npc:wait_until(fn): suspend the body until fn(npc) returns true.
function methods.wait_until(self, fn)
  colon(self, "wait_until")
  inbody("wait_until", self)
  if type(fn) ~= "function" then
    raise("bad argument #1 to 'wait_until' (function expected, got " .. type(fn) .. ")")
  end
  while not fn(self) do
    yield()
  end
end

-- Host methods: call the Go function once; when it is not done, yield its
-- handle: the engine calls it again each tick, in Go, and resumes the body
-- with true and its results, or false and an error message.
local function resumed(ok, ...)
  if not ok then
    local msg = ...
    if type(msg) == "string" then raise(msg) end -- names the caller's line, in pcall too
    error(msg, 0)
  end
  return ...
end
local function started(done, ...)
  if done then return ... end
  return resumed(yield(HOST, (...)))
end
-- The second factory leaves the colon check to hoststartcolon, in Go,
-- which charges what colon costs here (see hostColonUnits).
return function(name)
  return function(self, ...)
    colon(self, name)
    return started(hoststart(self, name, ...))
  end
end, function(name)
  return function(self, ...)
    return started(hoststartcolon(self, name, ...))
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
	readOnly := L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("npc.%s: npc fields are read-only; write state through npc.state", L.CheckString(2))
		return 0
	})
	r.npcMeta.RawSetString("__newindex", readOnly)
	r.npcMeta.RawSetString("__metatable", lua.LString("protected"))
	r.fastMeta = L.NewTable()
	r.fastMeta.RawSetString("__newindex", readOnly)
	r.fastMeta.RawSetString("__metatable", lua.LString("protected"))
	compactStrings(r.fastMeta)
	r.fastMiss = L.NewTable()
	r.fastMiss.RawSetString("__index", L.NewFunction(r.fastNPCMiss))
	r.budget.fastMeta = r.fastMeta
	r.budget.npcMeta, r.budget.stateMeta = r.npcMeta, r.stMeta
	r.callMeta = L.NewTable()
	r.callMeta.RawSetString("__metatable", lua.LString("protected"))

	fn, err := L.Load(strings.NewReader(prelude), preludeName)
	if err != nil {
		panic("luabind: prelude: " + err.Error()) // a bug in this package, not in a script
	}
	r.sleepToken, r.hostToken = L.NewUserData(), L.NewUserData()
	r.sleepToken.Metatable, r.hostToken.Metatable = r.callMeta, r.callMeta
	L.Push(fn)
	L.Push(r.methods)
	L.Push(L.NewFunction(r.hostStart))
	L.Push(L.NewFunction(r.inBody))
	L.Push(r.sleepToken)
	L.Push(r.hostToken)
	L.Push(L.NewFunction(func(L *lua.LState) int {
		msg := L.CheckString(1)
		where := scriptWhere(L) // as preludeError
		if where == "" && r.running != nil {
			// A pcall worker resumed by the task (a host call that failed
			// over ticks, called by pcall itself) has no script frame and
			// no script parent: the body's coroutine names the pcall line.
			where = scriptWhere(r.running)
		}
		L.Error(lua.LString(where+msg), 0)
		return 0
	}))
	L.Push(L.NewFunction(r.hostStartColon))
	L.Push(L.NewFunction(func(L *lua.LState) int {
		preludeError(L, "%s", badSeconds(L.CheckNumber(1)))
		return 0
	}))
	L.Call(8, 2)
	makeHost := L.Get(-1)
	if testHooks.luaHost {
		makeHost = L.Get(-2)
	}
	L.Pop(2)
	if !testHooks.luaWait {
		r.methods.RawSetString("wait", L.NewFunction(r.goWait))
	}
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
	st := r.L.NewUserData()
	st.Value = stateProxy{a}
	st.Metatable = r.stMeta
	ud := r.L.NewUserData()
	ud.Value = &npcRef{a: a, state: st}
	ud.Metatable = r.npcMeta
	r.npcs[a] = ud
	return ud
}

// npcRef is the value of an npc userdata.
type npcRef struct {
	a     *engine.Agent
	state *lua.LUserData // npc.state, made once
	facts *lua.LUserData // npc.facts, made on first use
	squad *lua.LUserData // npc.squad, made on first use
}

// Forget drops the runtime's npc object for an agent that left the game
// (call it after engine.World.Remove). The object holds the agent, and so
// its state, recorder and running body: an agent removed without Forget
// stays in memory as long as the runtime.
func (r *Runtime) Forget(a *engine.Agent) {
	delete(r.npcs, a)
	delete(r.bdi.work, a)
	delete(r.ids, a)
}

func (r *Runtime) checkNPC(L *lua.LState, n int) *npcRef {
	ud, ok := L.Get(n).(*lua.LUserData)
	if ok {
		if p, ok := ud.Value.(*npcRef); ok {
			r.checkCurrent(L, p.a)
			return p
		}
	}
	L.ArgError(n, "npc expected (call methods with a colon: npc:wait(1))")
	return nil
}

func (r *Runtime) checkAgent(L *lua.LState, n int) *engine.Agent { return r.checkNPC(L, n).a }

// checkCurrent refuses an npc object used outside its own agent's body or
// callbacks: a script that kept another agent's npc (in a shared upvalue or
// module table) cannot read or change that agent through it.
func (r *Runtime) checkCurrent(L *lua.LState, a *engine.Agent) {
	if r.current != a {
		L.RaiseError("%s", r.notCurrent(a))
	}
}

// notCurrent is checkCurrent's message for the npc of agent a, used while
// r.current runs.
func (r *Runtime) notCurrent(a *engine.Agent) string {
	if r.current == nil {
		return fmt.Sprintf("npc %q used outside its agent's action body, sensor or condition", a.Name)
	}
	return fmt.Sprintf("npc %q used while agent %q runs: an npc object belongs to its own agent", a.Name, r.current.Name)
}

// preludeError raises an error for a Go function the npc method wrapper
// (the prelude) calls: the message names the script line that called the
// method (scriptWhere), as an error raised in the script itself would,
// where L.RaiseError would name the prelude's line.
func preludeError(L *lua.LState, format string, args ...any) {
	L.Error(lua.LString(scriptWhere(L)+fmt.Sprintf(format, args...)), 0)
}

// inBody("wait", self) raises an error unless an action body is running:
// only a body is a coroutine the engine resumes each tick; with self, it
// also refuses an npc object that is not the running agent's (another
// agent's, kept in a shared table), as checkCurrent does.
func (r *Runtime) inBody(L *lua.LState) int {
	if r.mode != modeBody {
		// Level 2 is the script that called npc:wait (level 1 is the prelude).
		L.Error(lua.LString(L.Where(2)+" npc:"+L.CheckString(1)+" can only be called in an action body (run), not in "+r.mode.String()), 0)
	}
	if L.GetTop() >= 2 {
		if self := L.Get(2); self != lua.LValue(r.fast) {
			if other := r.foreignNPC(self); other != nil {
				preludeError(L, "%s", r.notCurrent(other))
			}
		}
	}
	return 0
}

// foreignNPC returns the agent of v when v is an npc object that is not
// the running agent's (another agent's, kept in a shared table), else
// nil: the test npc:wait and npc:wait_until make of their self, whose
// message is notCurrent's, as checkCurrent's is.
func (r *Runtime) foreignNPC(v lua.LValue) *engine.Agent {
	if ud, ok := v.(*lua.LUserData); ok {
		if p, ok := ud.Value.(*npcRef); ok && p.a != r.current {
			return p.a
		}
	}
	return nil
}

type stateProxy struct{ a *engine.Agent }

func (r *Runtime) npcIndex(L *lua.LState) int {
	r.budget.fastAgain()
	p := r.checkNPC(L, 1)
	key := L.CheckString(2)
	// Every lookup is a Go call, a method's (local f = npc.wait) as much
	// as a field's: each is charged alike, so a loop of bare lookups
	// spends its budget in about the time a plain loop does.
	r.charge(L, accessUnits)
	r.npcField(L, p, key)
	return 1
}

// npcField pushes npc[key] of p: its state, facts or name, or a method;
// an unknown key raises an error naming the methods there are.
func (r *Runtime) npcField(L *lua.LState, p *npcRef, key string) {
	a := p.a
	switch key {
	case "state":
		L.Push(p.state)
	case "facts":
		L.Push(r.facts(p))
	case "squad":
		L.Push(r.squad(p))
	case "holds":
		if o := a.Holds(); o != nil {
			L.Push(lua.LString(o.Name))
		} else {
			L.Push(lua.LNil)
		}
	case "name":
		L.Push(lua.LString(a.Name))
	default:
		m := r.methods.RawGetString(key)
		if m == lua.LNil {
			L.RaiseError("npc has no field or method %q%s%s", key, didYouMean(key, r.methodNames()), r.hostList())
		}
		L.Push(m)
	}
}

// The npc object of the agent whose body runs is fast: while its
// coroutine is resumed, its metatable is fastMeta, whose __index is a
// table (fastIndex) holding npc.state of that agent and every method, so
// npc.state, npc:wait and npc:shoot resolve by a plain table lookup, not
// a Go call. Every other npc object keeps npcMeta, whose Go __index
// refuses it while another agent runs (checkCurrent); at most one npc is
// fast, always the current agent's (begin puts it back before another
// agent's code runs). The budget charges each lookup on the fast npc the
// accessUnits npcIndex charges (budget.done reads the instruction), so a
// loop of bare lookups spends its budget as fast as before (a lookup that
// reaches the fast npc through another table's __index, setmetatable(t,
// {__index = npc}), is a plain table lookup now and costs no more than
// one; before, it was a Go call charged accessUnits). Keys
// fastIndex lacks (npc.name, npc.facts, a mistyped method) reach
// fastNPCMiss, which answers as npcIndex does and, for a lookup that came
// through another table's __index, charges accessUnits as npcIndex does.

// promote makes ud, the npc object of the agent about to run, the fast
// one. It does nothing when the budget cannot see the lookups (peeking is
// off).
func (r *Runtime) promote(ud *lua.LUserData) {
	if r.fast == ud || !luavm.OK() || testHooks.slowNPC {
		return
	}
	p, ok := ud.Value.(*npcRef)
	if !ok || p.a != r.current {
		return
	}
	r.demote()
	if r.fastIndex == nil {
		r.fastIndex = r.L.NewTable()
		r.methods.ForEach(func(k, v lua.LValue) {
			switch k {
			case lua.LString("state"), lua.LString("facts"), lua.LString("squad"), lua.LString("holds"), lua.LString("name"):
				// npcIndex answers these before the methods
			default:
				r.fastIndex.RawSet(k, v)
			}
		})
		r.fastIndex.Metatable = r.fastMiss
		r.fastMeta.RawSetString("__index", r.fastIndex)
		r.fastIndex.RawSetString("state", p.state)
	}
	// The key is there (above), so only its value is written.
	replaceString(r.fastIndex, "state", p.state)
	ud.Metatable = r.fastMeta
	r.fast, r.fastRef = ud, p
	r.budget.workOps |= lookupOps
	r.promoteState(p)
}

// demote gives the fast npc object back its ordinary metatable.
func (r *Runtime) demote() {
	r.budget.slowed, r.budget.slowedFast = nil, nil
	if r.fast != nil {
		r.demoteState()
		r.fast.Metatable = r.npcMeta
		r.fast, r.fastRef = nil, nil
		r.budget.workOps &^= lookupOps
	}
}

// methodsChanged drops the fast lookup table after the methods changed
// (a new prelude defined some); the next promote builds it again.
func (r *Runtime) methodsChanged() {
	r.demote()
	r.fastIndex = nil
}

// fastNPCMiss is the __index of fastIndex: a key of the fast npc object
// that is not npc.state or a method. The budget has charged a lookup
// on the fast npc itself; one that came through another table's __index
// is charged here, as npcIndex would have charged it.
func (r *Runtime) fastNPCMiss(L *lua.LState) int {
	p := r.fastRef
	key := L.CheckString(2)
	if p == nil || p.a != r.current {
		// Not reachable: only the current agent's npc is fast.
		L.RaiseError("npc.%s: the npc object is not its agent's", key)
	}
	if !lookupOnFast(L, r.fast) {
		r.charge(L, accessUnits)
	}
	r.npcField(L, p, key)
	return 1
}

// hostList names the host methods the game provides, sorted, for the
// message of an unknown npc method: a designer who calls npc:sell() when the
// game has no such method learns which ones it has.
func (r *Runtime) hostList() string {
	if len(r.opts.Host) == 0 {
		return "; the game provides no host methods (luabind.Options.Host)"
	}
	names := make([]string, 0, len(r.opts.Host))
	for name := range r.opts.Host {
		names = append(names, name)
	}
	slices.Sort(names)
	return "; the game's host methods are " + strings.Join(names, ", ")
}

func (r *Runtime) methodNames() []string {
	names := []string{"state", "facts", "squad", "holds", "name"}
	r.methods.ForEach(func(k, _ lua.LValue) { names = append(names, k.String()) })
	return names
}

func (r *Runtime) checkState(L *lua.LState) *engine.Agent {
	ud, ok := L.Get(1).(*lua.LUserData)
	if ok {
		if p, ok := ud.Value.(stateProxy); ok {
			r.checkCurrent(L, p.a)
			return p.a
		}
	}
	L.ArgError(1, "npc.state expected")
	return nil
}

func (r *Runtime) stateIndex(L *lua.LState) int {
	r.budget.fastAgain()
	a := r.checkState(L)
	r.charge(L, accessUnits)
	key := L.CheckString(2)
	slot, ok := a.Domain.Schema.Lookup(key)
	if !ok {
		L.RaiseError("npc.state.%s: no such state variable%s", key, didYouMean(key, a.Domain.Schema.Names()))
	}
	L.Push(fromValue(a.State[slot]))
	return 1
}

func (r *Runtime) stateNewIndex(L *lua.LState) int {
	r.budget.fastAgain()
	a := r.checkState(L)
	r.charge(L, accessUnits)
	key := L.CheckString(2)
	if r.mode.readOnly() {
		L.RaiseError("npc.state.%s: %s must not change state", key, r.mode)
	}
	v, err := toValue(L.Get(3))
	if err != nil {
		L.RaiseError("npc.state.%s: %s", key, err.Error())
	}
	if !a.Set(key, v) {
		L.RaiseError("npc.state.%s: no such state variable%s", key, didYouMean(key, a.Domain.Schema.Names()))
	}
	return 0
}

func didYouMean(name string, names []string) string { return engine.DidYouMean(name, names) }

// hostStart(npc, name, ...) calls a host method for the first time. It
// returns true and the results when done, else false and a handle.
//
// Its errors name the script line that called the method (preludeError).
func (r *Runtime) hostStart(L *lua.LState) int {
	name := L.CheckString(2)
	var a *engine.Agent
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if p, ok := ud.Value.(*npcRef); ok {
			a = p.a
		}
	}
	if a == nil {
		preludeError(L, "bad argument #1 to '%s' (npc expected (call methods with a colon: npc:%s(...)))", name, name)
	} else if a != r.current {
		preludeError(L, "%s", r.notCurrent(a))
	}
	r.charge(L, hostCallUnits+int64(L.GetTop()))
	// The first call runs in the runtime's spare handle (hostFirst) unless
	// a host function that called back into Lua is using it; a call that
	// is not done gets a handle of its own (hostRun).
	// The spare handle keeps the room of its arguments (args) across calls.
	h, spare := r.hostFirst, r.hostFirst != nil
	var args []expr.Value
	if spare {
		r.hostFirst = nil
		args = h.call.Args[:0]
		defer func() { clear(args); *h = hostHandle{}; h.call.Args = args[:0]; r.hostFirst = h }()
	} else {
		h = &hostHandle{}
	}
	if name != r.hostName || r.hostFn == nil {
		r.hostName, r.hostFn = name, r.opts.Host[name]
	}
	*h = hostHandle{fn: r.hostFn, call: HostCall{Agent: a, Name: name, First: true}}
	for i := 3; i <= L.GetTop(); i++ {
		v, err := toValue(L.Get(i))
		if err != nil {
			preludeError(L, "bad argument #%d to '%s' (%s)", i-2, name, err.Error())
		}
		args = append(args, v)
	}
	if len(args) > 0 {
		h.call.Args = args
	}
	return r.hostRun(L, h, spare)
}

// hostRun makes the first call of a host method with handle h; spare
// says h is the runtime's spare handle, which a call that is not done
// leaves for a copy of its own.
func (r *Runtime) hostRun(L *lua.LState, h *hostHandle, spare bool) int {
	done, err := h.fn(&h.call)
	if err != nil {
		preludeError(L, "npc:%s: %s", h.call.Name, err.Error())
	}
	if !done {
		if r.mode != modeBody {
			preludeError(L, "npc:%s takes more than one tick, so it can only be called in an action body (run), not in %s", h.call.Name, r.mode)
		}
		if spare {
			own := *h
			own.call.Args = slices.Clone(own.call.Args) // not the spare's room
			h = &own
		}
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

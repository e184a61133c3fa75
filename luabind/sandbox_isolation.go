package luabind

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	lua "github.com/yuin/gopher-lua"
)

// Isolation between the agents of one Runtime. Every agent's scripts run
// in the runtime's one Lua state, so the sandbox keeps them apart:
//   - a coroutine belongs to the agent whose code created it (nil for a
//     role file's or module's top level) and only that agent may resume
//     it (ownedCtx, checkedResume);
//   - a host call's handle works only for the agent that started it
//     (luaTask.Resume);
//   - a module returned by require is read-only all the way down
//     (readOnlyValue), so one role cannot change what another role's code
//     does;
//   - a role file's top-level locals are constants once the file has
//     loaded (freezeRole): the file runs once per runtime, so every agent
//     that carries the role shares them. Assigning one of them from an
//     agent's code (SETUPVAL), or a key of a table they reach (SETTABLE,
//     and the built-ins that write a table), raises "local 'x' of file
//     is shared by every agent of the role": the budget's check, which
//     reads each instruction, refuses it (sandbox_frozen.go). Reads cost nothing
//     more. Load-time code (the file's top level and what it calls) is
//     unrestricted, and a body's own locals stay writable;
//   - an npc object works only in its own agent's code (checkCurrent).

// ownedCtx is the context of a coroutine: the runtime's budget, which
// counts its instructions, and the agent it belongs to.
type ownedCtx struct {
	*budget
	owner *engine.Agent
	th    *lua.LState // the coroutine, whose next instruction the budget reads
	// worker marks a pcall worker (sandbox_pcall.go); pcallWorker is the worker
	// this coroutine waits on, inside a pcall whose function yielded;
	// pcallEnds marks such a pcall that the coroutine's main function
	// tail-called (return pcall(f)): no Lua frame is left under its yield,
	// and the coroutine ends with pcall's results when f does.
	worker      bool
	pcallWorker *lua.LState
	pcallEnds   bool
	// seen marks a coroutine that Lua code got hold of (coroutine.running):
	// it is never reused for another body (see recycleThread).
	seen bool
	// afterWait marks a coroutine suspended in goWait's yield: its next
	// resume is charged what the Lua npc:wait ran after its yield.
	afterWait bool
	// endsAfterWait marks a wait that ends the coroutine: goWait was its
	// main function, or was tail-called by it, so no Lua frame is left
	// under the yield (gopher-lua pops the tail-calling frame) and its
	// next resume ends it, as the Lua npc:wait's return ended it.
	endsAfterWait bool
}

// Done counts instructions against the runtime's budget; without a
// budget it returns nil at once. It is budget.done with the coroutine's
// thread, written out here so the VM's call per instruction does not
// make a second one.
func (c *ownedCtx) Done() <-chan struct{} {
	b := c.budget
	if b == nil {
		return nil
	}
	b.n++
	if b.n > b.stop || gcWatch.cycles.Load() != b.mem.cycles {
		return b.doneSlow(c.th)
	}
	if cf, inst := luavm.NextInstruction(c.th, b.workOps); !cf.IsZero() {
		return b.doneWork(c.th, cf, inst)
	}
	return nil
}

func (c *ownedCtx) Err() error {
	if c.budget == nil {
		return context.Canceled
	}
	return c.budget.Err()
}

// own gives thread th to agent (nil: the runtime's top level).
func (r *Runtime) own(th *lua.LState, agent *engine.Agent) {
	var b *budget
	if r.budgeted() {
		b = r.budget
	}
	th.SetContext(&ownedCtx{budget: b, owner: agent, th: th})
}

// ownerOf returns the agent a coroutine belongs to and whether the
// sandbox made it.
func ownerOf(th *lua.LState) (*engine.Agent, bool) {
	c := threadCtx(th)
	if c == nil {
		return nil, false
	}
	return c.owner, true
}

func agentName(a *engine.Agent) string {
	if a == nil {
		return "a script's top level"
	}
	return "agent " + strconv.Quote(a.Name)
}

// checkOwner raises an error unless the running agent owns th.
func (r *Runtime) checkOwner(L *lua.LState, th *lua.LState, what string) {
	owner, ok := ownerOf(th)
	if ok && owner == r.current {
		return
	}
	r.raise(L, "%s: this coroutine belongs to %s, not to %s that runs now: an agent can resume only its own coroutines",
		what, agentName(owner), agentName(r.current))
}

// wrapCoroutines replaces coroutine.create and resume with versions that
// record and check the owner, and returns create for the prelude and the
// checked resume of the functions coroutine.wrap makes; the unchecked
// resume is kept for pcall's workers (Runtime.coResume).
func (r *Runtime) wrapCoroutines(co *lua.LTable) (checkedCreate, wrapResume lua.LValue) {
	L := r.L
	create := co.RawGetString("create").(*lua.LFunction)
	resume := co.RawGetString("resume").(*lua.LFunction)
	newCo := func(L *lua.LState) int {
		r.chargeCoroutine(L)
		n := create.GFunction(L)
		if th, ok := L.Get(-1).(*lua.LState); ok {
			r.own(th, r.current)
		}
		return n
	}
	checked := func(what string) *lua.LFunction {
		return L.NewFunction(func(L *lua.LState) int {
			th := L.CheckThread(1)
			r.checkOwner(L, th, what)
			if resumesAncestor(L, th) {
				r.raise(L, "%s: cannot resume a coroutine that is not suspended (it is running, or waits for a coroutine it resumed)", what)
			}
			if c := threadCtx(th); c != nil && c.worker {
				r.raise(L, "%s: this coroutine runs the sandbox's pcall: resume the coroutine that called pcall", what)
			} else if c != nil && c.pcallWorker != nil {
				return r.resumeWaiting(L, th)
			}
			if ok, vals, ends := r.afterWait(th); ok {
				if ends {
					return r.endAfterWait(L, th)
				}
				L.SetTop(1)
				for _, v := range vals {
					L.Push(v)
				}
			}
			padYieldTargets(th)
			return resume.GFunction(L)
		})
	}
	running := co.RawGetString("running").(*lua.LFunction).GFunction
	co.RawSetString("running", L.NewFunction(func(L *lua.LState) int {
		n := running(L)
		if th, ok := L.Get(-1).(*lua.LState); ok {
			if c := threadCtx(th); c != nil {
				c.seen = true
			}
		}
		return n
	}))
	co.RawSetString("create", L.NewFunction(newCo))
	co.RawSetString("resume", checked("coroutine.resume"))
	r.coResume = resume.GFunction
	return L.NewFunction(newCo), checked("coroutine.wrap")
}

// resumesAncestor reports whether th is L or a coroutine that L runs
// inside (L's parent, its parent's parent...): such a coroutine is
// running or waits in a resume ("normal" in stock Lua, which refuses to
// resume it). gopher-lua checks only the running thread, so a coroutine
// that resumes the body that resumed it would start a ping-pong of Go
// calls that ends the game with a Go stack overflow.
func resumesAncestor(L, th *lua.LState) bool {
	for p := L; p != nil; p = p.Parent {
		if p == th {
			return true
		}
	}
	return false
}

// readOnlyValue returns v as scripts see a module's value: tables become
// read-only proxies (nested tables too, each proxy made once), anything
// else as it is. Reading, #, pairs, ipairs and next work on a proxy;
// writing raises "the module ... is read-only".
func (r *Runtime) readOnlyValue(v lua.LValue, name string) lua.LValue {
	return r.readOnlyView(v, roOrigin{module: name})
}

// readOnlyView is readOnlyValue for a value that came from origin: a
// module, or a role file's top-level local (see freezeRole). A table
// viewed before keeps its first view, and so its first origin.
func (r *Runtime) readOnlyView(v lua.LValue, origin roOrigin) lua.LValue {
	t, ok := v.(*lua.LTable)
	if !ok {
		return v
	}
	if p, ok := r.proxies[t]; ok {
		return p
	}
	L := r.L
	ud := L.NewUserData()
	ud.Value = &roProxy{t: t, roOrigin: origin}
	ud.Metatable = r.roMeta
	r.proxies[t] = ud
	return ud
}

// roProxy is the value of a read-only proxy.
type roProxy struct {
	t *lua.LTable
	roOrigin
}

// roOrigin is where a read-only view's table came from: the module
// named module, or else the top-level local named local of the role
// file file.
type roOrigin struct {
	module      string
	local, file string
}

// readOnlyError is the message of a write into a read-only view, after
// the key written.
func (o roOrigin) readOnlyError() string {
	if o.local != "" {
		return sharedLocalError(o.local, o.file)
	}
	return sprintf("the module %q is read-only: every agent of the role shares it (copy what you need into a local table)", o.module)
}

// sharedLocalError is the message of a write to the top-level local
// name of role file file, or into a table it holds, from an agent's code.
func sharedLocalError(name, file string) string {
	return sprintf("local '%s' of %s is shared by every agent of the role: top-level locals are constants once the file has loaded "+
		"(keep per-agent data in npc.state or in the body's own locals)", name, file)
}

func (r *Runtime) initReadOnly() {
	L := r.L
	r.proxies = map[*lua.LTable]*lua.LUserData{}
	r.roMeta = L.NewTable()
	r.roMeta.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		p := L.CheckUserData(1).Value.(*roProxy)
		// The module's own tables may lead, through __index, to the fast
		// npc.state: look up without its mirror (slowState).
		ud := r.slowState()
		v := L.GetTable(p.t, L.Get(2))
		r.fastStateAgain(ud)
		L.Push(r.readOnlyView(v, p.roOrigin))
		return 1
	}))
	r.roMeta.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		p := L.CheckUserData(1).Value.(*roProxy)
		r.raise(L, "%s: %s", lua.LVAsString(L.ToStringMeta(L.Get(2))), p.readOnlyError())
		return 0
	}))
	r.roMeta.RawSetString("__len", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckUserData(1).Value.(*roProxy).t
		r.charge(L, r.lenWork(t))
		L.Push(lua.LNumber(t.Len()))
		return 1
	}))
	r.roMeta.RawSetString("__metatable", lua.LString("protected"))
}

// proxyOf returns the table behind a read-only proxy, or nil.
func proxyOf(v lua.LValue) *roProxy {
	if ud, ok := v.(*lua.LUserData); ok {
		if p, ok := ud.Value.(*roProxy); ok {
			return p
		}
	}
	return nil
}

// wrapIteration makes next, pairs and ipairs accept read-only proxies.
func (r *Runtime) wrapIteration(base *lua.LTable) {
	L := r.L
	next := base.RawGetString("next").(*lua.LFunction)
	roNext := L.NewFunction(func(L *lua.LState) int {
		p := proxyOf(L.Get(1))
		if p == nil {
			if t, ok := L.Get(1).(*lua.LTable); ok {
				r.charge(L, r.gapWork(t, L.Get(2)))
			}
			return next.GFunction(L)
		}
		r.charge(L, r.gapWork(p.t, L.Get(2)))
		k, v := p.t.Next(L.Get(2))
		if k == lua.LNil {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(k)
		L.Push(r.readOnlyView(v, p.roOrigin))
		return 2
	})
	base.RawSetString("next", roNext)
	base.RawSetString("pairs", L.NewFunction(func(L *lua.LState) int {
		if proxyOf(L.Get(1)) == nil {
			L.CheckTable(1)
		}
		L.Push(roNext)
		L.Push(L.Get(1))
		L.Push(lua.LNil)
		return 3
	}))
	inext := L.NewFunction(func(L *lua.LState) int {
		i := L.CheckInt(2) + 1
		var v lua.LValue
		if p := proxyOf(L.Get(1)); p != nil {
			v = r.readOnlyView(p.t.RawGetInt(i), p.roOrigin)
		} else {
			v = L.CheckTable(1).RawGetInt(i)
		}
		if v == lua.LNil {
			return 0
		}
		L.Push(lua.LNumber(i))
		L.Push(v)
		return 2
	})
	base.RawSetString("ipairs", L.NewFunction(func(L *lua.LState) int {
		if proxyOf(L.Get(1)) == nil {
			L.CheckTable(1)
		}
		L.Push(inext)
		L.Push(L.Get(1))
		L.Push(lua.LNumber(0))
		return 3
	}))
}

// wrapUnpack makes unpack accept a read-only proxy: it unpacks the table
// behind it and returns its tables as read-only views too. It wraps the
// charged unpack (see chargeLibraries), which charges the table's work.
func (r *Runtime) wrapUnpack(base *lua.LTable) {
	unpack := base.RawGetString("unpack").(*lua.LFunction)
	base.RawSetString("unpack", r.L.NewFunction(func(L *lua.LState) int {
		p := proxyOf(L.Get(1))
		if p == nil {
			return unpack.GFunction(L)
		}
		L.Replace(1, p.t)
		n := unpack.GFunction(L)
		for i := L.GetTop() - n + 1; i <= L.GetTop(); i++ {
			if _, ok := L.Get(i).(*lua.LTable); ok {
				L.Replace(i, r.readOnlyView(L.Get(i), p.roOrigin))
			}
		}
		return n
	}))
}

// tableOrView is argument n of a built-in that only reads a table: a
// table, or the table behind a read-only proxy; anything else raises
// the built-in's usual argument error.
func tableOrView(L *lua.LState, n int) *lua.LTable {
	if p := proxyOf(L.Get(n)); p != nil {
		return p.t
	}
	return L.CheckTable(n)
}

// heapTypes are the types gopher-lua prints with a heap address: "table:
// 0xc000123456". Addresses differ from run to run.
var heapTypes = [...]string{"table", "function", "userdata", "thread", "channel"}

// scrubAddresses replaces every heap address in a message with the
// value's type alone ("table: 0xc000123456" becomes "table"), so traces
// are identical between runs. It reads s once, in time linear in its
// length: one search for ": 0x" over the string and a look at the few
// bytes around each hit (callers charge the scan; see scrubWork).
func scrubAddresses(s string) string {
	const mark = ": 0x"
	i := strings.Index(s, mark)
	if i < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i >= 0 {
		end := i + len(mark)
		for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] >= 'a' && s[end] <= 'f') {
			end++
		}
		if end > i+len(mark) && heapTypeBefore(s, i) {
			b.WriteString(s[last:i])
			last = end
		}
		next := strings.Index(s[i+len(mark):], mark)
		if next < 0 {
			break
		}
		i += len(mark) + next
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// heapTypeBefore reports whether s[:i] ends with a whole word that is one
// of heapTypes (the byte before it, if any, is not a letter, digit or _).
func heapTypeBefore(s string, i int) bool {
	for _, t := range heapTypes {
		if j := i - len(t); j >= 0 && s[j:i] == t {
			return j == 0 || !isWordByte(s[j-1])
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// scrubWork is the work of scrubbing a message of n bytes (a search over
// it, at bytesPerUnit bytes a unit).
func scrubWork(n int) int64 { return bytesWork(n) }

// maxTostringIDs bounds the ids tostring hands out for one agent before
// it starts over.
const maxTostringIDs = 1 << 12

// tostringValue is tostring with deterministic names for reference values:
// "table: #3" is the third table the running agent's tostring has named
// (outside an agent: the third the runtime's has), so the text is the
// same from run to run and with any number of workers (gopher-lua prints
// the address). The ids start over after maxTostringIDs values, so a
// script cannot make the runtime hold on to every value it ever printed.
func (r *Runtime) tostringValue(L *lua.LState, v lua.LValue) lua.LString {
	switch v.(type) {
	case lua.LString, lua.LNumber, lua.LBool, *lua.LNilType:
		return lua.LString(v.String())
	}
	if p := proxyOf(v); p != nil {
		v = p.t
	}
	if L.GetMetaField(v, "__tostring") != lua.LNil {
		str := L.ToStringMeta(v).String()
		r.charge(L, scrubWork(len(str)))
		return lua.LString(scrubAddresses(str))
	}
	owner := r.drawer()
	ids := r.ids[owner]
	if ids == nil {
		ids = map[lua.LValue]int{}
		r.ids[owner] = ids
	}
	id, ok := ids[v]
	if !ok {
		if len(ids) >= maxTostringIDs {
			clear(ids)
		}
		id = len(ids) + 1
		ids[v] = id
	}
	return lua.LString(v.Type().String() + ": #" + strconv.Itoa(id))
}

// drawer is the agent whose scripts run now: the one whose body or
// callback runs, else the one the consideration functions score for, else
// nil (a role file's top level, Runtime.Call). Its random source and
// tostring ids are the ones a script uses, so what one agent draws or
// names never depends on the agents beside it.
func (r *Runtime) drawer() *engine.Agent {
	if r.current != nil {
		return r.current
	}
	return r.scorer
}

// raise raises a Lua error located at the innermost script line (not at
// this package's own Lua code), as "file:line: message".
func (r *Runtime) raise(L *lua.LState, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = sprintf(format, args...)
	}
	L.Error(lua.LString(scriptWhere(L)+msg), 0)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// unwrapViews replaces, inside a role table a file returned, every
// read-only module view by the module's table, so the role reader sees
// plain tables (a plan library from require, put in plans by mm.plans).
// It writes only tables that hold views, which are the script's own: a
// module's tables never hold views.
func unwrapViews(t *lua.LTable) {
	seen := map[*lua.LTable]bool{}
	var walk func(t *lua.LTable)
	walk = func(t *lua.LTable) {
		if seen[t] {
			return
		}
		seen[t] = true
		var views []lua.LValue
		t.ForEach(func(k, v lua.LValue) {
			switch x := v.(type) {
			case *lua.LTable:
				walk(x)
			case *lua.LUserData:
				if proxyOf(x) != nil {
					views = append(views, k)
				}
			}
		})
		for _, k := range views {
			t.RawSet(k, proxyOf(t.RawGet(k)).t)
		}
	}
	walk(t)
}

package luabind

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// The fast npc.state. While the running agent's npc object is fast (see
// promote), its npc.state userdata is fast too: its metatable is
// fastStateMeta, whose __index is a table (a stateMirror's tbl) holding
// the values of the state variables the body has read, by name, so a
// read such as npc.state.ammo is a table lookup inside the VM instead of
// a call of the Go stateIndex. Writes still go through the Go
// stateNewIndex, which checks and writes the agent's state.
//
// The mirror is kept exact by the budget, not by watching who changes
// the state: every read of the fast state from Lua is a GETTABLE, SELF
// or GETTABLEKS instruction whose object is the fast state, or a lookup
// in a table whose __index chain reaches it, and the budget's check runs
// before that instruction (tableWork). There it charges the read the
// accessUnits stateIndex charged and brings every mirrored variable up
// to date with the agent's state (sync), so whatever changed the state
// since (a host method, the engine between ticks, another agent's tick
// on a shared mirror) is seen by the read. A key the mirror lacks (a
// variable not read yet, an unknown name, a non-string key) reaches the
// mirror's own Go __index (fastStateMiss), which answers as stateIndex
// does and mirrors the variable from then on. Go code that looks a key
// up through metamethods without a VM instruction (string.gsub with a
// table replacement) runs with the fast state demoted (slowState), so
// stateIndex answers and charges as before.
//
// A mirror is made per schema (state variables are named by the domain's
// schema) and shared by every agent of that schema: only one agent's
// state is fast at a time, and sync rewrites what differs.

// stateMirror is the lookup table of the fast npc.state for one schema.
type stateMirror struct {
	schema *expr.Schema
	tbl    *lua.LTable   // variable name -> value, the mirrored slots only
	a      *engine.Agent // the agent whose values tbl holds now
	// held are the mirrored variables, in the order first read, with the
	// value tbl holds for each; in marks their slots.
	held []mirrored
	in   []bool
}

// mirrored is one variable of a stateMirror.
type mirrored struct {
	slot int
	name string
	v    expr.Value
}

// maxMirrored bounds the variables a mirror holds (sync compares each on
// every read); further ones are answered by fastStateMiss each time.
const maxMirrored = 16

// noValue is the value of a slot past the end of a state (expr.Value's
// zero value); it is only read.
var noValue expr.Value

// sync brings tbl up to date with agent a's state, rewriting only the
// mirrored variables whose value changed. An agent whose schema is no
// longer the mirror's (a reload) empties the mirror: every read then
// reaches fastStateMiss, which answers from the agent's own schema.
func (m *stateMirror) sync(a *engine.Agent) {
	if a.Domain == nil || a.Domain.Schema != m.schema {
		m.clear()
		return
	}
	m.a = a
	st := a.State
	for i := range m.held {
		e := &m.held[i]
		v := &noValue
		if e.slot < len(st) {
			v = &st[e.slot]
		}
		// The same value to Lua is Value's ==: the same kind, the
		// same bits of a number (0 and -0 differ: tostring tells them
		// apart) and the same text.
		if *v == e.v {
			continue
		}
		old := e.v
		e.v = *v
		if present(old) && present(e.v) {
			replaceString(m.tbl, e.name, fromValue(e.v))
		} else {
			m.tbl.RawSetString(e.name, fromValue(e.v))
		}
	}
}

// present reports whether a mirror table holds a key for v: Lua tables
// hold no nil.
func present(v expr.Value) bool { return v.Kind() != expr.Nil && v.Kind() != expr.Unknown }

// replaceString is t.RawSetString(key, v) for a key t holds already (a
// mirror table, which no script can reach, holds the key of every
// mirrored variable whose value is present) and a v that is not nil: the
// map write alone (luavm.ReplaceString), without RawSetString's look-up
// in the table's key order.
func replaceString(t *lua.LTable, key string, v lua.LValue) {
	if !luavm.ReplaceString(t, key, v) {
		t.RawSetString(key, v)
	}
}

// compactStrings gives t's string keys a map made for their number
// (luavm.CompactStrings): the fast objects' metatables and the state
// mirror, looked up at every field access of a body, hold 3 to 8 keys,
// which a map made for at most 8 keys scans in one group. The keys and
// values stay the same (and so do the table's key order and next), so
// no script can tell. When luavm cannot read the table it does nothing.
func compactStrings(t *lua.LTable) { luavm.CompactStrings(t) }

// clear drops every mirrored variable.
func (m *stateMirror) clear() {
	for _, e := range m.held {
		m.tbl.RawSetString(e.name, lua.LNil)
		m.in[e.slot] = false
	}
	m.held = m.held[:0]
	m.a = nil
}

// add mirrors slot s of agent a (already synced) holding v.
func (m *stateMirror) add(a *engine.Agent, s int, v expr.Value) {
	if m.a != a || a.Domain.Schema != m.schema || s >= len(m.in) || m.in[s] || len(m.held) >= maxMirrored {
		return
	}
	m.in[s] = true
	m.held = append(m.held, mirrored{slot: s, name: m.schema.Name(s), v: v})
	m.tbl.RawSetString(m.schema.Name(s), fromValue(v))
}

// mirrorFor returns the runtime's mirror for schema s, made on first use.
func (r *Runtime) mirrorFor(s *expr.Schema) *stateMirror {
	if m := r.lastMirror; m != nil && m.schema == s {
		return m
	}
	if r.mirrors == nil {
		r.mirrors = map[*expr.Schema]*stateMirror{}
	}
	m := r.mirrors[s]
	if m == nil {
		if r.stMirrorMiss == nil {
			r.stMirrorMiss = r.L.NewTable()
			r.stMirrorMiss.RawSetString("__index", r.L.NewFunction(r.fastStateMiss))
		}
		m = &stateMirror{schema: s, tbl: r.L.NewTable(), in: make([]bool, s.Len())}
		compactStrings(m.tbl)
		m.tbl.Metatable = r.stMirrorMiss
		r.mirrors[s] = m
	}
	r.lastMirror = m
	return m
}

// promoteState makes p's npc.state fast (see above); promote calls it.
// Without an instruction or time budget no budget check runs (the
// coroutines carry no budget), so nothing would keep the mirror exact:
// npc.state then stays as it is, read through stateIndex.
func (r *Runtime) promoteState(p *npcRef) {
	if testHooks.noMirror || !r.budgeted() || p.a.Domain == nil || p.a.Domain.Schema == nil {
		return
	}
	// No sync here: the budget syncs before every read of the fast state
	// (and fastWrite writes only once a read has synced the mirror for
	// this agent), so a sync now would only come early.
	m := r.mirrorFor(p.a.Domain.Schema)
	if r.stFastMeta == nil {
		r.stFastMeta = r.L.NewTable()
		r.stFastMeta.RawSetString("__newindex", r.stMeta.RawGetString("__newindex"))
		r.stFastMeta.RawSetString("__metatable", r.stMeta.RawGetString("__metatable"))
		compactStrings(r.stFastMeta)
	}
	if r.stFastIndex != m.tbl {
		r.stFastMeta.RawSetString("__index", m.tbl)
		if !testHooks.slowStateWrites {
			r.stFastMeta.RawSetString("__newindex", m.tbl) // see fastWrite
		}
		r.stFastIndex = m.tbl
	}
	p.state.Metatable = r.stFastMeta
	r.budget.fastState, r.budget.mirror, r.budget.fastAgent = p.state, m, p.a
	r.budget.fastStateMeta = r.stFastMeta
	r.budget.fastWrites = !testHooks.slowStateWrites
}

// demoteState gives the fast npc.state its ordinary metatable back.
func (r *Runtime) demoteState() {
	r.budget.slowed, r.budget.slowedFast = nil, nil
	if ud := r.budget.fastState; ud != nil {
		ud.Metatable = r.stMeta
		r.budget.fastState, r.budget.mirror, r.budget.fastAgent = nil, nil, nil
	}
}

// slowState demotes the fast npc.state, for Go code that looks keys up
// through metamethods without a VM instruction the budget sees, and
// returns it (nil when there is none) for fastStateAgain to promote
// again. A Lua error in between leaves it slow (stateIndex answers)
// until the resume ends, unless fastStateAgain is deferred.
func (r *Runtime) slowState() *lua.LUserData {
	ud := r.budget.fastState
	if ud != nil {
		ud.Metatable = r.stMeta
	}
	return ud
}

// fastStateAgain undoes slowState for ud (nil: nothing), when ud is still
// the fast state.
func (r *Runtime) fastStateAgain(ud *lua.LUserData) {
	if ud != nil && r.budget.fastState == ud {
		ud.Metatable = r.stFastMeta
	}
}

// fastStateMiss is the __index of a mirror table: a key of the fast
// npc.state that the mirror does not hold. It answers as stateIndex does
// (the same messages) and mirrors the variable. The budget charged the
// read when a lookup instruction made it (tableWork); a lookup that Go
// code made through metamethods is charged here.
func (r *Runtime) fastStateMiss(L *lua.LState) int {
	m := r.budget.mirror
	if m == nil || r.fastRef == nil || r.fastRef.a != r.current {
		// Not reachable: the mirror is reached only through the fast
		// state, the current agent's.
		L.RaiseError("npc.state: the fast state is not the running agent's")
	}
	a := r.fastRef.a
	if !lookupInstrBelow(L) {
		r.charge(L, accessUnits)
	}
	key := L.CheckString(2)
	slot, ok := a.Domain.Schema.Lookup(key)
	if !ok {
		L.RaiseError("npc.state.%s: no such state variable%s", key, didYouMean(key, a.Domain.Schema.Names()))
	}
	v := a.State[slot]
	if present(v) {
		m.add(a, slot, v)
	}
	L.Push(fromValue(v))
	return 1
}

// lookupInstrBelow reports whether the Go function th runs was called by
// a lookup instruction (GETTABLE, GETTABLEKS, SELF) of the Lua frame
// under it, which the budget saw and charged before it ran.
func lookupInstrBelow(th *lua.LState) bool {
	_, p := callFrames(th)
	if p.IsZero() {
		return false
	}
	f, ok := frameAt(th, p)
	if !ok {
		return false
	}
	switch int(f.inst >> 26) {
	case opGetTable, opGetTableKS, opSelf:
		return true
	}
	return false
}

// chainWork is the budget's check of a lookup instruction of frame f
// in table obj, which has a metatable: when the __index chain reaches
// the fast npc.state (see lookupEnd), the read costs what stateIndex
// charges and sees the agent's state as it is now; one that reaches it,
// or the fast npc object, at getField's last step is left to their Go
// __index (slowOnce).
func (b *budget) chainWork(f vmFrame, obj *lua.LTable) {
	ud, step := f.lookupEnd(obj)
	switch {
	case ud == nil:
	case isTable(ud.Metatable, b.fastMeta):
		if step == lua.MaxTableGetLoop-1 {
			b.slowOnce(ud, b.npcMeta)
		}
	case ud == b.fastState && isTable(ud.Metatable, b.fastStateMeta):
		if step == lua.MaxTableGetLoop-1 {
			b.slowOnce(ud, b.stateMeta)
			return
		}
		b.n += accessUnits
		b.mirror.sync(b.fastAgent)
	}
}

// lookupEnd is the userdata at which gopher-lua's getField walk of the
// lookup instruction of frame f in table obj stops, and the step of that
// walk (0: obj itself) at which it reaches it: a table without the key
// goes on to its metatable's __index while that is a table, and a
// userdata there ends the walk. It is nil when the walk ends elsewhere
// (the key found, an __index function, none) or reaches the userdata
// only after getField's last step (MaxTableGetLoop steps, 0 to
// MaxTableGetLoop-1).
func (f vmFrame) lookupEnd(obj *lua.LTable) (*lua.LUserData, int) {
	key := f.rk(int(f.inst>>9) & 0x1ff)
	for t, i := obj, 0; i < lua.MaxTableGetLoop-1; i++ {
		if t.RawGet(key) != lua.LNil {
			return nil, 0
		}
		mt, ok := t.Metatable.(*lua.LTable)
		if !ok {
			return nil, 0
		}
		switch idx := mt.RawGetString("__index").(type) {
		case *lua.LTable:
			t = idx
		case *lua.LUserData:
			return idx, i + 1
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// slowOnce gives ud, the fast npc.state or npc object, its ordinary
// metatable for the one lookup about to run, whose walk reaches ud at
// getField's last step (MaxTableGetLoop-1), where the fast one's lookup
// table would be a step too many ("too many recursions in gettable"):
// the __index that lookup then calls (stateIndex or npcIndex, which
// charge it as before) gives ud its fast metatable back (fastAgain).
func (b *budget) slowOnce(ud *lua.LUserData, slow *lua.LTable) {
	b.slowed, b.slowedFast = ud, ud.Metatable
	ud.Metatable = slow
}

// fastAgain undoes slowOnce.
func (b *budget) fastAgain() {
	if b.slowed != nil {
		b.slowed.Metatable = b.slowedFast
		b.slowed, b.slowedFast = nil, nil
	}
}

// The fast state's writes. While npc.state is fast, its metatable's
// __newindex is the mirror table as well, so npc.state.ammo = v is a raw
// write of the mirror inside the VM instead of a call of the Go
// stateNewIndex. The budget's check before the write instruction
// (stateWriteWork, from tableWork) does what stateNewIndex did: it
// charges accessUnits, converts the value, writes the agent's state and
// notes the new value as the mirror's, which the instruction then stores
// (the same Lua value: fromValue gives back what toValue took). Whatever
// stateNewIndex would refuse, or charge past the limit, goes to
// stateNewIndex as before: a variable the mirror does not hold, a key
// that is not a string, a read-only mode, a value that is not a boolean,
// a number or a string, a write that would pass the budget, any write
// under a time budget (whose clock check, after this one, could still
// stop the instruction before it runs). The state
// then has its ordinary metatable for that one instruction (slowOnce),
// and stateNewIndex gives the fast one back. A write through another
// table's __newindex chain that reaches the fast state is always left to
// stateNewIndex so (newindexEnd). Go code writes no script value through
// metamethods (gopher-lua's libraries and this package's set fields with
// rawset or on their own tables), so every write of the fast state is an
// instruction the budget sees.

// stateWriteWork is the budget's check of a SETTABLE or SETTABLEKS of
// frame f while npc.state is fast: a write of the fast state is done
// here (fastWrite) or left to stateNewIndex (slowOnce), and so is a
// write whose __newindex chain reaches it.
func (b *budget) stateWriteWork(f vmFrame) {
	var ud *lua.LUserData
	switch obj := f.register(int(f.inst>>18) & 0xff).(type) {
	case *lua.LUserData:
		ud = obj
	case *lua.LTable:
		if obj.Metatable == lua.LNil || obj.Metatable == nil {
			return
		}
		if ud = newindexEnd(obj, f.rk(int(f.inst&0x1ff))); ud != b.fastState {
			return
		}
		if isTable(ud.Metatable, b.fastStateMeta) {
			b.slowOnce(ud, b.stateMeta)
		}
		return
	default:
		return
	}
	if ud != b.fastState || !isTable(ud.Metatable, b.fastStateMeta) || !b.fastWrites {
		return
	}
	if !b.fastWrite(f) {
		b.slowOnce(ud, b.stateMeta)
	}
}

// fastWrite does the write instruction of frame f on the fast state as
// stateNewIndex would, and reports false, having changed nothing, where
// stateNewIndex is to do it (see above).
func (b *budget) fastWrite(f vmFrame) bool {
	m, a := b.mirror, b.fastAgent
	if m == nil || a == nil || m.a != a || a.Domain == nil || a.Domain.Schema != m.schema ||
		b.modeOf == nil || b.modeOf.readOnly() || !b.armed || b.spent != nil || b.timeLimit > 0 ||
		(b.limit > 0 && b.n+accessUnits > b.limit) {
		return false
	}
	key, ok := f.rk(int(f.inst & 0x1ff)).(lua.LString)
	if !ok {
		return false
	}
	// The mirrored variables are few (maxMirrored): a name compare each
	// finds the slot and the mirror's entry without the schema's map.
	var e *mirrored
	for i := range m.held {
		if m.held[i].name == string(key) {
			e = &m.held[i]
			break
		}
	}
	if e == nil || e.slot >= len(a.State) {
		return false
	}
	var v expr.Value
	switch x := f.rk(int(f.inst>>9) & 0x1ff).(type) {
	case lua.LBool:
		v = expr.BoolValue(bool(x))
	case lua.LString:
		v = expr.StringValue(string(x))
	case lua.LNumber:
		// toValue's checks, without boxing the number again.
		if n := float64(x); !math.IsNaN(n) && checkExact(n) == nil {
			v = expr.NumberValue(n)
		} else {
			return false
		}
	default:
		return false
	}
	b.n += accessUnits
	a.State[e.slot] = v
	e.v = v // the value the instruction stores in the mirror
	return true
}

// newindexEnd is the userdata at which gopher-lua's setField walk of an
// assignment obj[key] = v stops, or nil when it stops elsewhere: a table
// holding key takes the value, one without goes on to its metatable's
// __newindex while that is a table; a function there, or none, ends the
// walk, as does a userdata, whose own __newindex takes the value.
func newindexEnd(obj *lua.LTable, key lua.LValue) *lua.LUserData {
	for t, i := obj, 0; i < lua.MaxTableGetLoop; i++ {
		if t.RawGet(key) != lua.LNil {
			return nil
		}
		mt, ok := t.Metatable.(*lua.LTable)
		if !ok {
			return nil
		}
		switch ni := mt.RawGetString("__newindex").(type) {
		case *lua.LTable:
			t = ni
		case *lua.LUserData:
			return ni
		default:
			return nil
		}
	}
	return nil
}

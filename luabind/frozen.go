package luabind

import (
	"path/filepath"

	lua "github.com/yuin/gopher-lua"
)

// A role file runs once per runtime, so the locals at its top level are
// upvalues that every agent carrying the role shares: one agent's
// `count = count + 1` would change what another reads, and the values
// would depend on how agents are spread over workers (one Runtime each).
// Once the file's top level has returned, its role is frozen: those
// locals become constants (see the isolation notes in isolation.go).

// frozenLocal names a frozen upvalue: the local's name and the base name
// of the file that declared it.
type frozenLocal struct {
	name, file string
}

// setUpvalOps is the opcode the budget's check hands to doneSlow while
// some upvalue is frozen: an assignment to an upvalue.
const setUpvalOps = 1 << lua.OP_SETUPVAL

// freezeRole freezes the role table tbl that file's top level returned:
// every Lua function reachable from it, through tables and, transitively,
// through the upvalues of those functions, has its upvalues recorded as
// frozen (an agent's assignment to one raises an error, see
// budget.checkSetUpvalue), and a table held in one of them is replaced by
// its read-only view. Values are not copied: a function or a table stays
// the same value, so the role reader and load-time code see what they
// saw. Read-only views (modules) are not entered.
func (r *Runtime) freezeRole(tbl *lua.LTable, file string) {
	base := filepath.Base(file)
	seen := map[lua.LValue]bool{}
	var walk func(v lua.LValue)
	walk = func(v lua.LValue) {
		switch x := v.(type) {
		case *lua.LTable:
			if seen[x] {
				return
			}
			seen[x] = true
			x.ForEach(func(k, v lua.LValue) {
				walk(k)
				walk(v)
			})
		case *lua.LFunction:
			if x.IsG || seen[x] {
				return
			}
			seen[x] = true
			for i, uv := range x.Upvalues {
				if uv == nil {
					continue
				}
				if _, ok := r.frozen[uv]; ok {
					continue
				}
				name := "?"
				if x.Proto != nil && i < len(x.Proto.DbgUpvalues) {
					name = x.Proto.DbgUpvalues[i]
				}
				r.frozen[uv] = frozenLocal{name: name, file: base}
				val := uv.Value()
				walk(val)
				if t, ok := val.(*lua.LTable); ok {
					uv.SetValue(r.readOnlyView(t, roOrigin{local: name, file: base}))
				}
			}
		}
	}
	walk(tbl)
	if len(r.frozen) > 0 && peek.ok {
		r.budget.frozen = r.frozen
	}
}

// checkSetUpvalue raises, on thread th, the error of an agent's code
// assigning a frozen upvalue, when the instruction th's VM is about to
// run is such an assignment (SETUPVAL A B stores register A in upvalue
// B of the running function). Load-time code may assign any upvalue.
func (b *budget) checkSetUpvalue(th *lua.LState) {
	if th == nil || (b.modeOf != nil && *b.modeOf == modeLoad) {
		return
	}
	f, ok := runningFrame(th)
	if !ok || int(f.inst>>26) != lua.OP_SETUPVAL {
		return
	}
	ups := f.fn.Upvalues
	if i := int(f.inst & 0x1ff); i < len(ups) {
		if loc, ok := b.frozen[ups[i]]; ok && b.raiseShared != nil {
			b.raiseShared(th, loc)
		}
	}
}

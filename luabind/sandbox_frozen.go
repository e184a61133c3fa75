package luabind

import (
	"path/filepath"
	"strings"

	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	lua "github.com/yuin/gopher-lua"
)

// A role file runs once per runtime, so the locals at its top level are
// upvalues that every agent carrying the role shares: one agent's
// `count = count + 1` would change what another reads, and the values
// would depend on how agents are spread over workers (one Runtime each).
// Once the file's top level has returned, its role is frozen: those
// locals become constants (see the isolation notes in sandbox_isolation.go).

// frozenLocal names a frozen upvalue: the local's name and the base name
// of the file that declared it.
type frozenLocal struct {
	name, file string
}

// setUpvalOps is the opcode the budget's check hands to doneSlow while
// some upvalue is frozen: an assignment to an upvalue. (Assignments to a
// table key, SETTABLE and SETTABLEKS, go there already: see tableOps.)
const setUpvalOps = 1 << lua.OP_SETUPVAL

// freezeRole freezes the role table tbl that file's top level returned:
// every Lua function reachable from it, through tables and, transitively,
// through the upvalues of those functions, has its upvalues recorded as
// frozen, and every table reachable from a frozen upvalue (nested tables
// too) is recorded as frozen with the local that holds it. An agent's
// assignment to a frozen upvalue or into a frozen table raises an error
// (budget.checkFrozenUpvalue and checkFrozenTable; refuseFrozen for the built-ins that write a
// table). Nothing is copied or wrapped: reads of a frozen table are
// plain table reads, at no cost, and the role reader and load-time code
// see the values they built. Read-only views (modules) are not entered.
func (r *Runtime) freezeRole(tbl *lua.LTable, file string) {
	base := filepath.Base(file)
	seen := map[lua.LValue]bool{}
	var ups []*lua.Upvalue // frozen by this call, in the order found
	var walk func(v lua.LValue, holder *frozenLocal)
	walk = func(v lua.LValue, holder *frozenLocal) {
		switch x := v.(type) {
		case *lua.LTable:
			if holder != nil {
				if _, ok := r.frozenTables[x]; !ok {
					r.frozenTables[x] = *holder
				}
			}
			if seen[x] {
				return
			}
			seen[x] = true
			if mt, ok := x.Metatable.(*lua.LTable); ok {
				walk(mt, holder)
			}
			// Next, not ForEach, whose order is Go's map order: the first
			// local found to hold a table names it in messages.
			for k, v := x.Next(lua.LNil); k != lua.LNil; k, v = x.Next(k) {
				walk(k, holder)
				walk(v, holder)
			}
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
				// The local belongs to the chunk that defines x: the role
				// file, or a module or parent whose function it reached.
				file := base
				if x.Proto != nil && x.Proto.SourceName != "" && x.Proto.SourceName != "<string>" {
					file = filepath.Base(strings.TrimPrefix(x.Proto.SourceName, "@"))
				}
				loc := frozenLocal{name: name, file: file}
				r.frozen[uv] = loc
				ups = append(ups, uv)
				walk(uv.Value(), &loc)
			}
		}
	}
	// A table reached from the role table itself is frozen only when an
	// upvalue reaches it too: the role's own tables are read once, at load.
	walk(tbl, nil)
	// The walk from the role table marks seen what it passed through
	// without a holder; walk the frozen upvalues' values again so that a
	// table reached both ways is frozen with its local.
	clear(seen)
	for _, uv := range ups {
		loc := r.frozen[uv]
		walk(uv.Value(), &loc)
	}
	if len(r.frozen) > 0 && luavm.OK() {
		r.budget.frozen = r.frozen
		r.budget.frozenTables = r.frozenTables
	}
}

// checkFrozenUpvalue raises, on f's thread, the error of an agent's
// code assigning a frozen upvalue: f's instruction is a SETUPVAL A B,
// which stores register A in upvalue B of the running function.
// tableWork calls it while some upvalue is frozen (see setUpvalOps).
func (b *budget) checkFrozenUpvalue(f vmFrame) {
	ups := f.fn.Upvalues
	if i := int(f.inst & 0x1ff); i < len(ups) {
		if loc, ok := b.frozen[ups[i]]; ok {
			b.refuse(f.th, loc)
		}
	}
}

// checkFrozenTable raises, on f's thread, the error of an agent's code
// assigning a key of t, when t is frozen: f's instruction is a SETTABLE
// or SETTABLEKS A B C, which stores RK(C) in R(A)[RK(B)], and t is R(A).
// tableWork calls it while some table is frozen.
func (b *budget) checkFrozenTable(f vmFrame, t *lua.LTable) {
	if loc, ok := b.frozenTables[t]; ok {
		b.refuse(f.th, loc)
	}
}

// refuse raises the error of an assignment to the frozen local loc, or
// into a table it holds, unless load-time code runs (which may assign
// anything).
func (b *budget) refuse(th *lua.LState, loc frozenLocal) {
	if b.raiseShared != nil && (b.modeOf == nil || *b.modeOf != modeLoad) {
		b.raiseShared(th, loc)
	}
}

// refuseFrozen makes the built-ins that change a table given as their
// first argument (table.insert, table.remove, table.sort, rawset,
// setmetatable) refuse a frozen one in an agent's code, as an assignment
// is refused (see checkFrozenTable).
func (r *Runtime) refuseFrozen(base, tbl *lua.LTable) {
	wrap := func(lib *lua.LTable, name, qualified string) {
		inner := lib.RawGetString(name).(*lua.LFunction).GFunction
		lib.RawSetString(name, r.L.NewFunction(func(L *lua.LState) int {
			if t, ok := L.Get(1).(*lua.LTable); ok && r.mode != modeLoad {
				if loc, ok := r.frozenTables[t]; ok {
					r.raise(L, "%s: %s", qualified, sharedLocalError(loc.name, loc.file))
				}
			}
			return inner(L)
		}))
	}
	wrap(tbl, "insert", "table.insert")
	wrap(tbl, "remove", "table.remove")
	wrap(tbl, "sort", "table.sort")
	wrap(base, "rawset", "rawset")
	wrap(base, "setmetatable", "setmetatable")
}

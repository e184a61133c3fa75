package luabind

import (
	"errors"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// Peeking into gopher-lua. Three kinds of table work happen inside one VM
// instruction, out of reach of the wrapped built-ins: an assignment
// t[k] = v with an integer key far past the array's end pads the array
// with nils up to k (t[4000000] = 1 on an empty table builds 64 MiB),
// #t scans the array backwards over trailing nils, and a table
// constructor ending in a call or ... ({ unpack(t) }) appends every value
// that call returned, up to 32,768, one by one (a SETLIST instruction). gopher-lua has no hook
// for either, so the budget, which the VM asks before every instruction,
// reads the instruction about to run and its operands, and the table
// built-ins read a table's array part, through gopher-lua's unexported
// fields (package luavm). When luavm cannot read them (luavm.OK is
// false), the peeking is off.
// Opcodes of gopher-lua's VM (opcode.go): an instruction's top 6 bits.
const (
	opSetTable   = lua.OP_SETTABLE
	opSetTableKS = lua.OP_SETTABLEKS
	opGetTable   = lua.OP_GETTABLE
	opGetTableKS = lua.OP_GETTABLEKS
	opSelf       = lua.OP_SELF
	opLen        = lua.OP_LEN
	opSetList    = lua.OP_SETLIST
	opBitRK      = 1 << 8 // an RK operand with this bit names a constant
)

// tableArray returns the array part of t (integer keys 1..len, nils
// included), or nil when peeking is off.
func tableArray(t *lua.LTable) []lua.LValue { return luavm.TableArray(t) }

// trailingNils counts the nils at the end of t's array part, which #t,
// table.insert and unpack scan over, looking at most limit slots.
func trailingNils(t *lua.LTable, limit int) int {
	a := tableArray(t)
	n := 0
	for i := len(a) - 1; i >= 0 && n < limit && a[i] == lua.LNil; i-- {
		n++
	}
	return n
}

// paddingOf is how many nil slots writing t[k] would add to t's array
// part: 0 unless k is an integer past the array's end + 1 (and below
// lua.MaxArrayIndex, where gopher-lua keeps integer keys in the array).
func paddingOf(t *lua.LTable, k lua.LValue) int {
	n, ok := k.(lua.LNumber)
	if !ok || n < 2 || n >= lua.LNumber(lua.MaxArrayIndex) || n != lua.LNumber(int64(n)) {
		return 0
	}
	return max(int(n)-1-len(tableArray(t)), 0)
}

// vmFrame is the running thread's current call frame, its function and
// the instruction about to run (the VM asks the budget after fetching it).
type vmFrame struct {
	th   *lua.LState
	cf   luavm.Frame
	fn   *lua.LFunction
	inst uint32
}

// register returns register i of the frame.
func (f vmFrame) register(i int) lua.LValue { return luavm.Register(f.th, f.cf, i) }

// top returns the index, relative to the frame's base, one past the
// last value a call or ... left on the thread's stack (what a SETLIST
// with B = 0 stores up to).
func (f vmFrame) top() int {
	_, top := luavm.Stack(f.th)
	return top - f.cf.LocalBase()
}

// rk returns an RK operand: a constant when its bit is set, else a
// register.
func (f vmFrame) rk(x int) lua.LValue {
	if x&opBitRK == 0 {
		return luavm.Register(f.th, f.cf, x) // f.register, one inlined call fewer
	}
	if c, k := f.fn.Proto.Constants, x&^opBitRK; k < len(c) {
		return c[k]
	}
	return lua.LNil
}

// tableOps are the opcodes tableWork looks at, a bit each; lookupOps are
// those of a lookup, which the budget charges on the fast npc object.
const (
	tableOps  = 1<<opSetTable | 1<<opSetTableKS | 1<<opSetList | 1<<opLen
	lookupOps = 1<<opGetTable | 1<<opGetTableKS | 1<<opSelf
)

// lookupUserDataAt is the userdata that the GETTABLE, GETTABLEKS or
// SELF instruction inst of th's frame cf (already known to be a lookup,
// see budget.done) looks a key up in: the userdata in its object register,
// or nil. It is tableWork's first test, written out for the budget's
// commonest case (doneWork).
func lookupUserDataAt(th *lua.LState, cf luavm.Frame, inst uint32) *lua.LUserData {
	ud, _ := luavm.Register(th, cf, int(inst&0x1ff)).(*lua.LUserData)
	return ud
}

// callFrames returns the call frame th runs now and the one under it
// (the Lua frame that called a running Go function); both zero when the
// frames cannot be read, the parent zero when there is none.
func callFrames(th *lua.LState) (cf, parent luavm.Frame) {
	cf = luavm.CurrentFrame(th)
	if cf.IsZero() {
		return cf, cf
	}
	return cf, cf.Parent()
}

// tableWork is the table work, in slots, that the instruction th's VM is
// about to run does beyond one step: the nils an assignment pads or the
// values a constructor appends after a call (pad is true: both grow the
// array one slot at a time), or the nils a # scans, counted up to what b
// has left. It is zero for
// every other instruction, which it tells from the opcode alone.
func tableWork(th *lua.LState, b *budget) (slots int, pad bool) {
	if th == nil {
		return 0, false
	}
	cf := luavm.CurrentFrame(th)
	if cf.IsZero() {
		return 0, false
	}
	f, ok := frameAt(th, cf) // runningFrame, inline: this is the budget's path
	if !ok {
		return 0, false
	}
	switch int(f.inst >> 26) {
	case opGetTable, opGetTableKS, opSelf:
		// A lookup on the fast npc object costs what npcIndex charges.
		if b.fastMeta != nil {
			switch obj := f.register(int(f.inst & 0x1ff)).(type) {
			case *lua.LUserData:
				if isTable(obj.Metatable, b.fastMeta) {
					b.n += accessUnits
				} else if obj == b.fastState && isTable(obj.Metatable, b.fastStateMeta) {
					// A read of the fast npc.state costs what stateIndex
					// charges, and sees the agent's state as it is now.
					b.n += accessUnits
					b.mirror.sync(b.fastAgent)
				}
			case *lua.LTable:
				if obj.Metatable != lua.LNil && obj.Metatable != nil {
					b.chainWork(f, obj)
				}
			}
		}
	case lua.OP_SETUPVAL:
		b.checkFrozenUpvalue(f) // only while some upvalue is frozen (see setUpvalOps)
	case opSetTable, opSetTableKS:
		if len(b.frozenTables) != 0 {
			if t, ok := f.register(int(f.inst>>18) & 0xff).(*lua.LTable); ok {
				b.checkFrozenTable(f, t)
			}
		}
		if b.fastState != nil {
			b.stateWriteWork(f)
		}
		if int(f.inst>>26) == opSetTableKS {
			return 0, false
		}
		slots, pad, t := setTableWork(f)
		if slots > 0 {
			b.padTable = t // doneSlow pads it when the budget affords it
		}
		return slots, pad
	case opSetList:
		// SETLIST A B C stores B values after register A (B = 0: all up to
		// the stack's top), at most FieldsPerFlush (50) otherwise. Each
		// value is charged as two appended slots (4 units, 64 bytes): the
		// appends, the growing array's copies and the collection of the
		// list took about 80 ns of CPU per value in bench's HostileResume
		// (body=unpack_table) against 12 ns per instruction.
		if f.inst&0x1ff == 0 {
			return 2 * max(f.top()-int(f.inst>>18)&0xff-1, 0), true
		}
	case opLen:
		if t, ok := f.rk(int(f.inst & 0x1ff)).(*lua.LTable); ok && !hasMeta(t, "__len") {
			return trailingNils(t, b.slotsLeft()), false
		}
	}
	return 0, false
}

// runningFrame is th's current call frame read (frameAt), and false when
// it cannot be: peeking off, no frame, or a Go function's frame.
func runningFrame(th *lua.LState) (vmFrame, bool) {
	if cf := luavm.CurrentFrame(th); !cf.IsZero() {
		return frameAt(th, cf)
	}
	return vmFrame{}, false
}

// frameAt reads the Lua call frame cf of th with the instruction it runs
// (the one before its pc); ok is false for a Go function's frame or a pc
// outside its code.
func frameAt(th *lua.LState, cf luavm.Frame) (f vmFrame, ok bool) {
	fn := cf.Function()
	if fn == nil || fn.Proto == nil {
		return vmFrame{}, false
	}
	pc, code := cf.PC(), fn.Proto.Code
	if pc < 1 || pc > len(code) {
		return vmFrame{}, false
	}
	return vmFrame{th: th, cf: cf, fn: fn, inst: code[pc-1]}, true
}

// isTable reports whether v is the table t, comparing pointers (an
// interface comparison is a call).
func isTable(v lua.LValue, t *lua.LTable) bool {
	p, ok := v.(*lua.LTable)
	return ok && p == t
}

// lookupTarget is the userdata a GETTABLE, GETTABLEKS or SELF instruction
// of the frame looks a key up in, or nil (another instruction, or a
// lookup in something else).
func (f vmFrame) lookupTarget() *lua.LUserData {
	switch int(f.inst >> 26) {
	case opGetTable, opGetTableKS, opSelf:
		ud, _ := f.register(int(f.inst & 0x1ff)).(*lua.LUserData)
		return ud
	}
	return nil
}

// setTableWork is the padding a SETTABLE instruction's write would do,
// and the table it writes to.
func setTableWork(f vmFrame) (int, bool, *lua.LTable) {
	// Only a number key pads or appends (t.name = v, the commonest
	// assignment, is SETTABLE too: see unboxFieldKeys).
	k, ok := f.rk(int(f.inst & 0x1ff)).(lua.LNumber)
	if !ok {
		return 0, false, nil
	}
	t, ok := f.register(int(f.inst>>18) & 0xff).(*lua.LTable)
	if !ok || hasMeta(t, "__newindex") {
		return 0, false, nil
	}
	if n := paddingOf(t, k); n > 0 {
		return n, true, t
	}
	if appendsPastArray(t, k) {
		return listTooLong, true, nil
	}
	return 0, false, nil
}

// listTooLong is what tableWork returns for an append past the array
// part's last slot.
const listTooLong = -1

// appendsPastArray reports whether writing t[k] appends to a list whose
// array part is full: gopher-lua would put the item in the hash part,
// where #t and ipairs do not see it, so the sandbox refuses it.
func appendsPastArray(t *lua.LTable, k lua.LValue) bool {
	n, ok := k.(lua.LNumber)
	return ok && n == lua.LNumber(lua.MaxArrayIndex) && len(tableArray(t)) == lua.MaxArrayIndex-1
}

// errListTooLong is the error of such an append.
func errListTooLong() error {
	return errors.New("list too long: more than " + strconv.Itoa(lua.MaxArrayIndex-1) +
		" items, where #t would stop counting (keep fewer, or use keys that are not a list's)")
}

// hasMeta reports whether t has the metamethod event (__newindex takes
// the assignment of a new key instead of the array, __len takes #).
func hasMeta(t *lua.LTable, event string) bool {
	mt, ok := t.Metatable.(*lua.LTable)
	return ok && mt.RawGetString(event) != lua.LNil
}

// calledFromCode reports, for a coroutine th running a Go function, whether
// every frame on th's call stack below it was entered by a CALL or
// TAILCALL instruction of the Lua frame under it, back to the frame the
// coroutine started with: the VM ran the whole chain in one instruction
// loop. A metamethod (__index, __lt, ...), a generic for's iterator and a
// Lua function that a Go function calls run in a nested loop, which a
// yield cannot suspend: their frame's parent is a Go function's frame or
// a Lua frame stopped at another instruction. ok is false when the
// frames cannot be read (peeking is off, or a frame looks wrong); the
// caller then asks the Go call stack instead.
func calledFromCode(th *lua.LState) (yes, ok bool) {
	f := luavm.CurrentFrame(th)
	for depth := 0; !f.IsZero(); depth++ {
		p := f.Parent()
		if p.IsZero() {
			return true, true
		}
		if depth > callStackSize+2 {
			return false, false
		}
		fn := p.Function()
		if fn == nil {
			return false, false
		}
		if fn.IsG {
			return false, true // a Go function called the frame above it
		}
		pc, code := p.PC(), fn.Proto.Code
		if pc < 1 || pc > len(code) {
			return false, false
		}
		if op := int(code[pc-1] >> 26); op != lua.OP_CALL && op != lua.OP_TAILCALL {
			return false, true
		}
		f = p
	}
	return false, false
}

// padYieldTargets sets to lua.LNil the registers that the call th is
// suspended in (a yield, or the sandbox's pcall of a function that
// yielded) wants as results, from th's stack top up: gopher-lua pushes a
// resume's values where that call's results go and leaves the registers
// past them as Go nils, which it allows only above the top. So `local a,
// b = coroutine.yield()` resumed with one value left b a Go nil, and the
// first use of b panicked in the VM ("invalid memory address or nil
// pointer dereference") where stock Lua gives nil. A call that takes
// every result (`f(coroutine.yield())`) gets as many as it was resumed
// with and needs nothing. Writing nil above the top is always harmless,
// so a frame this does not recognise is left alone.
func padYieldTargets(th *lua.LState) {
	cf := luavm.CurrentFrame(th)
	if cf.IsZero() {
		return
	}
	fn := cf.Function()
	if fn == nil || fn.IsG || fn.Proto == nil {
		return
	}
	pc, code := cf.PC(), fn.Proto.Code
	if pc < 1 || pc > len(code) {
		return
	}
	inst := code[pc-1]
	nret := int(inst>>9)&0x1ff - 1 // C - 1; C = 0 takes every result
	if int(inst>>26) != lua.OP_CALL || nret <= 0 {
		return
	}
	arr, top := luavm.Stack(th)
	end := min(cf.LocalBase()+int(inst>>18)&0xff+nret, len(arr))
	for i := max(top, 0); i < end; i++ {
		if arr[i] == nil {
			arr[i] = lua.LNil
		}
	}
}

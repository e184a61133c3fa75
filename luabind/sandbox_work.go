package luabind

import (
	"math/bits"
	"strconv"

	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"

	lua "github.com/yuin/gopher-lua"
)

// Work units. The budget of one resume or callback is counted in work
// units: one VM instruction is one unit, and a built-in whose cost grows
// with its input or output charges that work before doing it, so one
// resume's CPU time is bounded whatever the script calls.
const (
	// bytesPerUnit is how many bytes a built-in copies, builds or scans for
	// one work unit: copying 64 bytes takes a few nanoseconds, far less
	// than the 20-50 ns of one VM instruction, so the charge is on the
	// safe side.
	bytesPerUnit = 64
	// itemsPerUnit is how many table slots a built-in moves or reads for
	// one work unit (table.insert in the middle of a list, unpack).
	itemsPerUnit = 4
	// hostCallUnits is what starting one call of a host method costs, on
	// top of one unit per argument (the host's own Go work is the game's
	// to bound: it runs outside Lua).
	hostCallUnits = 16
	// coroutineUnits is what creating one coroutine costs: gopher-lua
	// builds a whole Lua state, about 12 KB in 23 allocations, and with
	// the collection that follows one create took 8-9 µs of CPU in
	// bench's HostileResume (body=coroutines) where a plain instruction
	// took 12 ns: 512 units keeps a budget spent on creates within about
	// 1.5 times one spent on instructions (32 units let it run 20 times
	// as long, past 100 ms).
	coroutineUnits = 512
	// coroutineBytes is what creating one coroutine charges to the memory
	// meter (what gopher-lua allocates for it).
	coroutineBytes = 12 << 10
	// formatSpecUnits is what each conversion of string.format costs on
	// top of the bytes it may build: gopher-lua formats each one through
	// Go's fmt, and a call with two took 1.5-2 µs of CPU in bench's
	// HostileResume (body=format) against 12 ns per instruction.
	formatSpecUnits = 32
	// transformBytesPerUnit is how many bytes string.upper, lower and
	// reverse transform for one work unit: they build their result a byte
	// (or a rune) at a time, 2-2.5 ns of CPU per byte with the collection
	// of the result in bench's HostileResume (body=upper, body=reverse),
	// so a unit per 64 bytes let a spent budget run 50-80 ms.
	transformBytesPerUnit = 8
	// accessUnits is what one read of an npc field (npc.state, npc.facts,
	// npc.name; not a method's lookup, see npcIndex) and one read or write
	// of npc.state.x costs: each is a Go
	// metamethod call, and npc.state.n = npc.state.n + 1 in a loop (four of
	// them) took about 780 ns of CPU per iteration in bench's
	// HostileResume (body=host) against 12 ns per instruction, so a
	// budget spent on them ran 50-80 ms when they cost nothing extra.
	accessUnits = 8
	// unitsPerAppendedSlot is what each value costs that a table
	// constructor ending in a call or ... appends (see tableWork).
	unitsPerAppendedSlot = 2
)

// bytesWork is the work of building, copying or scanning n bytes.
func bytesWork(n int) int64 { return int64(n)/bytesPerUnit + 1 }

// itemsWork is the work of moving or reading n table slots.
func itemsWork(n int) int64 { return int64(max(n, 0))/itemsPerUnit + 1 }

// appendWork is the work of appending n values to a list one at a time,
// growing the array as it goes (a SETLIST after a call): 80 ns of CPU per
// value with the collection of the list, so two units each.
func appendWork(n int) int64 { return unitsPerAppendedSlot * int64(max(n, 0)) }

// padWork is the work of padding a list with n nils, charged as building
// their 16 bytes each (bytesWork: a unit per 4 slots). gopher-lua would
// append them one at a time (90-160 ns of CPU per slot on the busy dev
// box); the sandbox pads the array in one allocation before the write
// (luavm.PadArray): 12-18 ns of CPU per slot with the collection of the
// array in bench's LuaTablePad. t[700000] = v on an empty table costs
// 175,000 units.
func padWork(n int) int64 { return bytesWork(16 * max(n, 0)) }

// padBytes is what padding t's list part with n nils and writing the key
// after them counts against the memory limit: 16 bytes a slot of the
// list it makes, twice (the old list is copied, and the collector lets
// the heap grow to about twice what is live before it runs).
func padBytes(t *lua.LTable, n int) int64 { return 32 * int64(len(tableArray(t))+n+1) }

// errPadding is the memory error of a write of key far past the end of a
// list (what: "the assignment", "rawset", "table.insert").
func errPadding(limit, held int64, what string, key int) error {
	return memoryExceeded(limit, what+" of key "+strconv.Itoa(key)+" would pad a list with nils up to it (an integer key from 1 to "+
		strconv.Itoa(lua.MaxArrayIndex-1)+" is kept in a table's list part, with a slot for every smaller key: "+
		"keep sparse ids in strings or numbers past that range), on top of the "+mib(held)+" the body holds")
}

// charge adds units of work done by a built-in to the running budget and
// raises the budget error once the budget is spent. It is called before
// the work, so a call the budget cannot afford does not start. Outside a
// budgeted call (Options.InstructionBudget < 0, or Go code calling Lua
// without a budget) it does nothing.
func (r *Runtime) charge(L *lua.LState, units int64) {
	b := r.budget
	if !b.armed {
		return
	}
	b.n += units
	if b.spent == nil && b.limit > 0 && b.n > b.limit {
		b.spend(b.overrun())
	}
	if b.spent != nil {
		L.RaiseError("%s", b.spent.Error())
	}
}

// chargeBytes is charge for building a string or table of n bytes: the
// work, and the memory that the running agent's meter counts.
func (r *Runtime) chargeBytes(L *lua.LState, n int) {
	r.charge(L, bytesWork(n))
	r.allocate(L, int64(n))
}

// chargeCoroutine charges the creation of a coroutine (coroutine.create,
// wrap, a new pcall worker), a whole Lua state, to the budget and the
// memory meter before it happens.
func (r *Runtime) chargeCoroutine(L *lua.LState) {
	r.charge(L, coroutineUnits)
	r.allocate(L, coroutineBytes)
}

// cost wraps the Go functions of a library with a charge computed from
// their arguments before they run.
func (r *Runtime) cost(t *lua.LTable, work map[string]func(L *lua.LState) int64) {
	for name, units := range work {
		orig := t.RawGetString(name).(*lua.LFunction).GFunction
		t.RawSetString(name, r.L.NewFunction(func(L *lua.LState) int {
			r.charge(L, units(L))
			return orig(L)
		}))
	}
}

// lenWork is the work of finding #t: gopher-lua scans the nils at the end
// of t's array part, one by one. It is charged before the scan; the count
// stops once the budget left is spent.
func (r *Runtime) lenWork(t *lua.LTable) int64 {
	n := trailingNils(t, r.budget.slotsLeft())
	if n == 0 {
		return 0
	}
	return itemsWork(n)
}

// gapWork is the work of next(t, k): gopher-lua scans t's array part
// from k over nils to the next item, one by one.
func (r *Runtime) gapWork(t *lua.LTable, k lua.LValue) int64 {
	a := tableArray(t)
	i := 0
	if k != lua.LNil {
		n, ok := k.(lua.LNumber)
		if !ok || n < 1 || n > lua.LNumber(len(a)) || n != lua.LNumber(int64(n)) {
			return 1
		}
		i = int(n)
	}
	limit := r.budget.slotsLeft()
	gap := 0
	for ; i < len(a) && gap < limit && a[i] == lua.LNil; i++ {
		gap++
	}
	return itemsWork(gap)
}

// chargePadding charges a built-in's write n slots past the end of t's
// list part (table.insert(t, 4000000, v), rawset), which pads it with n
// nils, to the budget and the memory meter before it happens, as
// budget.chargePad charges an assignment, and pads it at once.
func (r *Runtime) chargePadding(L *lua.LState, what string, t *lua.LTable, n int) {
	if b := r.budget; b.armed && b.mem.limit > 0 && b.mem.held+b.mem.alloc+padBytes(t, n) > b.mem.limit {
		err := errPadding(b.mem.limit, b.mem.held, what, len(tableArray(t))+n+1)
		b.spend(err)
		r.raise(L, "%s", err.Error())
	}
	r.allocate(L, padBytes(t, n))
	r.charge(L, padWork(n))
	luavm.PadArray(t, n)
}

// strArgWork is the work of a string function that reads or copies its
// first argument once (upper, lower, reverse, len-like scans).
func strArgWork(L *lua.LState) int64 {
	if s, ok := L.Get(1).(lua.LString); ok {
		return bytesWork(len(s))
	}
	return 1
}

// transformWork is the work of upper, lower and reverse: a unit per
// transformBytesPerUnit bytes of their first argument.
func transformWork(L *lua.LState) int64 {
	if s, ok := L.Get(1).(lua.LString); ok {
		return int64(len(s))/transformBytesPerUnit + 1
	}
	return 1
}

// chargeLibraries wraps the string, table and base functions whose cost
// grows with their input or output. The pattern functions, string.rep,
// string.format, table.concat and the .. operator charge in their own
// checked versions (sandbox_strlimits.go, sandbox.go).
func (r *Runtime) chargeLibraries(base, str, tbl *lua.LTable) {
	r.cost(str, map[string]func(*lua.LState) int64{
		"upper":   transformWork,
		"lower":   transformWork,
		"reverse": transformWork,
		"sub": func(L *lua.LState) int64 {
			// The result is at most the subject.
			return strArgWork(L)
		},
		"byte": func(L *lua.LState) int64 {
			// One pushed value per byte of the range; a range past the
			// stack's end is an ordinary Lua error.
			i, j := L.OptInt(2, 1), L.OptInt(3, L.OptInt(2, 1))
			s, _ := L.Get(1).(lua.LString)
			if j < 0 {
				j += len(s) + 1
			}
			j = min(j, len(s))
			if i < 0 {
				i += len(s) + 1
			}
			return itemsWork(j - max(i, 1) + 1)
		},
		"char": func(L *lua.LState) int64 { return itemsWork(L.GetTop()) },
	})
	r.cost(tbl, map[string]func(*lua.LState) int64{
		"insert": func(L *lua.LState) int64 {
			// An insert at a position moves the items after it, and one
			// past the list's end pads it with nils.
			t, ok := L.Get(1).(*lua.LTable)
			if !ok {
				return 1
			}
			w := r.lenWork(t)
			if L.GetTop() == 2 && appendsPastArray(t, lua.LNumber(t.Len()+1)) {
				r.raise(L, "table.insert: %s", errListTooLong().Error())
			}
			if L.GetTop() >= 3 {
				pos := L.OptInt(2, 1)
				if appendsPastArray(t, lua.LNumber(pos)) {
					r.raise(L, "table.insert: %s", errListTooLong().Error())
				}
				if pad := paddingOf(t, lua.LNumber(pos)); pad > 0 {
					r.chargePadding(L, "table.insert", t, pad)
				}
				w += itemsWork(t.Len() - pos)
			}
			return w
		},
		"remove": func(L *lua.LState) int64 {
			if t, ok := L.Get(1).(*lua.LTable); ok {
				n := t.Len()
				return r.lenWork(t) + itemsWork(n-L.OptInt(2, n))
			}
			return 1
		},
		"sort": func(L *lua.LState) int64 {
			// n log n comparisons; a Lua comparator's own instructions
			// count on top.
			if t, ok := L.Get(1).(*lua.LTable); ok {
				w := r.lenWork(t)
				n := t.Len()
				cmps := n * bits.Len(uint(n))
				w += itemsWork(cmps) * 2
				// gopher-lua compares two strings a byte at a time: a
				// list of long strings costs their length per comparison.
				if long := longestString(t, n); long > numberTextBytes {
					w += int64(cmps) * textWork(long)
				}
				return w
			}
			return 1
		},
		"getn": func(L *lua.LState) int64 {
			// #t: a scan of the nils at the end of t's array part.
			if t, ok := L.Get(1).(*lua.LTable); ok {
				return r.lenWork(t) + 1
			}
			return 1
		},
		"maxn": func(L *lua.LState) int64 {
			if t, ok := L.Get(1).(*lua.LTable); ok {
				return itemsWork(len(tableArray(t)))
			}
			return 1
		},
	})
	r.cost(base, map[string]func(*lua.LState) int64{
		"unpack": func(L *lua.LState) int64 {
			t, ok := L.Get(1).(*lua.LTable)
			if !ok {
				return 1
			}
			w := r.lenWork(t)
			i := L.OptInt(2, 1)
			j := L.OptInt(3, t.Len())
			if j-i >= maxUnpackCount || j < i {
				// More values than the stack holds (gopher-lua would grow it
				// past its maximum: say so before it does), or none (j < i).
				if j >= i {
					L.RaiseError("too many results to unpack (%d; at most %d)", uint64(j-i)+1, maxUnpackCount)
				}
				return 1
			}
			return w + itemsWork(j-i+1)
		},
		"select": func(L *lua.LState) int64 { return itemsWork(L.GetTop()) },
		"tostring": func(L *lua.LState) int64 {
			if s, ok := L.Get(1).(lua.LString); ok {
				return bytesWork(len(s))
			}
			return 1
		},
		"tonumber": strArgWork,
	})
}

// numberTextBytes is the longest string argument a math function reads
// for free: a number written as text is shorter.
const numberTextBytes = 64

// textWork is the work of reading n bytes a byte at a time in Go (parsing
// a number, gopher-lua's string comparison): 1-6 ns a byte, so a unit per
// transformBytesPerUnit bytes.
func textWork(n int) int64 { return int64(n)/transformBytesPerUnit + 1 }

// chargeNumberText wraps every function of the math library with a charge
// for the string arguments it converts to numbers: a string of 4 MiB
// digits took about 25 ms to parse (and to refuse), so each longer than
// numberTextBytes costs textWork. Numbers cost nothing extra.
func (r *Runtime) chargeNumberText(math *lua.LTable) {
	work := map[string]func(*lua.LState) int64{}
	math.ForEach(func(k, v lua.LValue) {
		if f, ok := v.(*lua.LFunction); ok && f.IsG {
			work[k.String()] = numberTextWork
		}
	})
	r.cost(math, work)
}

// numberTextWork is the work of converting the long string arguments of a
// call to numbers.
func numberTextWork(L *lua.LState) int64 {
	var w int64
	for i := 1; i <= L.GetTop(); i++ {
		if s, ok := L.Get(i).(lua.LString); ok && len(s) > numberTextBytes {
			w += textWork(len(s))
		}
	}
	return w
}

// longestString is the length of the longest string among t[1..n].
func longestString(t *lua.LTable, n int) int {
	long := 0
	for i := 1; i <= n; i++ {
		if s, ok := t.RawGetInt(i).(lua.LString); ok {
			long = max(long, len(s))
		}
	}
	return long
}

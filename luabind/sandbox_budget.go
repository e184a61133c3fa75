package luabind

import (
	"errors"
	"math"
	"strconv"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// Budget defaults; see Options.
const (
	// DefaultInstructionBudget is the work units (Lua VM instructions plus
	// the work built-ins charge) one resume or callback may spend when
	// Options.InstructionBudget is zero: 500,000, about 10-25 ms of one
	// core at the 20-50 ns per instruction measured in bench/README.md
	// ("Lua binding", "Sandbox"). It stops runaway loops; a well-behaved
	// body uses a few hundred units per tick.
	DefaultInstructionBudget = 500_000
	// DefaultMaxStringBytes is the longest string the sandbox lets a script
	// build with string.rep, string.format, string.gsub, table.concat or
	// the .. operator when
	// Options.MaxStringBytes is zero: 16 MiB.
	DefaultMaxStringBytes = 16 << 20
	// timeCheckEvery is how many instructions pass between two reads of
	// the clock when Options.TimeBudget is set (a power of two).
	timeCheckEvery = 1024
)

// closedChan is returned by budget.Done once the budget is spent, so the
// VM raises an error at the next instruction (and at every one after it, so
// a pcall cannot swallow the stop).
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// budget is the context.Context every LState of a Runtime carries.
// gopher-lua calls Done before each VM instruction (mainLoopWithContext),
// so Done counts instructions: no timer, no goroutine, and the count is
// deterministic. It is armed for one resume or callback at a time and
// disarmed (Done returns nil at once) between them.
type budget struct {
	limit int64 // instructions per arming; <= 0 means no limit
	// stop is the count past which done leaves its common case: limit,
	// or never; -1 (at once) while disarmed, once spent, and with a
	// time budget (whose clock is read every timeCheckEvery instructions).
	stop int64
	// workOps are the opcodes (a bit each) whose instructions done hands
	// to doneSlow: tableOps, and lookupOps while an npc object is fast.
	workOps   uint64
	timeLimit time.Duration
	n         int64
	start     time.Time
	armed     bool
	spent     error // why the budget stopped the script, once it did
	mem       memoryWatch
	measure   func(stop int64) int64 // what the running code holds (Runtime.measureRunning)
	where     func() string          // the running script's "file:line: " (Runtime.runningWhere)
	spentAt   string                 // where the budget was spent
	padTable  *lua.LTable            // the table the instruction tableWork read pads (see chargePad)
	main      *lua.LState            // the runtime's main thread, whose next instruction Done reads (luavm.NextInstruction)
	fastMeta  *lua.LTable            // the metatable of the fast npc object, whose lookups Done charges (see promote)
	// fastState is the fast npc.state of the running agent (nil when
	// none) and mirror its lookup table, which Done keeps exact before
	// each read and charges the read (see npc_statemirror.go).
	fastState     *lua.LUserData
	fastStateMeta *lua.LTable
	mirror        *stateMirror
	fastAgent     *engine.Agent
	// npcMeta and stateMeta are the ordinary metatables of npc objects
	// and npc.state; slowed is the fast one slowOnce gave its ordinary
	// metatable for one lookup, and slowedFast the metatable to give back.
	npcMeta, stateMeta *lua.LTable
	slowed             *lua.LUserData
	slowedFast         lua.LValue
	// modeOf is the runtime's mode, which says whether npc.state is
	// writable now (fastWrite).
	modeOf *mode
	// fastWrites says the fast npc.state's writes go to the mirror table,
	// done by the budget's check (fastWrite).
	fastWrites bool
	// callLimit is Options.InstructionBudget, the limit of every arming;
	// tickCut is set while armTick lowered limit to what is left of the
	// agent's tick budget (Options.TickBudget). (Last, so that the fields
	// the per-instruction check reads keep their places.)
	callLimit int64
	tickCut   bool
	// frozen are the upvalues of the role files' frozen top-level locals
	// and frozenTables the tables they reach (freezeRole), both nil while
	// there are none; raiseShared raises the error of an agent's
	// assignment to one (see checkFrozenUpvalue).
	frozen       map[*lua.Upvalue]frozenLocal
	frozenTables map[*lua.LTable]frozenLocal
	raiseShared  func(th *lua.LState, loc frozenLocal)
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

// Done is called by the VM of the main thread before each instruction.
func (b *budget) Done() <-chan struct{} { return b.done(b.main) }

// done is Done for thread th (ownedCtx.Done is the same for a
// coroutine). Its common case, an instruction that does no table work
// while the budget is armed, nothing is spent, no collection has run and
// no clock is read, is a few loads and compares: a disarmed or spent
// budget has stop -1, so the count test sends it to doneSlow, and the
// next opcode is read inline (luavm.NextInstruction, which finds the
// frame and instruction only when its opcode is one of workOps, and
// which doneWork goes on from instead of reading the frame again).
// Everything else is in doneSlow.
func (b *budget) done(th *lua.LState) <-chan struct{} {
	b.n++
	if b.n > b.stop || gcWatch.cycles.Load() != b.mem.cycles {
		return b.doneSlow(th)
	}
	if cf, inst := luavm.NextInstruction(th, b.workOps); !cf.IsZero() {
		return b.doneWork(th, cf, inst)
	}
	return nil
}

// doneWork is done for instruction inst of th's frame cf, which done
// picked (a table instruction, or a lookup while an npc object is fast)
// in done's common case (armed, nothing spent, no clock, no collection
// since the last look, the count at most the stop): the commonest, a
// lookup on the fast npc object or npc.state, is charged here as
// tableWork charges it, from the instruction done read; the rest goes to
// doneSlow. b.n already counts the instruction.
func (b *budget) doneWork(th *lua.LState, cf luavm.Frame, inst uint32) <-chan struct{} {
	if b.fastMeta != nil && lookupOps>>(inst>>26)&1 != 0 {
		if ud := lookupUserDataAt(th, cf, inst); ud != nil {
			switch {
			case isTable(ud.Metatable, b.fastMeta):
				b.n += accessUnits
				return b.afterLookup()
			case ud == b.fastState && isTable(ud.Metatable, b.fastStateMeta):
				b.n += accessUnits
				b.mirror.sync(b.fastAgent)
				return b.afterLookup()
			}
		}
	}
	return b.doneSlow(th)
}

// doneSlow is done past its common case; b.n already counts the
// instruction. A disarmed or spent budget sends every instruction here
// (stop is -1, see spend and disarm); a lookup on the fast npc object or
// npc.state that arrives here (past the stop, or after a collection) is
// charged by tableWork, as doneWork charges it.
func (b *budget) doneSlow(th *lua.LState) <-chan struct{} {
	if !b.armed {
		b.n-- // a disarmed budget counts nothing
		return nil
	}
	if b.spent != nil {
		b.n-- // a spent budget counts no more instructions
		return closedChan
	}
	b.watchHeap()
	if slots, pad := tableWork(th, b); slots > 0 {
		if t := b.padTable; t != nil {
			b.padTable = nil
			b.chargePad(t, slots)
		} else {
			b.chargeSlots(slots, pad)
		}
	} else if slots == listTooLong && b.spent == nil {
		b.spend(errListTooLong())
	}
	if b.spent == nil && b.limit > 0 && b.n > b.limit {
		b.spend(b.overrun())
	}
	if b.spent != nil {
		if b.where != nil {
			b.spentAt = b.where()
		}
		return closedChan
	}
	if b.timeLimit > 0 && b.n&(timeCheckEvery-1) == 0 && time.Since(b.start) > b.timeLimit {
		b.spend(errors.New("time budget exceeded: ran longer than " + b.timeLimit.String() +
			" in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.TimeBudget)"))
		return closedChan
	}
	return nil
}

// afterLookup is doneSlow's end for a lookup charged on the fast npc
// object or npc.state: the instruction limit's check.
func (b *budget) afterLookup() <-chan struct{} {
	if b.limit > 0 && b.n > b.limit {
		return b.lookupOverrun()
	}
	return nil
}

// lookupOverrun is afterLookup past the limit: the budget is spent here.
func (b *budget) lookupOverrun() <-chan struct{} {
	b.spend(b.overrun())
	if b.where != nil {
		b.spentAt = b.where()
	}
	return closedChan
}

// slotsLeft is how many table slots the budget left can still pay for
// (at least one more than it can, so a scan that stops there spends it).
func (b *budget) slotsLeft() int {
	if b.limit <= 0 {
		return int(^uint(0) >> 1)
	}
	return int(max(b.limit-b.n, 0))*itemsPerUnit + 1
}

// chargeSlots charges the work of appending (pad: a table constructor
// after a call) or scanning n table slots, and the memory of n appended
// slots (16 bytes each, and as much again while the array grows), to the
// armed budget, spending it when either limit is passed.
func (b *budget) chargeSlots(n int, pad bool) {
	if pad {
		b.n += appendWork(n)
	} else {
		b.n += itemsWork(n)
	}
	if b.spent == nil && b.limit > 0 && b.n > b.limit {
		b.spend(b.overrun())
		return
	}
	if !pad {
		return
	}
	bytes := 32 * int64(n)
	b.mem.alloc += bytes
	if b.spent == nil && b.mem.limit > 0 && b.mem.held+b.mem.alloc > b.mem.limit {
		b.spend(memoryExceeded(b.mem.limit, "one table operation would grow a list by "+mib(16*int64(n))+", on top of the "+mib(b.mem.held)+" the body holds"))
	}
}

// chargePad charges a write n slots past the end of t's array part (an
// assignment t[k] = v with k far past #t, which gopher-lua keeps in the
// array) like any other growth of a table: the list it makes (padBytes)
// to the memory limit and its work (padWork) to the budget, before it
// happens; when both afford it, the array is padded at once
// (luavm.PadArray), so the write itself is one append.
func (b *budget) chargePad(t *lua.LTable, n int) {
	b.mem.alloc += padBytes(t, n)
	if b.spent == nil && b.mem.limit > 0 && b.mem.held+b.mem.alloc > b.mem.limit {
		b.spend(errPadding(b.mem.limit, b.mem.held, "the assignment", len(tableArray(t))+n+1))
		return
	}
	b.n += padWork(n)
	if b.spent == nil && b.limit > 0 && b.n > b.limit {
		b.spend(b.overrun())
		return
	}
	if b.spent == nil {
		luavm.PadArray(t, n)
	}
}

// spend stops the armed budget with err: every instruction from now on
// leaves done's common case and raises err.
func (b *budget) spend(err error) {
	b.spent = err
	b.stop = -1
}

// overrun is the error of a spent instruction budget.
func (b *budget) overrun() error {
	if b.tickCut {
		return errors.New(tickExceeded + ": this agent's scripts spent more than their budget for one tick " +
			"(sensors, conditions, guards, triggers, considerations, bodies and intentions together; see the tick-budget record and luabind.Options.TickBudget)")
	}
	return errors.New("instruction budget exceeded: more than " + strconv.FormatInt(b.limit, 10) +
		" work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)")
}

// Err is read by the VM after Done returned a closed channel.
func (b *budget) Err() error { return b.spent }

// arm starts a budget for one resume or callback; it reports false when
// one is already running (a nested call shares the outer budget).
func (b *budget) arm() bool {
	if b.armed {
		return false
	}
	b.armed, b.n, b.spent, b.spentAt = true, 0, nil, ""
	switch {
	case b.timeLimit > 0:
		b.stop = -1 // every instruction may read the clock
	case b.limit > 0:
		b.stop = b.limit
	default:
		b.stop = math.MaxInt64
	}
	if luavm.OK() {
		b.workOps |= tableOps // luavm.NextInstruction reads no frame while workOps is 0
		if b.frozen != nil {
			b.workOps |= setUpvalOps
		}
	}
	b.mem.alloc, b.mem.held = 0, 0
	b.mem.live0, b.mem.cycles, b.mem.allocs0 = gcWatch.live.Load(), gcWatch.cycles.Load(), 0
	if b.timeLimit > 0 {
		b.start = time.Now()
	}
	return true
}

// disarm ends the arming; until the next, done counts nothing (its
// common case leaves at once for doneSlow, stop being -1).
func (b *budget) disarm() { b.armed, b.stop = false, -1 }

// mode says what kind of script code runs now.
type mode uint8

const (
	modeLoad          mode = iota // a role file's or module's top level
	modeBody                      // an action body (run), a coroutine
	modeInterrupt                 // an on_interrupt handler
	modeSensor                    // a sensor's run
	modeCondition                 // a named condition's test
	modeCallback                  // a function called through Runtime.Call
	modeConsideration             // a consideration function
	modeTrigger                   // a reactive plan's trigger
	modeGuard                     // a reactive plan's guard
	modeFilter                    // a function filter of npc:wait_event
)

func (m mode) String() string {
	switch m {
	case modeBody:
		return "an action body"
	case modeInterrupt:
		return "on_interrupt"
	case modeSensor:
		return "a sensor"
	case modeCondition:
		return "a condition"
	case modeCallback:
		return "a callback"
	case modeConsideration:
		return "a consideration"
	case modeTrigger:
		return "a plan's trigger"
	case modeGuard:
		return "a plan's guard"
	case modeFilter:
		return "a wait_event filter"
	}
	return "a script's top level"
}

// readOnly reports whether npc.state is read-only in this mode: conditions
// and considerations are predicates and must not change the agent.
func (m mode) readOnly() bool { return m >= modeCondition }

// waitsNever reports whether code of this mode runs to its end inside
// one Go call of the tick (everything but a body and a role file's top
// level, which has its own message), so it can never wait or yield.
func (m mode) waitsNever() bool { return m >= modeInterrupt }

// enter arms the budget and makes agent the current one (the only agent
// whose npc object scripts may use) in mode m; the returned function
// undoes all three.
func (r *Runtime) enter(agent *engine.Agent, m mode) func() {
	s := r.begin(agent, m)
	return func() { r.end(s) }
}

// scope is what begin saved and end restores.
type scope struct {
	agent *engine.Agent
	mode  mode
	armed bool
	calls int
}

// begin is enter without the closure, for the per-tick resume.
func (r *Runtime) begin(agent *engine.Agent, m mode) scope {
	s := scope{agent: r.current, mode: r.mode, armed: r.budget.arm(), calls: len(r.goCalls)}
	if s.armed {
		r.errorWhere = ""
	}
	if r.site.kind != siteNone {
		r.beginTick(agent, s.armed)
	}
	if r.fast != nil && agent != r.fastRef.a {
		r.demote()
	}
	r.current, r.mode = agent, m
	return s
}

func (r *Runtime) end(s scope) {
	if r.fast != nil && s.agent != r.fastRef.a {
		r.demote()
	}
	r.current, r.mode = s.agent, s.mode
	if s.armed {
		if r.armedTick != nil {
			r.endTick(r.tickAgent, r.armedTick)
		}
		r.budget.disarm()
	}
	clear(r.goCalls[s.calls:])
	r.goCalls = r.goCalls[:s.calls]
}

// Call runs a Lua function of a loaded script for agent under the
// runtime's budget and returns its results; it is how a consideration or
// another Go-side callback calls into Lua. agent may be nil (the function
// then cannot use any npc object); npc.state is read-only during the call
// and npc:wait is refused. A Lua error, a spent budget
// or a Go panic in a host function comes back as an error reading
// "file:line: message". Not safe for concurrent use, like the Runtime.
func (r *Runtime) Call(agent *engine.Agent, fn *lua.LFunction, nret int, args ...lua.LValue) ([]lua.LValue, error) {
	return r.call(agent, modeCallback, fn, nret, args...)
}

func (r *Runtime) call(agent *engine.Agent, m mode, fn *lua.LFunction, nret int, args ...lua.LValue) ([]lua.LValue, error) {
	if r.closed {
		return nil, errClosed
	}
	if site := r.site; site.kind != siteNone && r.tickSpent(agent, site.kind, site.name) {
		r.site = callSite{}
		return nil, r.tickRefused(agent, site)
	}
	defer r.enter(agent, m)()
	L := r.L
	top := L.GetTop()
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	if err := L.PCall(len(args), nret, nil); err != nil {
		L.SetTop(top)
		err := errors.New(locateAt(luaError(err).Error(), r.faultWhere()))
		if m != modeLoad && m != modeCallback && m != modeConsideration {
			// The caller gets the error of a load or a Call;
			// considerationFailed counts a consideration's.
			r.noteScriptError(err)
		}
		return nil, err
	}
	n := L.GetTop() - top
	out := make([]lua.LValue, n)
	for i := range out {
		out[i] = L.Get(top + 1 + i)
	}
	L.SetTop(top)
	return out, nil
}

// runningWhere is "file:line: " of the innermost script frame of the
// running coroutine.
func (r *Runtime) runningWhere() string { return scriptWhere(r.L.G.CurrentThread) }

// faultWhere is where the running code last hit a limit of the sandbox or
// raised an error value that is not a message, for errors that carry no
// position of their own; "" when neither happened.
func (r *Runtime) faultWhere() string {
	if r.budget.spentAt != "" {
		return r.budget.spentAt
	}
	return r.errorWhere
}

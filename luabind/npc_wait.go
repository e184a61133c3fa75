package luabind

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// npc:wait in Go. The prelude defines npc:wait in Lua (a colon check, a
// mode check, an argument check, a yield of the sleep token), which costs
// about twenty VM instructions, three calls of type and inbody and two
// Lua calls per wait. goWait does the same checks in Go and yields the
// same values in one Go call, and charges the budget exactly the work
// units the Lua version spends on each of its paths (waitUnits), so
// budgets, stops and the work of every resume stay as they were: the
// units up to the yield when it yields, and the instructions the Lua
// version runs after its yield returns at the start of the coroutine's
// next resume, whoever resumes it (chargeAfterWait). TestGoWaitCostsAsLua runs every path both
// ways and compares work units, values and messages.

// The work units of the prelude's Lua npc:wait on each path: measured
// instruction counts of its code (see TestGoWaitCostsAsLua).
// endResume is what a script's coroutine.resume spent after the Lua
// version's return ended the coroutine it resumed (endsAfterWait;
// measured by this package's test of a wait that ends its coroutine).
//
// badSeconds is the path of a NaN or negative number of seconds, up to
// its error (the comparison that fails, the one that finds the number
// below 0 or NaN, and the call that raises), and noWait the path of 0 up
// to 1e-9 seconds, which returns at once: both pay for that second
// comparison.
var waitUnits = struct {
	notColon, notBody, badArg, badSeconds, noWait, toYield, afterYield, endResume int64
}{notColon: 18, notBody: 13, badArg: 25, badSeconds: 24, noWait: 23, toYield: 23, afterYield: 1, endResume: 1}

// goWait is npc:wait(seconds).
//
// A tail call (return npc:wait(s)) of the Lua version replaced the
// calling frame, so its messages named the line of the caller's caller;
// a tail-called Go function runs with the calling frame still there, so
// goWait skips that frame (waitWhereTail).
func (r *Runtime) goWait(L *lua.LState) int {
	where, level := scriptWhere, 1
	if tailCalled(L) {
		where, level = waitWhereTail, 2
	}
	if self := L.Get(1); self != lua.LValue(r.fast) {
		// Not the running agent's own npc while it is fast (its body
		// runs): the common case costs this one comparison.
		if self.Type() != lua.LTUserData {
			r.chargeVM(L, where, waitUnits.notColon)
			L.Error(lua.LString(where(L)+"npc:wait is a method: call it with a colon, npc:wait(...), not npc.wait(...)"), 0)
		}
		r.waitSelf(L, where, self)
	}
	if r.mode != modeBody {
		r.chargeVM(L, where, waitUnits.notBody)
		L.Error(lua.LString(L.Where(level)+" npc:wait can only be called in an action body (run), not in "+r.mode.String()), 0)
	}
	sv := L.Get(2) // pushed as it is: boxing the number again would allocate
	seconds, ok := sv.(lua.LNumber)
	if !ok {
		r.chargeVM(L, where, waitUnits.badArg)
		L.Error(lua.LString(where(L)+"bad argument #1 to 'wait' (number expected, got "+L.Get(2).Type().String()+")"), 0)
	}
	if !(seconds > 1e-9) {
		if !(seconds >= 0) {
			r.chargeVM(L, where, waitUnits.badSeconds)
			L.Error(lua.LString(where(L)+badSeconds(seconds)), 0)
		}
		r.chargeVM(L, where, waitUnits.noWait)
		return 0
	}
	r.chargeVM(L, where, waitUnits.toYield)
	// The yield hands on the whole stack: the token and the seconds.
	if L.GetTop() == 2 {
		L.Replace(1, r.sleepToken) // (npc, seconds): the seconds stay
	} else {
		L.SetTop(0)
		L.Push(r.sleepToken)
		L.Push(sv)
	}
	r.checkYieldAt(L, where)
	if c := threadCtx(L); c != nil {
		c.afterWait = true
		c.endsAfterWait = waitEndsCoroutine(L)
	}
	return -1
}

// waitSelf refuses npc:wait's self when it is another agent's npc object
// (kept in a shared table: the wait would suspend this agent's body on
// that one's behalf), charging what the not-a-colon path charges. Another
// userdata (npc.state) is let through, as the prelude's Lua npc:wait,
// which checks only the type, lets it.
func (r *Runtime) waitSelf(L *lua.LState, where func(*lua.LState) string, self lua.LValue) {
	if other := r.foreignNPC(self); other != nil {
		r.chargeVM(L, where, waitUnits.notColon)
		L.Error(lua.LString(where(L)+r.notCurrent(other)), 0)
	}
}

// badSeconds is npc:wait's message for seconds that are NaN or below 0
// (math.huge, 1/0 and other seconds too long for the game to reach are
// waits that never end, not errors).
func badSeconds(seconds lua.LNumber) string {
	got := seconds.String()
	switch f := float64(seconds); {
	case math.IsNaN(f):
		got = "nan"
	case math.IsInf(f, -1):
		got = "-inf"
	case f == -math.MaxFloat64:
		got = "-math.huge" // gopher-lua's math.huge is the largest float
	}
	return "npc:wait: seconds must be a number >= 0, got " + got
}

// waitEndsCoroutine reports whether goWait, running in L, is the main
// function of L's coroutine or was tail-called by it: after its yield no
// Lua frame is left (a tail call's frame is popped), so gopher-lua takes
// the yield for the coroutine's end and cannot resume it. The Lua
// npc:wait returned there, which ended the coroutine.
func waitEndsCoroutine(L *lua.LState) bool {
	cf, p := callFrames(L)
	if cf.IsZero() {
		return false
	}
	if p.IsZero() {
		return true
	}
	f, ok := frameAt(L, p)
	return ok && int(f.inst>>26) == lua.OP_TAILCALL && p.Parent().IsZero()
}

// endAfterWait is coroutine.resume of th, a coroutine whose wait ends it
// (endsAfterWait): th ends, returning nothing, or fails when the budget
// stopped at the Lua version's return (afterWait).
func (r *Runtime) endAfterWait(L, th *lua.LState) int {
	th.Dead = true
	if b := r.budget; b.spent != nil {
		L.Push(lua.LFalse)
		L.Push(lua.LString(b.spentAt + b.spent.Error()))
		return 2
	}
	r.chargeVM(L, scriptWhere, waitUnits.endResume)
	L.Push(lua.LTrue)
	return 1
}

// afterWait is called before th is resumed. When th waits in goWait's
// yield it charges what the Lua npc:wait runs after its yield returns and
// reports true, whether the wait ends th (endsAfterWait: th is not to be
// resumed) and the values goWait is to return: none, as the Lua
// version returns none, but as many nils as the calling instruction
// expects results (gopher-lua hands a yielded Go function's caller the
// values it is resumed with, and fails when they are fewer than the
// results the call expects).
func (r *Runtime) afterWait(th *lua.LState) (ok bool, vals []lua.LValue, ends bool) {
	c := threadCtx(th)
	if c == nil || !c.afterWait {
		return false, nil, false
	}
	c.afterWait = false
	ends, c.endsAfterWait = c.endsAfterWait, false
	if b := r.budget; b.armed {
		if b.overrunsBy(waitUnits.afterYield) {
			// The Lua version's budget check would stop at its first
			// instruction after the yield, inside th, naming th's line
			// that called npc:wait: stop there, the VM raises the error
			// at th's first instruction.
			b.overrunAt(scriptWhere(th))
		} else {
			b.n += waitUnits.afterYield
		}
	}
	n, tail := callResults(th)
	if b := r.budget; tail && b.armed {
		// The frame that tail-called goWait is still there and runs the
		// RETURN after its TAILCALL, a VM instruction the budget counts,
		// where the Lua version's tail call had replaced it: one unit
		// of afterYield is that RETURN.
		b.n--
	}
	return true, nils[:n], ends
}

// tailCalled reports whether the Go function L runs was called by a
// TAILCALL instruction of the Lua frame under it.
func tailCalled(L *lua.LState) bool {
	_, p := callFrames(L)
	if p.IsZero() {
		return false
	}
	f, ok := frameAt(L, p)
	return ok && int(f.inst>>26) == lua.OP_TAILCALL
}

// waitWhereTail is scriptWhere for a tail-called goWait: it skips the
// frame that tail-called it.
func waitWhereTail(L *lua.LState) string {
	if where := threadWhereFrom(L, 2); where != "" {
		return where
	}
	if L.Parent == nil {
		return ""
	}
	return scriptWhere(L.Parent)
}

// nils holds nils for afterWait's results.
var nils = func() (t [256]lua.LValue) {
	for i := range t {
		t[i] = lua.LNil
	}
	return t
}()

// callResults is how many results the CALL instruction th's current Lua
// frame stopped at expects (0 for any number, or when the frame cannot
// be read), and whether it stopped at a TAILCALL instead.
func callResults(th *lua.LState) (n int, tail bool) {
	f, ok := runningFrame(th)
	if !ok {
		return 0, false
	}
	switch int(f.inst >> 26) {
	case lua.OP_TAILCALL:
		return 0, true
	case lua.OP_CALL:
		if c := int(f.inst>>9) & 0x1ff; c > 1 {
			return c - 1, false
		}
	}
	return 0, false
}

// chargeVM charges k units that stand for k VM instructions: where the
// budget would have stopped at one of them, it stops as the VM's check
// would (the count one past the limit, the stop's place noted: where(L),
// the script line the Lua version's check named).
func (r *Runtime) chargeVM(L *lua.LState, where func(*lua.LState) string, k int64) {
	b := r.budget
	if !b.armed || k == 0 {
		return
	}
	if b.overrunsBy(k) {
		at := where(L)
		b.overrunAt(at)
		L.Error(lua.LString(at+b.spent.Error()), 0)
	}
	r.charge(L, k)
}

// overrunsBy reports whether k more units would pass the instruction
// budget that is not spent yet.
func (b *budget) overrunsBy(k int64) bool {
	return b.spent == nil && b.limit > 0 && b.n+k > b.limit
}

// overrunAt spends the instruction budget as the VM's check does at the
// first instruction past the limit, at the script position at ("file:line: ").
func (b *budget) overrunAt(at string) {
	b.n = b.limit + 1
	b.spend(b.overrun())
	if b.where != nil {
		b.spentAt = at
	}
}

// The colon check of a host method in Go. The prelude's host method
// wrapper called colon(self, name), a Lua function calling type, before
// hoststart; the wrapper it makes now calls hostStartColon, which checks
// the same in Go and charges exactly the units colon and its call spent
// (hostColonUnits), so a host method costs the work units it did. Like
// goWait, TestHostColonCostsAsLua compares both ways on every path.

// hostColonUnits are the work units the Lua colon check spent: on a
// method called with a colon (ok) and on one called with a dot (notColon,
// up to its error).
var hostColonUnits = struct{ ok, notColon int64 }{ok: 10, notColon: 12}

// hostStartColon(npc, name, ...) is hostStart after colon(npc, name).
func (r *Runtime) hostStartColon(L *lua.LState) int {
	if L.Get(1).Type() != lua.LTUserData {
		r.chargeVM(L, scriptWhere, hostColonUnits.notColon)
		name := lua.LVAsString(L.Get(2))
		preludeError(L, "npc:%s is a method: call it with a colon, npc:%s(...), not npc.%s(...)", name, name, name)
	}
	r.chargeVM(L, scriptWhere, hostColonUnits.ok)
	return r.hostStart(L)
}

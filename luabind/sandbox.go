package luabind

import (
	"io"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// maxArrayIndex bounds the array part of a Lua table. gopher-lua keeps
// integer keys below lua.MaxArrayIndex in a slice, padding it with nils up
// to the key (stock: 64 Mi slots, 1 GiB for one assignment
// t[67108863] = 1), and keys at or past it in a hash map, which #t does
// not see. 4 Mi slots is 64 MiB of array, the default agent memory limit
// (DefaultMemoryLimit): up to there #t, appends and loops behave as in
// stock Lua at array speed, and a list that outgrows it is stopped by the
// memory limit first. A padded assignment is charged to the memory limit
// before it pads (see budget.chargePad). Only luabind uses
// gopher-lua in this module, so the setting is made once, at init,
// before any state exists.
const maxArrayIndex = 1 << 22

func init() { lua.MaxArrayIndex = maxArrayIndex }

// Names of the base library that scripts do not get: they read files,
// compile text at run time, reach other functions' environments, drive the
// collector, make unchecked userdata, or print the VM's registers.
var removedGlobals = []string{
	"dofile", "loadfile", "load", "loadstring", "getfenv", "setfenv",
	"collectgarbage", "module", "newproxy", "_printregs", "_G",
}

// sandboxPrelude is the Lua part of the sandbox, run once per runtime with
// the sandbox's pcall (sandbox_pcall.go) and the real coroutine functions. It
// defines the loop a pcall worker runs, an xpcall over that pcall (both
// let a body yield through them, where gopher-lua's own silently end the
// coroutine), and coroutine.wrap over the budgeted coroutine.create.
const sandboxPrelude = `
local pcall, create, yield, checkedResume = ...
local error = error

-- A pcall worker's loop (see sandbox_pcall.go): it yields DONE and the results of
-- each function it runs, and the next resume hands it the next function.
local DONE = {}
local function loop(f, ...)
  return loop(yield(DONE, f(...)))
end
local function start()
  return loop(yield(DONE))
end

-- xpcall(f, handler): as pcall, calling handler(err) on an error.
local function handled(handler, ok, ...)
  if ok then
    return ok, ...
  end
  return false, handler((...))
end
local function xpcall(f, handler)
  return handled(handler, pcall(f))
end

-- coroutine.wrap(f): a function that resumes a new coroutine (only the
-- agent that made it may call it, as for coroutine.resume).
local function unwrap(ok, ...)
  if not ok then
    error((...), 0)
  end
  return ...
end
local function wrap(f)
  local co = create(f)
  return function(...)
    return unwrap(checkedResume(co, ...))
  end
end

return xpcall, wrap, start, DONE
`

// openSandbox opens the allowed libraries, removes or replaces the unsafe
// functions and installs require, print and the checked built-ins.
func (r *Runtime) openSandbox() {
	L := r.L
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	base := L.G.Global
	r.base = base
	for _, name := range removedGlobals {
		base.RawSetString(name, lua.LNil)
	}
	mathLib := base.RawGetString("math").(*lua.LTable)
	r.openRandom(mathLib)
	r.chargeNumberText(mathLib)
	str := base.RawGetString("string").(*lua.LTable)
	str.RawSetString("dump", lua.LNil)
	str.RawSetString("__index", lua.LNil) // the string metatable is set apart in freeze
	str.RawSetString("rep", L.NewFunction(r.strRep))
	tbl := base.RawGetString("table").(*lua.LTable)
	tbl.RawSetString("concat", L.NewFunction(r.tableConcat))
	co := base.RawGetString("coroutine").(*lua.LTable)
	rawCreate, wrapResume := r.wrapCoroutines(co)
	r.wrapIteration(base)

	rawYield := co.RawGetString("yield") // for the prelude's own yields, never inside a metamethod
	co.RawSetString("yield", L.NewFunction(r.checkedYield))
	base.RawSetString("type", L.NewFunction(luaType))
	base.RawSetString("tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(r.tostringValue(L, L.CheckAny(1)))
		return 1
	}))
	r.chargeLibraries(base, str, tbl)
	r.wrapUnpack(base)
	r.guard(tbl, "table.", "sort")
	r.limitStrings(str) // format, gsub, find, match, gmatch: see sandbox_strlimits.go
	r.guard(str, "string.", "gsub", "format")
	r.guard(base, "", "tostring")

	raise := base.RawGetString("error").(*lua.LFunction).GFunction
	base.RawSetString("error", L.NewFunction(func(L *lua.LState) int {
		msg, ok := L.Get(1).(lua.LString)
		if !ok {
			r.errorWhere = scriptWhere(L)
		} else if level := L.OptInt(2, 1); level != 0 {
			// A position goes in front of the message: a copy of it.
			r.chargeBytes(L, len(msg))
			if level >= 2 {
				// gopher-lua names the line of error's caller for every
				// level but 0; Lua names the level's function.
				L.Error(lua.LString(levelWhere(L, level)+string(msg)), 0)
			}
		}
		return raise(L)
	}))
	base.RawSetString("setmetatable", L.NewFunction(sandboxSetMetatable))
	base.RawSetString("rawset", L.NewFunction(r.rawSet))
	r.refuseFrozen(base, tbl)
	base.RawSetString("print", L.NewFunction(r.print))
	base.RawSetString("require", L.NewFunction(r.require))
	base.RawSetString("__concat", L.NewFunction(r.concat))

	fn, err := L.Load(strings.NewReader(sandboxPrelude), preludeName)
	if err != nil {
		panic("luabind: sandbox prelude: " + err.Error()) // a bug in this package
	}
	pcall := L.NewFunction(r.pcall)
	L.Push(fn)
	L.Push(pcall)
	L.Push(rawCreate)
	L.Push(rawYield)
	L.Push(wrapResume)
	L.Call(4, 4)
	base.RawSetString("pcall", pcall)
	base.RawSetString("xpcall", L.Get(-4))
	co.RawSetString("wrap", L.Get(-3))
	r.runWorker = L.Get(-2).(*lua.LFunction)
	r.doneToken = L.Get(-1)
	L.Pop(4)
}

// freeze makes the libraries read-only: each library global becomes a
// userdata whose metatable reads from the real table, refuses writes and
// is protected, so one script cannot change string.format or math.random
// under another; rawset and table.insert cannot reach it either (they need
// a table). Scripts see the globals through a per-file environment (see
// newEnv) that refuses new globals.
func (r *Runtime) freeze() {
	L := r.L
	for _, name := range []string{"string", "table", "math", "coroutine"} {
		real := r.base.RawGetString(name).(*lua.LTable)
		ud := L.NewUserData()
		ud.Value = name
		ud.Metatable = readOnlyMeta(L, real, name)
		r.base.RawSetString(name, ud)
		if name == "string" {
			// Strings index the library for s:upper(); their metatable is
			// protected so getmetatable("") cannot hand out the library.
			smt := L.NewTable()
			smt.RawSetString("__index", ud)
			smt.RawSetString("__metatable", lua.LString("protected"))
			L.SetMetatable(lua.LString(""), smt)
		}
	}
	r.envMeta = L.NewTable()
	r.envMeta.RawSetString("__index", r.base)
	r.envMeta.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("assignment to global %q: scripts cannot create or change globals; declare it local (agent data belongs in npc.state)", L.CheckString(2))
		return 0
	}))
	r.envMeta.RawSetString("__metatable", lua.LString("protected"))
}

func readOnlyMeta(L *lua.LState, real *lua.LTable, name string) *lua.LTable {
	mt := L.NewTable()
	mt.RawSetString("__index", real)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("%s.%s: the %s library is read-only", name, L.ToString(2), name)
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("protected"))
	return mt
}

// newEnv returns a fresh global environment for one script file: reads
// fall through to the sandbox's globals, writes are refused, and _G is the
// environment itself.
func (r *Runtime) newEnv() *lua.LTable {
	env := r.L.NewTable()
	env.RawSetString("_G", env)
	env.Metatable = r.envMeta
	return env
}

// compile parses a script, routes its .. operators through the sandbox's
// checked __concat, and returns its main function in a fresh environment.
// Errors are gopher-lua syntax errors (see luaError).
func (r *Runtime) compile(src io.Reader, name string) (*lua.LFunction, error) {
	noteChunk(name)
	chunk, err := parse.Parse(src, name)
	if err != nil {
		return nil, &lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err}
	}
	rewriteConcat(reflect.ValueOf(chunk))
	if !testHooks.wholeTables {
		splitBigTables(reflect.ValueOf(chunk))
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		return nil, &lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err}
	}
	unboxFieldKeys(proto)
	fn := r.L.NewFunctionFromProto(proto)
	fn.Env = r.newEnv()
	return fn, nil
}

// unboxFieldKeys turns the VM's t.name reads and writes (GETTABLEKS and
// SETTABLEKS: a constant string key) into the general GETTABLE and
// SETTABLE of the same operands, in proto and every function inside it.
// Both do the same (gopher-lua's getField and getFieldString differ only
// in the key's Go type, and give the same messages), but the string forms
// box the key anew each time they pass it to an __index or __newindex
// function (npc.state.ammo allocated 16 bytes per read); the general ones
// pass the constant, boxed once at compile time.
func unboxFieldKeys(proto *lua.FunctionProto) {
	for i, inst := range proto.Code {
		switch int(inst >> 26) {
		case lua.OP_GETTABLEKS:
			proto.Code[i] = inst&^(0x3f<<26) | uint32(lua.OP_GETTABLE)<<26
		case lua.OP_SETTABLEKS:
			proto.Code[i] = inst&^(0x3f<<26) | uint32(lua.OP_SETTABLE)<<26
		}
	}
	for _, p := range proto.FunctionPrototypes {
		unboxFieldKeys(p)
	}
}

var exprType = reflect.TypeFor[ast.Expr]()

// rewriteConcat replaces every a .. b .. c in a parsed chunk with the call
// __concat(a, b, c), so the sandbox can refuse a string longer than
// Options.MaxStringBytes before it is built (the VM's own concatenation
// cannot be checked, and doubling a string 40 times needs a terabyte).
func rewriteConcat(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			rewriteConcat(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			rewriteField(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				rewriteField(f)
			}
		}
	}
}

func rewriteField(f reflect.Value) {
	if f.Type() == exprType && !f.IsNil() {
		if c, ok := f.Interface().(*ast.StringConcatOpExpr); ok {
			f.Set(reflect.ValueOf(concatCall(c)))
		}
	}
	rewriteConcat(f)
}

func concatCall(c *ast.StringConcatOpExpr) ast.Expr {
	var args []ast.Expr
	var flatten func(e ast.Expr)
	flatten = func(e ast.Expr) {
		if c, ok := e.(*ast.StringConcatOpExpr); ok {
			flatten(c.Lhs)
			flatten(c.Rhs)
			return
		}
		args = append(args, e)
	}
	flatten(c)
	// The last argument of a call expands to all its values; an operand of
	// .. is one value, so truncate it as Lua's (f()) does.
	switch last := args[len(args)-1].(type) {
	case *ast.FuncCallExpr:
		last.AdjustRet = true
	case *ast.Comma3Expr:
		last.AdjustRet = true
	}
	ident := &ast.IdentExpr{Value: "__concat"}
	ident.SetLine(c.Line())
	ident.SetLastLine(c.LastLine())
	call := &ast.FuncCallExpr{Func: ident, Args: args}
	call.SetLine(c.Line())
	call.SetLastLine(c.LastLine())
	return call
}

// concat is the .. operator with a length check: strings and numbers join
// as in Lua 5.1; other operands use their __concat metamethod, pairwise
// from the right.
func (r *Runtime) concat(L *lua.LState) int {
	n := L.GetTop()
	rhs := L.Get(n)
	for i := n - 1; i >= 1; i-- {
		lhs := L.Get(i)
		if lua.LVCanConvToString(lhs) && lua.LVCanConvToString(rhs) {
			// Join the longest run of plain operands at once.
			j := i
			size := len(lua.LVAsString(rhs)) + len(lua.LVAsString(lhs))
			for j > 1 && lua.LVCanConvToString(L.Get(j-1)) {
				j--
				size += len(lua.LVAsString(L.Get(j)))
			}
			r.checkSize(L, size)
			r.chargeBytes(L, size)
			var b strings.Builder
			b.Grow(size)
			for k := j; k <= i; k++ {
				b.WriteString(lua.LVAsString(L.Get(k)))
			}
			b.WriteString(lua.LVAsString(rhs))
			rhs = lua.LString(b.String())
			i = j
			continue
		}
		op := L.GetMetaField(lhs, "__concat")
		if op == lua.LNil {
			op = L.GetMetaField(rhs, "__concat")
		}
		if op == lua.LNil {
			bad := lhs
			if lua.LVCanConvToString(lhs) {
				bad = rhs
			}
			L.RaiseError("attempt to concatenate a %s value", bad.Type().String())
		}
		L.Push(op)
		L.Push(lhs)
		L.Push(rhs)
		func() {
			defer r.enterGo(L, "a __concat metamethod")()
			L.Call(2, 1)
		}()
		rhs = L.Get(-1)
		L.Pop(1)
	}
	L.Push(rhs)
	return 1
}

func (r *Runtime) checkSize(L *lua.LState, size int) {
	if size > r.opts.MaxStringBytes || size < 0 {
		L.RaiseError("string too long: %d bytes is more than the sandbox allows (%d, luabind.Options.MaxStringBytes)",
			size, r.opts.MaxStringBytes)
	}
}

// strRep is string.rep(s, n) with a length check.
func (r *Runtime) strRep(L *lua.LState) int {
	s := L.CheckString(1)
	// The count is checked as a number before it becomes an int: on a
	// 32-bit machine int(1e10) is negative, and the call gave "" instead
	// of the limit's error.
	nf := math.Trunc(float64(L.CheckNumber(2)))
	if !(nf >= 1) || s == "" { // NaN too
		L.Push(lua.LString(""))
		return 1
	}
	if nf > float64(r.opts.MaxStringBytes/len(s)) {
		L.RaiseError("string too long: %.0f bytes is more than the sandbox allows (%d, luabind.Options.MaxStringBytes)",
			nf*float64(len(s)), r.opts.MaxStringBytes)
	}
	n := int(nf)
	r.chargeBytes(L, n*len(s))
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// tableConcat is table.concat(t [, sep [, i [, j]]]) with a length check.
// It builds the result directly, so it needs no Lua stack space however
// long the list is.
func (r *Runtime) tableConcat(L *lua.LState) int {
	t := tableOrView(L, 1)
	sep := L.OptString(2, "")
	i := L.OptInt(3, 1)
	r.charge(L, r.lenWork(t))
	j := L.OptInt(4, t.Len())
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	if j-i >= 0 {
		r.charge(L, itemsWork(j-i+1))
	}
	size := 0
	for k := i; k <= j; k++ {
		v := t.RawGetInt(k)
		if !lua.LVCanConvToString(v) {
			L.RaiseError("invalid value (%s) at index %d in table for concat", v.Type().String(), k)
		}
		size += len(lua.LVAsString(v))
		if k < j {
			size += len(sep)
		}
		if size > r.opts.MaxStringBytes {
			r.checkSize(L, size)
		}
	}
	r.chargeBytes(L, size)
	var b strings.Builder
	b.Grow(size)
	for k := i; k <= j; k++ {
		b.WriteString(lua.LVAsString(t.RawGetInt(k)))
		if k < j {
			b.WriteString(sep)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// goCall is a Go function that may call back into Lua, running now in
// thread L: a yield in L while it runs would cross the Go call.
type goCall struct {
	L    *lua.LState
	what string
}

// guard wraps the Go functions of a library that call Lua functions back
// (a sort comparator, a gsub callback, a __tostring metamethod), so
// checkedYield knows when a yield would cross them.
func (r *Runtime) guard(t *lua.LTable, lib string, names ...string) {
	for _, name := range names {
		orig := t.RawGetString(name).(*lua.LFunction).GFunction
		what := lib + name
		t.RawSetString(name, r.L.NewFunction(func(L *lua.LState) int {
			defer r.enterGo(L, what)()
			return orig(L)
		}))
	}
}

// enterGo records a Go call into Lua; the returned function ends it,
// also when the call unwinds with a Lua error.
func (r *Runtime) enterGo(L *lua.LState, what string) func() {
	r.goCalls = append(r.goCalls, goCall{L, what})
	n := len(r.goCalls)
	return func() {
		clear(r.goCalls[n-1:])
		r.goCalls = r.goCalls[:n-1]
	}
}

// checkedYield is coroutine.yield, refused while a Go function that called
// back into Lua runs in the same coroutine: gopher-lua cannot suspend a Go
// call, and trying corrupts the coroutine and can end the process. A yield
// inside a metamethod the VM calls itself (__index, __lt, ...) is not seen
// here; luaTask.Resume catches what follows.
func (r *Runtime) checkedYield(L *lua.LState) int {
	r.checkYield(L)
	return -1
}

// checkYield raises the error of a yield gopher-lua cannot suspend L for.
func (r *Runtime) checkYield(L *lua.LState) { r.checkYieldAt(L, scriptWhere) }

// checkYieldAt is checkYield whose messages name where(L).
func (r *Runtime) checkYieldAt(L *lua.LState, where func(*lua.LState) string) {
	if L == r.L { // the main thread: no coroutine to suspend
		L.Error(lua.LString(where(L)+r.noCoroutine()), 0)
	}
	for _, c := range r.goCalls {
		if c.L == L {
			L.Error(lua.LString(where(L)+"cannot wait or yield inside a callback of "+c.what+
				": gopher-lua cannot suspend the Go function that called it"), 0)
		}
	}
	if r.yieldNested(L) {
		L.Error(lua.LString(where(L)+"cannot wait or yield inside a metamethod or a for-in iterator (__index, __newindex, __lt, __call, ..., f in for k in f): "+
			"gopher-lua runs it in a Go call it cannot suspend"), 0)
	}
}

// noCoroutine is the error of a wait or yield in code that runs outside
// any coroutine: a role file's top level or a function the engine calls
// and needs the result of within the tick (a condition, a guard, ...).
func (r *Runtime) noCoroutine() string {
	if r.mode.waitsNever() {
		return "cannot wait or yield in " + r.mode.String() + ": it runs to its end within the tick that calls it " +
			"(only action bodies and plan bodies can wait)"
	}
	return "cannot wait or yield outside a coroutine (a role file's top level or a callback)"
}

// typeNames are the results of type(), by lua.LValueType, boxed once
// (see luaType).
var typeNames = func() (t [lua.LTChannel + 1]lua.LValue) {
	for i := range t {
		t[i] = lua.LString(lua.LValueType(i).String())
	}
	return t
}()

// luaType is Lua's type(v), as the base library's but without allocating
// its result: the npc methods' prelude calls it at every call.
func luaType(L *lua.LState) int {
	t := L.CheckAny(1).Type()
	if int(t) < len(typeNames) {
		L.Push(typeNames[t])
	} else {
		L.Push(lua.LString(t.String()))
	}
	return 1
}

// yieldNested reports whether a yield of coroutine L now would cross a Go
// call of the VM (see insideMetamethod). It reads the coroutine's call
// frames, which the VM keeps anyway (calledFromCode), and walks the Go
// stack only where they cannot tell: the main thread, whose frames may
// hang from an earlier call, or frames that cannot be read.
func (r *Runtime) yieldNested(L *lua.LState) bool {
	if L.Parent != nil {
		if direct, ok := calledFromCode(L); ok {
			if testHooks.yieldCheck != nil {
				testHooks.yieldCheck(!direct, r.insideMetamethod())
			}
			return !direct
		}
	}
	return r.insideMetamethod()
}

// insideMetamethod reports whether the running coroutine's VM loop was
// entered again from Go since the coroutine was resumed: the VM calls a
// metamethod (__index, __lt, ...) that way, and a yield there would break
// the coroutine. It reads the Go call stack a few frames at a time, up to
// the coroutine's Resume (an ordinary yield is about 4 frames below it),
// and classifies each return address once (framePCs), so a yield pays a
// short stack walk and a few map reads, not a symbol look-up per frame.
func (r *Runtime) insideMetamethod() bool {
	var pcs [8]uintptr
	loops := 0
	for skip := 3; ; skip += len(pcs) {
		n := runtime.Callers(skip, pcs[:])
		for _, pc := range pcs[:n] {
			switch r.frameOf(pc) {
			case frameVMLoop:
				loops++
			case frameResume:
				return loops > 1
			}
		}
		if n < len(pcs) {
			return loops > 1
		}
	}
}

// The kinds of Go frame insideMetamethod tells apart.
const (
	frameOther  = iota + 1
	frameVMLoop // gopher-lua's instruction loop
	frameResume // where a coroutine's run begins
)

// frameOf classifies the return address pc of a Go frame, caching the
// answer in r.framePCs (a runtime runs on one goroutine at a time).
func (r *Runtime) frameOf(pc uintptr) uint8 {
	if k := r.framePCs[pc]; k != 0 {
		return k
	}
	k := uint8(frameOther)
	if fn := runtime.FuncForPC(pc - 1); fn != nil {
		switch name := fn.Name(); {
		case strings.HasSuffix(name, "gopher-lua.mainLoop"), strings.HasSuffix(name, "gopher-lua.mainLoopWithContext"):
			k = frameVMLoop
		case strings.HasSuffix(name, "gopher-lua.threadRun"), strings.HasSuffix(name, "gopher-lua.(*LState).Resume"):
			k = frameResume
		}
	}
	if r.framePCs == nil {
		r.framePCs = map[uintptr]uint8{}
	}
	r.framePCs[pc] = k
	return k
}

// scriptWhere returns "file:line: " of the innermost script frame (not this
// package's prelude), or "".
func scriptWhere(L *lua.LState) string {
	// A coroutine that runs only Go and this package's code (a pcall
	// worker, a coroutine.wrap function called through pcall) was resumed
	// by the script's: look there.
	for th, hops := L, 0; th != nil && hops < 64; th, hops = th.Parent, hops+1 {
		if where := threadWhere(th); where != "" {
			return where
		}
	}
	return ""
}

func threadWhere(L *lua.LState) string { return threadWhereFrom(L, 0) }

// levelWhere is where error(msg, level) places msg: "file:line: " of the
// function level calls up from error (1 the function that called error,
// 2 its caller, ...), as in Lua. Where that function is Go or this
// package's code (pcall, the prelude) or the stack is shorter, it is the
// nearest script frame further out, climbing to the coroutines that
// resumed L (a pcall runs its function in a worker coroutine): the line
// of the pcall, not no position.
func levelWhere(L *lua.LState, level int) string {
	if _, ok := L.GetStack(level); ok {
		if where := threadWhereFrom(L, level); where != "" {
			return where
		}
	}
	if L.Parent != nil {
		return scriptWhere(L.Parent)
	}
	return ""
}

// threadWhereFrom is threadWhere from call level from up (0 is the
// running function, 1 its caller).
func threadWhereFrom(L *lua.LState, from int) string {
	for level := from; level < callStackSize+2; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("Sl", dbg, lua.LNil); err != nil {
			break
		}
		if dbg.What != "G" && dbg.Source != preludeName && dbg.CurrentLine > 0 {
			return dbg.Source + ":" + strconv.Itoa(dbg.CurrentLine) + ": "
		}
	}
	return ""
}

// preludeName is the chunk name of the Lua code this package runs itself;
// error positions skip it to name the script's line.
const preludeName = "luabind"

// sandboxSetMetatable is setmetatable for tables only (as in Lua 5.1):
// gopher-lua's also sets the one shared metatable of every number, boolean
// or function, which would reach every agent's scripts.
func sandboxSetMetatable(L *lua.LState) int {
	t := L.CheckTable(1)
	L.CheckTypes(2, lua.LTNil, lua.LTTable)
	if mt, ok := t.Metatable.(*lua.LTable); ok && mt.RawGetString("__metatable") != lua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	t.Metatable = L.Get(2)
	L.SetTop(1)
	return 1
}

// rawSet is rawset that refuses a table with a protected metatable (a
// script's global environment), which would bypass its __newindex, and
// charges a key far past a list's end for the nils it pads.
func (r *Runtime) rawSet(L *lua.LState) int {
	t := L.CheckTable(1)
	if mt, ok := t.Metatable.(*lua.LTable); ok && mt.RawGetString("__metatable") != lua.LNil {
		L.RaiseError("rawset: the table is protected")
	}
	k := L.CheckAny(2)
	if k == lua.LNil {
		L.ArgError(2, "table index is nil")
	}
	if pad := paddingOf(t, k); pad > 0 {
		r.chargePadding(L, "rawset", t, pad)
	}
	t.RawSet(k, L.CheckAny(3))
	L.SetTop(1)
	return 1
}

// print sends its arguments to Options.Print, prefixed with the caller's
// file and line.
func (r *Runtime) print(L *lua.LState) int {
	if r.opts.Print == nil {
		return 0
	}
	defer r.enterGo(L, "print")()
	r.opts.Print(r.printText(L, "print", scriptWhere(L), 1, "\t"))
	return 0
}

// printText is prefix and the values of L from index first on as
// tostring shows them, with sep between them, for print and npc:print.
// The text is a string the script builds: its length is checked against
// Options.MaxStringBytes and charged (work and memory) before it is
// built, in one allocation with the prefix, so many references to one
// long string cannot join gigabytes, and printing a long string again
// and again counts every copy Go makes of it.
func (r *Runtime) printText(L *lua.LState, what, prefix string, first int, sep string) string {
	n := L.GetTop() - first + 1
	if n <= 0 {
		return prefix
	}
	r.charge(L, itemsWork(n))
	parts := make([]string, n)
	size := len(sep) * (n - 1)
	for i := range parts {
		parts[i] = string(r.tostringValue(L, L.Get(first+i)))
		size += len(parts[i])
		if size > r.opts.MaxStringBytes {
			L.RaiseError("string too long: %s would join more than %d bytes, more than the sandbox allows (%d, luabind.Options.MaxStringBytes)",
				what, size, r.opts.MaxStringBytes)
		}
	}
	r.chargeBytes(L, len(prefix)+size)
	if prefix == "" && n == 1 {
		return parts[0] // the string itself, no copy
	}
	var b strings.Builder
	b.Grow(len(prefix) + size)
	b.WriteString(prefix)
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(p)
	}
	return b.String()
}

func quote(s string) string { return strconv.Quote(s) }

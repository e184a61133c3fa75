package luabind

import (
	"context"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Utility considerations in a role file. The role's `considerations` score
// every action that has none of its own; an action's `considerations`
// replace them for that action. `utility_mode` is "average" (TnsAI's
// weighted average, the default; see docs/semantics.md) or "multiply". Each entry of a list is
// one of:
//
//	"cost"  "value(0.5)"  "utility"  "preconditionSatisfied"  'hasTag("combat")'
//	{ kind = "cost", weight = 0.3 }                 -- a built-in consideration
//	{ kind = "hasTag", tag = "combat" }
//	{ kind = "combine", of = { "cost", "value" } }  -- a weighted average of parts
//	{ input = "health", min = 0, max = 100,         -- a response curve over state
//	  curve = "logistic", slope = 10, offset = 0.5, weight = 1 }
//	function(action, state) return 0.7 end          -- a custom consideration
//	{ name = "threat", fn = function(action, state) ... end, weight = 2 }
//
// Curves are linear, polynomial, logistic, logit and step (see
// curve.Curve); missing curve parameters take curve.New's values,
// and a missing min or max is 0 or 1. Any built-in consideration takes a curve
// too: { kind = "cost", curve = "polynomial", exponent = 2 }.
//
// A function gets the action as a table (name, cost, value, weight, tags)
// and the state as a read-only table of the agent's variables; it returns
// a number (true is 1, false 0), clamped to [0, 1]. It runs under the
// runtime's instruction budget, through Runtime.Call, and its work counts
// toward the scoring agent's tick budget (Options.TickBudget). An error, a
// spent budget, a result that is not a number or one that is not finite
// (math.huge, 1/0, 0/0: one would give its action a score that wins or
// spoils every pick) scores 0 and is recorded by the planner
// (engine.UtilityPlanner.LastError and the pick's explanation) and, in an
// agent's tick, by a consideration-failed record (engine.
// EventConsiderationFailed: the action, the function, its file:line:col and
// the message), at most once per agent, tick and function; it never stops
// the tick. A call the spent tick budget refused is in the tick-budget
// record instead. Like every Lua callback, a consideration must be
// called on its runtime's goroutine.
//
// Speed: a function whose code is straight-line and read-only (no loop, no
// call, no global or upvalue, no write; see straightLine), like
// `function(action, state) return state.health / 100 end`, runs on the
// tables themselves without the budget, which it cannot need; if it does
// not read its action either, it is called once per state, not once per
// action. Anything else runs budgeted on read-only tables.

var (
	considerKeys = []string{"kind", "name", "weight", "tag", "input", "min", "max", "curve", "slope", "exponent",
		"offset", "shift", "invert", "of", "fn"}
	curveParams = []string{"slope", "exponent", "offset", "shift", "invert"}
	seedCall    = regexp.MustCompile(`^\s*(\w+)\s*(?:\(\s*(.*?)\s*\))?\s*$`)
)

// utilitySet marks the utility fields a role file gives, so an explicit
// cost = 0 stays 0 instead of becoming the default 1.
func utilitySet(u *lua.LTable) engine.UtilityField {
	var set engine.UtilityField
	for _, f := range []struct {
		key string
		bit engine.UtilityField
	}{{"cost", engine.UtilityCost}, {"value", engine.UtilityValue}, {"weight", engine.UtilityWeight}} {
		if _, ok := u.RawGetString(f.key).(lua.LNumber); ok {
			set |= f.bit
		}
	}
	return set
}

// considerations reads the role's utility_mode and considerations and each
// action's considerations into spec, whose actions are already read.
func (rd *roleReader) considerations(t *lua.LTable, spec *engine.RoleSpec) {
	top := engine.Pos{File: rd.file, Line: 1, Col: 1}
	lu := &luaUtility{rt: rd.rt}
	spec.UtilityMode = rd.str(t, "utility_mode", "role", top)
	if m := spec.UtilityMode; m != "" && m != engine.UtilityAverage && m != engine.UtilityMultiply {
		rd.add(rd.find(top, `utility_mode\s*=`), "role: utility_mode must be \"average\" or \"multiply\", not \""+m+"\""+
			didYouMean(m, []string{engine.UtilityAverage, engine.UtilityMultiply}))
		spec.UtilityMode = ""
	}
	if v := t.RawGetString("considerations"); v != lua.LNil {
		spec.Considerations = rd.considerationList(v, "role", rd.find(top, `considerations\s*=`), lu)
	}
	acts, ok := t.RawGetString("actions").(*lua.LTable)
	if !ok {
		return
	}
	used := make([]bool, len(spec.Actions))
	for i, n := 1, acts.Len(); i <= n; i++ {
		at, ok := acts.RawGetInt(i).(*lua.LTable)
		if !ok {
			continue
		}
		v := at.RawGetString("considerations")
		if v == lua.LNil {
			continue
		}
		name, _ := at.RawGetString("name").(lua.LString)
		for j := range spec.Actions {
			a := &spec.Actions[j]
			if used[j] || a.Name != string(name) {
				continue
			}
			used[j] = true
			what := "action \"" + a.Name + "\""
			a.Considerations = rd.considerationList(v, what, rd.find(a.Pos, `considerations\s*=`), lu)
			break
		}
	}
}

func (rd *roleReader) considerationList(v lua.LValue, what string, at engine.Pos, lu *luaUtility) []engine.ConsiderationSpec {
	lt, ok := v.(*lua.LTable)
	if !ok {
		rd.add(at, what+": considerations must be a list, not "+v.Type().String())
		return nil
	}
	out := []engine.ConsiderationSpec{}
	n := lt.Len()
	next := at // each entry is looked for after the one before
	for i := 1; i <= n; i++ {
		c, ok := rd.consideration(lt.RawGetInt(i), what+" consideration #"+itoa(i), next, lu)
		if c.Pos.File != "" {
			next = after(next, c.Pos)
		}
		if ok {
			out = append(out, c)
		}
	}
	lt.ForEach(func(k, _ lua.LValue) {
		if num, ok := k.(lua.LNumber); !ok || float64(num) < 1 || float64(num) > float64(n) {
			rd.add(at, what+": considerations must be a list (so their order is kept); found key "+k.String())
		}
	})
	return out
}

func (rd *roleReader) consideration(v lua.LValue, what string, at engine.Pos, lu *luaUtility) (engine.ConsiderationSpec, bool) {
	switch x := v.(type) {
	case lua.LString:
		return rd.seedConsideration(string(x), what, at)
	case *lua.LFunction:
		pos := rd.funcPos(x, at)
		return engine.ConsiderationSpec{Kind: engine.ConsiderFunc, Name: funcName(x), Pos: pos,
			Func: lu.bind(x, funcName(x), pos)}, true
	case *lua.LTable:
		return rd.considerationTable(x, what, at, lu)
	}
	rd.add(at, what+" must be a name such as \"cost\", a table or a function, not "+v.Type().String())
	return engine.ConsiderationSpec{}, false
}

// seedConsideration reads "cost", "cost(0.3)", "hasTag(combat)" and the like.
func (rd *roleReader) seedConsideration(s, what string, at engine.Pos) (engine.ConsiderationSpec, bool) {
	m := seedCall.FindStringSubmatch(s)
	pos := rd.find(at, regexp.QuoteMeta(`"`+s))
	if pos != at {
		pos.Col++
	}
	if m == nil {
		rd.add(pos, what+": \""+s+"\" is no consideration; write a name such as cost or cost(0.3)")
		return engine.ConsiderationSpec{}, false
	}
	c := engine.ConsiderationSpec{Kind: engine.ConsiderationKind(m[1]), Pos: pos}
	arg := strings.Trim(m[2], `"'`)
	switch c.Kind {
	case engine.ConsiderCost, engine.ConsiderValue, engine.ConsiderUtility:
		if arg != "" {
			w, err := strconv.ParseFloat(arg, 64)
			if err != nil {
				rd.add(pos, what+": "+m[1]+"(weight) takes a number, not \""+m[2]+"\"")
				return c, false
			}
			c.Weight = w
		}
	case engine.ConsiderPrecondition:
		if arg != "" {
			rd.add(pos, what+": preconditionSatisfied() takes no argument")
		}
	case engine.ConsiderHasTag:
		c.Tag = arg
	default:
		rd.add(pos, what+": unknown consideration \""+m[1]+"\"; by name: cost, value, utility, preconditionSatisfied, hasTag"+
			didYouMean(m[1], []string{"cost", "value", "utility", "preconditionSatisfied", "hasTag"}))
		return c, false
	}
	return c, true
}

func (rd *roleReader) considerationTable(t *lua.LTable, what string, at engine.Pos, lu *luaUtility) (engine.ConsiderationSpec, bool) {
	pos := at
	if in, ok := t.RawGetString("input").(lua.LString); ok {
		pos = rd.find(at, `input\s*=\s*["']`+regexp.QuoteMeta(string(in))+`["']`)
	} else if k, ok := t.RawGetString("kind").(lua.LString); ok {
		pos = rd.find(at, `kind\s*=\s*["']`+regexp.QuoteMeta(string(k))+`["']`)
	}
	rd.checkKeys(t, considerKeys, what, pos)
	c := engine.ConsiderationSpec{Pos: pos}
	c.Kind = engine.ConsiderationKind(rd.str(t, "kind", what, pos))
	c.Name = rd.str(t, "name", what, pos)
	if c.Name != "" {
		what += " \"" + c.Name + "\""
	}
	c.Weight = rd.num(t, "weight", what, pos)
	c.Tag = rd.str(t, "tag", what, pos)
	c.Input = rd.str(t, "input", what, pos)
	c.Min = rd.num(t, "min", what, pos)
	c.Max = 1
	if _, ok := t.RawGetString("max").(lua.LNumber); ok {
		c.Max = rd.num(t, "max", what, pos)
	} else if t.RawGetString("max") != lua.LNil {
		rd.num(t, "max", what, pos) // reports the wrong type
	}
	switch f := t.RawGetString("fn").(type) {
	case *lua.LNilType:
	case *lua.LFunction:
		name := c.Name
		if name == "" {
			name = funcName(f)
			c.Name = name
		}
		c.Func = lu.bind(f, name, rd.funcPos(f, pos))
	default:
		rd.add(rd.find(pos, `fn\s*=`), what+": fn must be a function(action, state), not "+f.Type().String())
	}
	if of := t.RawGetString("of"); of != lua.LNil {
		c.Of = rd.considerationList(of, what, rd.find(pos, `of\s*=`), lu)
	}
	c.Curve = rd.curve(t, what, pos)
	return c, true
}

// curve reads curve = "kind" and its parameters; nil when none is given.
func (rd *roleReader) curve(t *lua.LTable, what string, at engine.Pos) *curve.Curve {
	kind := rd.str(t, "curve", what, at)
	given := kind != ""
	for _, p := range curveParams {
		if t.RawGetString(p) != lua.LNil {
			given = true
		}
	}
	if !given {
		return nil
	}
	if kind == "" {
		kind = string(curve.Linear)
	}
	c := curve.New(curve.Kind(kind))
	for _, p := range []struct {
		key string
		dst *float64
	}{{"slope", &c.Slope}, {"exponent", &c.Exponent}, {"offset", &c.Offset}, {"shift", &c.Shift}} {
		if t.RawGetString(p.key) != lua.LNil {
			*p.dst = rd.num(t, p.key, what, at)
		}
	}
	switch v := t.RawGetString("invert").(type) {
	case *lua.LNilType:
	case lua.LBool:
		c.Invert = bool(v)
	default:
		rd.add(rd.find(at, `invert\s*=`), what+": invert must be true or false, not "+v.Type().String())
	}
	return &c
}

func funcName(f *lua.LFunction) string {
	if f.Proto != nil {
		return "function@" + itoa(f.Proto.LineDefined)
	}
	return "function"
}

// funcPos is where a Lua function is defined, in this file.
func (rd *roleReader) funcPos(f *lua.LFunction, at engine.Pos) engine.Pos {
	if f.Proto != nil && f.Proto.LineDefined > 0 {
		return rd.find(engine.Pos{File: rd.file, Line: f.Proto.LineDefined, Col: 1}, `function`)
	}
	return at
}

// luaUtility is what one role file's Lua considerations share: the
// arguments they are called with. The state table is refreshed only where
// the state changed since the last call, so scoring many actions in one
// state converts each variable once.
type luaUtility struct {
	rt      *Runtime
	schema  *expr.Schema
	last    expr.State
	data    *lua.LTable   // variable name → value
	proxy   *lua.LTable   // what scripts get: reads data, refuses writes
	actions []actionTable // by Action.Index
	gen     uint64        // bumped whenever data changes
	kept    []keptResult  // by function id, for functions of the state alone
	nfn     int
}

// keptResult is the last result of a function that reads only the state,
// valid while gen is luaUtility.gen.
type keptResult struct {
	v   float64
	gen uint64
	ok  bool
}

type actionTable struct {
	a   *engine.Action
	t   *lua.LTable // the read-only proxy
	raw *lua.LTable // the fields themselves
}

// bind returns the engine-side function of a Lua consideration.
//
// A straight-line function (see straightLine) is called on the tables
// themselves rather than read-only proxies, and without the instruction
// budget: it can neither write them nor run more than its own few
// instructions. Others go through the proxies under the budget.
func (lu *luaUtility) bind(fn *lua.LFunction, name string, pos engine.Pos) func(*engine.Action, expr.State, *expr.Schema) (float64, error) {
	fast := fn.Proto != nil && straightLine(fn.Proto)
	stateOnly := fast && !readsFirstArg(fn.Proto)
	id := lu.nfn
	lu.nfn++
	lu.kept = append(lu.kept, keptResult{})
	r := lu.rt
	gid := r.nconsider // the runtime's id of the consideration, for its records
	r.nconsider++
	site := callSite{kind: siteConsideration, name: name}
	return func(a *engine.Action, st expr.State, s *expr.Schema) (float64, error) {
		// The scoring agent's tick budget spent: not run, scores 0.
		if w := r.scoreWork; w != nil && w.spent >= r.tickLimit {
			r.noteTickBudget(r.scorer, w, site, "", false)
			return 0, r.tickRefused(r.scorer, site)
		}
		var ret lua.LValue
		var err error
		if fast {
			lu.action(a)
			lu.state(st, s)
			if k := &lu.kept[id]; stateOnly && k.ok && k.gen == lu.gen {
				return k.v, nil
			}
			ret, err = lu.call(fn, lu.actions[a.Index].raw, lu.data, false, site)
			if v, isNum := ret.(lua.LNumber); stateOnly && err == nil && isNum && finite(float64(v)) {
				lu.kept[id] = keptResult{v: float64(v), gen: lu.gen, ok: true}
			}
		} else {
			ret, err = lu.call(fn, lu.action(a), lu.state(st, s), true, site)
		}
		if err != nil {
			err = errors.New("luabind: consideration \"" + name + "\": " + err.Error())
			r.considerationFailed(gid, name, pos, a, err)
			return 0, err
		}
		switch v := ret.(type) {
		case lua.LNumber:
			if !finite(float64(v)) {
				// math.huge, 1/0 or 0/0 would make the action's score
				// non-finite (or the largest float) and win every pick.
				err = errors.New("luabind: consideration \"" + name + "\" returned " + nonFinite(float64(v)) + ", not a finite number")
				r.considerationFailed(gid, name, pos, a, err)
				return 0, err
			}
			return float64(v), nil
		case lua.LBool:
			if v {
				return 1, nil
			}
			return 0, nil
		}
		err = errors.New("luabind: consideration \"" + name + "\" must return a number, not " + ret.Type().String())
		r.considerationFailed(gid, name, pos, a, err)
		return 0, err
	}
}

// finite reports whether v is neither infinite nor NaN nor ±math.huge
// (which gopher-lua makes the largest float64, standing for infinity).
func finite(v float64) bool { return v-v == 0 && v < math.MaxFloat64 && v > -math.MaxFloat64 }

// nonFinite names a value finite refuses as Lua writes it.
func nonFinite(v float64) string {
	switch {
	case v != v:
		return "nan (0/0)"
	case v > 0:
		return "math.huge (or 1/0)"
	}
	return "-math.huge (or -1/0)"
}

// call is Runtime.Call for one argument pair and one result, without its
// allocations: the same budget (none when budgeted is false, for
// straight-line functions), mode (no agent) and error form.
// It does what Runtime.enter does inline, because enter's closure would
// cost an allocation per call; PCall recovers every panic, so the restore
// always runs.
func (lu *luaUtility) call(fn *lua.LFunction, action, state lua.LValue, budgeted bool, site callSite) (lua.LValue, error) {
	r := lu.rt
	if r.closed {
		return lua.LNil, errClosed
	}
	L := r.L
	armed := false
	var ctx context.Context
	var tick *tickWork
	if budgeted {
		armed = r.budget.arm()
		if armed && r.scoreWork != nil {
			r.site = site
			tick = r.armTick(r.scorer) // charged to the scoring agent's tick
			r.site = callSite{}
		}
	} else {
		ctx = L.RemoveContext() // a straight-line function needs no budget
	}
	prevA, prevM := r.current, r.mode
	r.current, r.mode = nil, modeConsideration
	top := L.GetTop()
	L.Push(fn)
	L.Push(action)
	L.Push(state)
	err := L.PCall(2, 1, nil)
	ret := lua.LValue(lua.LNil)
	if err == nil {
		ret = L.Get(-1)
	}
	L.SetTop(top)
	r.current, r.mode = prevA, prevM
	if tick != nil {
		r.endTick(r.scorer, tick)
	}
	if armed {
		r.budget.disarm()
	}
	if ctx != nil {
		L.SetContext(ctx)
	}
	if err != nil {
		return nil, luaError(err)
	}
	return ret, nil
}

func (lu *luaUtility) state(st expr.State, s *expr.Schema) *lua.LTable {
	if s != lu.schema || lu.data == nil {
		lu.gen++
		lu.schema, lu.last = s, lu.last[:0]
		lu.data = lu.rt.L.NewTable()
		lu.proxy = lu.readOnly(lu.data, "state")
	}
	for i, v := range st {
		if i < len(lu.last) && lu.last[i].Equal(v) {
			continue
		}
		if s != nil && i < s.Len() {
			lu.data.RawSetString(s.Name(i), fromValue(v))
			lu.gen++
		}
	}
	lu.last = append(lu.last[:0], st...)
	return lu.proxy
}

func (lu *luaUtility) action(a *engine.Action) *lua.LTable {
	if a.Index < len(lu.actions) && lu.actions[a.Index].a == a {
		return lu.actions[a.Index].t
	}
	L := lu.rt.L
	t := L.NewTable()
	t.RawSetString("name", lua.LString(a.Name))
	t.RawSetString("cost", lua.LNumber(a.Utility.Cost))
	t.RawSetString("value", lua.LNumber(a.Utility.Value))
	t.RawSetString("weight", lua.LNumber(a.Utility.Weight))
	tags := L.NewTable()
	for _, tag := range a.Utility.Tags {
		tags.Append(lua.LString(tag))
	}
	t.RawSetString("tags", tags)
	p := lu.readOnly(t, "action")
	for len(lu.actions) <= a.Index {
		lu.actions = append(lu.actions, actionTable{})
	}
	lu.actions[a.Index] = actionTable{a, p, t}
	return p
}

// readOnly returns an empty table that reads data and refuses writes.
func (lu *luaUtility) readOnly(data *lua.LTable, what string) *lua.LTable {
	L := lu.rt.L
	meta := L.NewTable()
	meta.RawSetString("__index", data)
	meta.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("%s.%s: the %s is read-only in a consideration", what, L.Get(2).String(), what)
		return 0
	}))
	meta.RawSetString("__metatable", lua.LString("protected"))
	p := L.NewTable()
	p.Metatable = meta
	return p
}

// straightLine reports whether a function's code is straight-line and
// read-only: no loop or backward jump, no call, no method call, no write to
// a table, a global or an upvalue, no read of a global or an upvalue (so the
// only tables it can reach are its arguments, which have no metatables),
// no closure, no vararg, no table constructor, no concatenation (which the
// sandbox turns into a call). Such a function runs at most len(Code)
// instructions and cannot change what it is given.
func straightLine(p *lua.FunctionProto) bool {
	if len(p.FunctionPrototypes) > 0 {
		return false
	}
	for _, inst := range p.Code {
		switch op := int(inst >> 26); op {
		case lua.OP_CALL, lua.OP_TAILCALL, lua.OP_SELF,
			lua.OP_SETTABLE, lua.OP_SETTABLEKS, lua.OP_SETGLOBAL, lua.OP_SETUPVAL, lua.OP_SETLIST,
			lua.OP_GETGLOBAL, lua.OP_GETUPVAL,
			lua.OP_FORLOOP, lua.OP_FORPREP, lua.OP_TFORLOOP,
			lua.OP_CLOSURE, lua.OP_VARARG, lua.OP_NEWTABLE, lua.OP_CONCAT:
			return false
		case lua.OP_JMP:
			if int(inst&0x3ffff)-(0x3ffff>>1) < 0 {
				return false
			}
		}
	}
	return true
}

// readsFirstArg reports whether straight-line code may read its first
// parameter (register 0: the action). It errs towards yes: any operand
// that could be register 0 counts. A straight-line function that does not
// read it scores every action alike in a given state, so its result is
// kept until the state changes.
func readsFirstArg(p *lua.FunctionProto) bool {
	const bitRK = 1 << 8
	reg0 := func(x int) bool { return x&bitRK == 0 && x == 0 }
	for _, inst := range p.Code {
		a, b, c := int(inst>>18)&0xff, int(inst&0x1ff), int(inst>>9)&0x1ff
		switch int(inst >> 26) {
		case lua.OP_LOADK, lua.OP_LOADBOOL, lua.OP_LOADNIL, lua.OP_JMP, lua.OP_NOP:
		case lua.OP_MOVE, lua.OP_MOVEN, lua.OP_UNM, lua.OP_NOT, lua.OP_LEN, lua.OP_TESTSET:
			if b == 0 {
				return true
			}
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
			if b == 0 || reg0(c) {
				return true
			}
		case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW,
			lua.OP_EQ, lua.OP_LT, lua.OP_LE:
			if reg0(b) || reg0(c) {
				return true
			}
		case lua.OP_TEST:
			if a == 0 {
				return true
			}
		case lua.OP_RETURN:
			if a == 0 && b != 1 {
				return true
			}
		default:
			return true
		}
	}
	return false
}

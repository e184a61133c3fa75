package luabind

import (
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
)

// The reactive npc methods: believe, forget, tell, print, also_achieve,
// and the ones that suspend the body, achieve, achieve_with_result and
// wait_event. They work in plan bodies and in action bodies; an agent
// whose role has no plans gets its bdi.Mind the first time a body asks
// for a goal or an event.

// bdiPrelude defines the suspending methods in Lua: start (Go) checks the
// arguments and returns a handle; the body yields it, and the task
// resumes the coroutine with true and the results, or false and a
// message that already names the caller's file and line.
const bdiPrelude = `
local methods, start, WAIT = ...
local yield, error, type = coroutine.yield, error, type
local function resumed(ok, ...)
  if not ok then error((...), 0) end
  return ...
end
local function suspending(name)
  methods[name] = function(self, ...)
    if type(self) ~= "userdata" then
      error("npc:" .. name .. " is a method: call it with a colon, npc:" .. name .. "(...), not npc." .. name .. "(...)", 2)
    end
    return resumed(yield(WAIT, start(self, name, ...)))
  end
end
suspending("achieve")
suspending("achieve_with_result")
suspending("wait_event")
`

// bdiWait is what a body waits for in achieve, achieve_with_result or
// wait_event.
type bdiWait struct {
	p     *bdi.Pending
	kind  string // the method
	what  string // for traces: "achieve prepare"
	where string // the caller's "file:line: "
}

func (r *Runtime) initBDI() {
	L := r.L
	fn, err := L.Load(strings.NewReader(bdiPrelude), preludeName)
	if err != nil {
		panic("luabind: bdi prelude: " + err.Error()) // a bug in this package, not in a script
	}
	r.bdi.waitToken = L.NewUserData()
	r.bdi.waitToken.Metatable = r.callMeta
	L.Push(fn)
	L.Push(r.methods)
	L.Push(L.NewFunction(r.bdiStart))
	L.Push(r.bdi.waitToken)
	L.Call(3, 0)
	for name, f := range map[string]lua.LGFunction{
		"believe": r.npcBelieve, "forget": r.npcForget, "tell": r.npcTell,
		"print": r.npcPrint, "also_achieve": r.npcAlsoAchieve,
	} {
		r.methods.RawSetString(name, L.NewFunction(f))
	}
}

// mindOf returns the agent's Mind, giving it an empty one when it has no
// reactive layer.
func mindOf(a *engine.Agent) *bdi.Mind {
	if m := bdi.Of(a); m != nil {
		return m
	}
	return bdi.Attach(a, nil)
}

func (r *Runtime) writable(L *lua.LState, method string) {
	if r.mode.readOnly() {
		L.RaiseError("npc:%s: %s must not change the agent", method, r.mode)
	}
}

// npc:believe(name [, value]): value defaults to true.
func (r *Runtime) npcBelieve(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	r.writable(L, "believe")
	name := L.CheckString(2)
	if err := nameLength(name); err != nil {
		L.ArgError(1, err.Error())
	}
	v := expr.BoolValue(true)
	if L.GetTop() >= 3 {
		var err error
		if v, err = toValue(L.Get(3)); err != nil {
			L.ArgError(2, err.Error())
		}
	}
	if err := a.Believe(name, v); err != nil {
		L.RaiseError("npc:believe: %s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	return 0
}

func (r *Runtime) npcForget(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	r.writable(L, "forget")
	name := L.CheckString(2)
	if err := nameLength(name); err != nil {
		L.ArgError(1, err.Error())
	}
	if err := a.Forget(name); err != nil {
		L.RaiseError("npc:forget: %s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	return 0
}

// npc:tell(agent, name [, value]): value defaults to true.
func (r *Runtime) npcTell(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	r.writable(L, "tell")
	to, name := L.CheckString(2), L.CheckString(3)
	for i, s := range []string{to, name} {
		if err := nameLength(s); err != nil {
			L.ArgError(i+1, err.Error())
		}
	}
	v := expr.BoolValue(true)
	if L.GetTop() >= 4 {
		var err error
		if v, err = toValue(L.Get(4)); err != nil {
			L.ArgError(3, err.Error())
		}
	}
	if err := a.Tell(to, name, v); err != nil {
		L.RaiseError("npc:tell: %s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	return 0
}

// npc:print(...): the agent's name and the values as tostring shows them,
// joined by single spaces, as one print record. The record keeps the
// first 8 KiB of the text, as a fail record keeps its error's: the
// agent's recorder holds its last records, and 64 of 16 MiB each would
// be a gigabyte no memory limit sees.
func (r *Runtime) npcPrint(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	a.Print(clipError(r.printText(L, "npc:print", "", 2, " "))) // tostring's names: no heap address reaches the trace
	return 0
}

func (r *Runtime) npcAlsoAchieve(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	r.writable(L, "also_achieve")
	g, err := toGoal(L.Get(2))
	if err != nil {
		L.ArgError(1, err.Error())
	}
	mindOf(a).AlsoAchieve(g)
	return 0
}

// bdiStart(npc, method, ...) starts what a suspending method waits for and
// returns its handle.
func (r *Runtime) bdiStart(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	kind := L.CheckString(2)
	where := scriptWhere(L)
	if r.mode != modeBody {
		L.Error(lua.LString(where+"npc:"+kind+" can only be called in a body (a plan's body or an action's run), not in "+r.mode.String()), 0)
	}
	w := &bdiWait{kind: kind, where: where}
	m := mindOf(a)
	switch kind {
	case "achieve", "achieve_with_result":
		g, err := toGoal(L.Get(3))
		if err != nil {
			L.Error(lua.LString(where+"bad argument #1 to '"+kind+"' ("+err.Error()+")"), 0)
		}
		w.what = kind + " " + g.String()
		w.p = m.Await(g)
	case "wait_event":
		match, what, err := r.eventFilter(a, L.Get(3))
		if err != nil {
			L.Error(lua.LString(where+"bad argument #1 to 'wait_event' ("+err.Error()+")"), 0)
		}
		timeout := 0.0
		switch t := L.Get(4).(type) {
		case *lua.LNilType:
		case lua.LNumber:
			if !(t > 0) {
				L.Error(lua.LString(where+"bad argument #2 to 'wait_event' (timeout must be seconds > 0, or nil for none)"), 0)
			}
			timeout = float64(t)
			what += ", timeout " + expr.ShortNumber(timeout) + " s"
		default:
			L.Error(lua.LString(where+"bad argument #2 to 'wait_event' (number expected, got "+t.Type().String()+")"), 0)
		}
		w.what = "wait_event " + what
		w.p = m.WaitEvent(match, timeout)
	}
	ud := L.NewUserData()
	ud.Value = w
	ud.Metatable = r.callMeta
	L.Push(ud)
	return 1
}

// poll returns the values to resume the body with once the wait is done.
func (w *bdiWait) poll(r *Runtime) ([]lua.LValue, bool) {
	if !w.p.Done() {
		return nil, false
	}
	res, err := w.p.Result()
	if err != nil {
		return []lua.LValue{lua.LFalse, lua.LString(w.where + w.what + ": " + strings.TrimPrefix(err.Error(), "bdi: "))}, true
	}
	switch w.kind {
	case "achieve":
		return []lua.LValue{lua.LTrue}, true
	case "achieve_with_result":
		return []lua.LValue{lua.LTrue, r.toLua(res)}, true
	}
	if ev, ok := w.p.Event(); ok {
		return []lua.LValue{lua.LTrue, r.eventTable(&ev)}, true
	}
	return []lua.LValue{lua.LTrue, lua.LNil, lua.LString("timeout")}, true
}

func waitOf(v lua.LValue) *bdiWait {
	if ud, ok := v.(*lua.LUserData); ok {
		w, _ := ud.Value.(*bdiWait)
		return w
	}
	return nil
}

// toGoal reads a goal: a string, or a list of strings, numbers and
// booleans.
func toGoal(v lua.LValue) (reactive.Goal, error) {
	switch x := v.(type) {
	case lua.LString:
		if err := nameLength(string(x)); err != nil {
			return reactive.Goal{}, err
		}
		return reactive.GoalNamed(string(x)), nil
	case *lua.LTable:
		n := x.Len()
		if n > maxNameBytes {
			return reactive.Goal{}, errString("a goal table lists at most " + itoa(maxNameBytes) + " values, not " + itoa(n))
		}
		if s, ok := x.RawGetInt(1).(lua.LString); ok {
			if err := nameLength(string(s)); err != nil {
				return reactive.Goal{}, err
			}
		}
		if n == 0 {
			return reactive.Goal{}, errString("a goal table must list at least one value, such as {\"start\", 1, 5}")
		}
		terms := make([]expr.Value, 0, n)
		bad := ""
		x.ForEach(func(k, _ lua.LValue) {
			if i, ok := k.(lua.LNumber); !ok || float64(i) < 1 || float64(i) > float64(n) || float64(i) != float64(int(i)) {
				bad = "a goal table must be a list, not a table with key " + k.String()
			}
		})
		if bad != "" {
			return reactive.Goal{}, errString(bad)
		}
		for i := 1; i <= n; i++ {
			e := x.RawGetInt(i)
			switch e.(type) {
			case lua.LString, lua.LNumber, lua.LBool:
			default:
				return reactive.Goal{}, errString("a goal table holds strings, numbers and booleans, not a " + e.Type().String() + " at [" + itoa(i) + "]")
			}
			val, err := toValue(e)
			if err != nil {
				return reactive.Goal{}, err
			}
			terms = append(terms, val)
		}
		return reactive.GoalTuple(terms...), nil
	}
	return reactive.Goal{}, errString("a goal is a string or a list of strings, numbers and booleans, not a " + v.Type().String())
}

type errString string

func (e errString) Error() string { return string(e) }

// goalLua is a goal as Lua sees it: a string, or a new list.
func (r *Runtime) goalLua(g reactive.Goal) lua.LValue {
	if !g.Tuple {
		return lua.LString(g.Name())
	}
	t := r.L.CreateTable(len(g.Terms), 0)
	for _, v := range g.Terms {
		t.Append(fromValue(v))
	}
	return t
}

// luaResult is a Lua value that completed a goal; its String is stable
// from run to run (no table addresses), for traces.
type luaResult struct{ v lua.LValue }

func (l luaResult) String() string { return describeLua(l.v, 0) }

func describeLua(v lua.LValue, depth int) string {
	switch x := v.(type) {
	case lua.LString:
		if len(x) > maxNameBytes { // a message names it, not copies it
			return "a string of " + itoa(len(x)) + " bytes"
		}
		return expr.StringValue(string(x)).String()
	case lua.LNumber:
		return expr.ShortNumber(float64(x))
	case lua.LBool, *lua.LNilType:
		return x.String()
	case *lua.LTable:
		n := x.Len()
		if depth > 2 || n == 0 {
			return "a table"
		}
		parts := make([]string, 0, n)
		for i := 1; i <= n && i <= 8; i++ {
			parts = append(parts, describeLua(x.RawGetInt(i), depth+1))
		}
		if n > 8 {
			parts = append(parts, "...")
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "a " + v.Type().String()
}

// toLua converts a result or context from Go (another plan's body, Go or
// Lua) to Lua.
func (r *Runtime) toLua(v any) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case luaResult:
		return x.v
	case lua.LValue:
		return x
	case expr.Value:
		return fromValue(x)
	case reactive.Goal:
		return r.goalLua(x)
	case string:
		return lua.LString(x)
	case float64:
		return lua.LNumber(x)
	case int:
		return lua.LNumber(x)
	case bool:
		return lua.LBool(x)
	case bdi.Event:
		return r.eventTable(&x)
	}
	return lua.LString(bdi.Describe(v))
}

// eventTable is an event as wait_event returns it.
func (r *Runtime) eventTable(ev *bdi.Event) *lua.LTable {
	t := r.L.CreateTable(0, 5)
	t.RawSetString("kind", lua.LString(ev.Kind.String()))
	if ev.Kind.IsGoal() {
		t.RawSetString("goal", r.goalLua(ev.Goal))
		if ev.Err != nil {
			t.RawSetString("error", lua.LString(ev.Err.Error()))
		}
		if ev.Result != nil {
			t.RawSetString("result", r.toLua(ev.Result))
		}
		return t
	}
	if ev.Kind.IsPerception() {
		setRemembered(t, ev.Thing) // the thing as it was when the event happened
		return t
	}
	r.beliefFields(t, ev)
	return t
}

func (r *Runtime) beliefFields(t *lua.LTable, ev *bdi.Event) {
	t.RawSetString("name", lua.LString(ev.Name))
	t.RawSetString("value", fromValue(ev.Value))
	t.RawSetString("old", fromValue(ev.Old))
	if ev.From != "" {
		t.RawSetString("from", lua.LString(ev.From))
	}
}

// subject is what a trigger receives: the goal for a goal event, the
// thing as npc:recall shows it for a perception event, or
// { name =, value =, old = } (and from = for a told belief).
func (r *Runtime) subject(ev *bdi.Event) lua.LValue {
	if ev.Kind.IsGoal() {
		return r.goalLua(ev.Goal)
	}
	if ev.Kind.IsPerception() {
		return rememberedTable(r.L, ev.Thing)
	}
	t := r.L.CreateTable(0, 4)
	r.beliefFields(t, ev)
	return t
}

var eventFields = []string{"kind", "goal", "error", "name", "value", "old", "from", "source"}

// eventFilter compiles wait_event's filter: a table matched field by field
// against the event, a function of the event (called like a trigger), or
// nil for any event.
func (r *Runtime) eventFilter(a *engine.Agent, f lua.LValue) (func(*bdi.Event) (bool, error), string, error) {
	switch x := f.(type) {
	case *lua.LNilType:
		return func(*bdi.Event) (bool, error) { return true, nil }, "any event", nil
	case *lua.LFunction:
		return func(ev *bdi.Event) (bool, error) {
			r.site = callSite{kind: siteFilter}
			rets, err := r.call(a, modeFilter, x, 1, r.eventTable(ev))
			if err != nil {
				return false, err
			}
			return lua.LVAsBool(rets[0]), nil
		}, "with a function filter", nil
	case *lua.LTable:
		var kind bdi.Kind
		hasKind, hasGoal := false, false
		var goal reactive.Goal
		var name, errText, from, source string
		var value, old expr.Value
		var problem error
		var parts []string
		x.ForEach(func(k, v lua.LValue) {
			key, _ := k.(lua.LString)
			if problem != nil {
				return
			}
			parts = append(parts, string(key)+"="+describeLua(v, 1))
			switch string(key) {
			case "kind":
				s, _ := v.(lua.LString)
				var ok bool
				if kind, ok = bdi.ParseKind(string(s)); !ok {
					problem = errString("filter kind must be one of " + strings.Join(bdi.KindNames(), ", ") + ", not " + describeLua(v, 1) +
						engine.DidYouMean(string(s), bdi.KindNames()))
				}
				hasKind = true
			case "goal":
				g, err := toGoal(v)
				if err != nil {
					problem = err
				}
				goal, hasGoal = g, true
			case "name":
				name = lua.LVAsString(v)
			case "error":
				errText = lua.LVAsString(v)
			case "from":
				from = lua.LVAsString(v)
			case "source":
				source = lua.LVAsString(v)
			case "value", "old":
				val, err := toValue(v)
				if err != nil {
					problem = err
				}
				if key == "value" {
					value = val
				} else {
					old = val
				}
			default:
				problem = errString("filter has no field \"" + k.String() + "\" (an event has " + strings.Join(eventFields, ", ") + ")" +
					engine.DidYouMean(k.String(), eventFields))
			}
		})
		if problem != nil {
			return nil, "", problem
		}
		sortStrings(parts)
		return func(ev *bdi.Event) (bool, error) {
			switch {
			case hasKind && ev.Kind != kind,
				hasGoal && (!ev.Kind.IsGoal() || !ev.Goal.Equal(goal)),
				name != "" && (!ev.Kind.IsBelief() || ev.Name != name),
				errText != "" && (ev.Err == nil || !strings.Contains(ev.Err.Error(), errText)),
				from != "" && ev.From != from,
				source != "" && (!ev.Kind.IsPerception() || ev.Name != source),
				value.IsKnown() && !ev.Value.Equal(value),
				old.IsKnown() && !ev.Old.Equal(old):
				return false, nil
			}
			return true, nil
		}, "{" + strings.Join(parts, ", ") + "}", nil
	}
	return nil, "", errString("a filter is a table such as { kind = \"belief_added\", name = \"bell\" } or a function of the event, not a " + f.Type().String())
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// maxNameBytes is the longest name (of a goal, a belief, an agent) the
// npc methods take: the engine copies a name into records, messages and
// suggestions, so a longer one is refused before it reaches them.
const maxNameBytes = 1024

// nameLength refuses a name longer than maxNameBytes.
func nameLength(name string) error {
	if len(name) > maxNameBytes {
		return errString("a name of " + itoa(len(name)) + " bytes is longer than a name may be (" + itoa(maxNameBytes) + " bytes)")
	}
	return nil
}

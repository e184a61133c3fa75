package luabind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/record"
	lua "github.com/yuin/gopher-lua"
)

// LLM defaults.
const (
	// DefaultLLMTimeout is how long, in seconds of game time, npc:llm_plan
	// waits for an answer when the call gives no timeout.
	DefaultLLMTimeout = 10.0
	// DefaultLLMRequestTimeout bounds one request in wall-clock time, so a
	// request whose body was interrupted does not run forever.
	DefaultLLMRequestTimeout = 2 * time.Minute
)

// LLMOptions configures npc:llm_plan for a Runtime (see
// Runtime.EnableLLM). The zero value is not usable: give a Planner, or a
// Replay.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type LLMOptions struct {
	// Planner asks the model. Each request uses it with the call's own
	// capabilities (by default the role's actions, llm.CapabilitiesOf) and
	// the agent's state in the prompt. Its guard rails run when the body
	// calls npc:llm_plan; a refused goal returns at once. One Planner may
	// serve many runtimes.
	Planner *llm.DynamicPlanner
	// Timeout is the default wait, in seconds of game time (the sum of the
	// ticks' dt), before npc:llm_plan returns nil, "timeout". Zero means
	// DefaultLLMTimeout.
	Timeout float64
	// RequestTimeout bounds each request in wall-clock time; zero means
	// DefaultLLMRequestTimeout. A request past it is an error answer.
	RequestTimeout time.Duration
	// DeliverAfterTicks, when positive, makes every answer reach its body
	// exactly this many ticks after the request (unless the timeout comes
	// first): that tick waits for the model when the answer is not in yet.
	// This makes a run with a live model deterministic, for tests and
	// headless runs; a real-time game leaves it 0, so no tick ever waits
	// and an answer reaches its body at the first tick after it arrived.
	DeliverAfterTicks int
	// Replay, when not nil, answers every request from these records (a
	// run's llm-request and llm-answer events, in order) instead of the
	// model: the k-th request of an agent gets that agent's k-th recorded
	// answer, the same number of ticks after the request as recorded, so
	// the run repeats without the model. Planner is then not used.
	Replay []record.Event
	// Unavailable makes every npc:llm_plan return nil, "unavailable" at
	// once, with no request: a game with no model configured (no
	// MOONMIND_LLM_BASE_URL, see llm.EnvConfigured) enables it this way so
	// that its scripts run unchanged and take their fallback.
	Unavailable bool
}

// LLM serves npc:llm_plan for one Runtime: it runs each request on its
// own goroutine, off the game loop, and hands the answer to the waiting
// body at a tick. Wait and Close may be called from any goroutine; the
// rest of its work happens in the Runtime's ticks.
type LLM struct {
	rt     *Runtime
	opts   LLMOptions
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	replay map[string][]recordedAnswer
	asked  map[*engine.Agent]int // requests so far, per agent, for Replay
}

type recordedAnswer struct {
	ticks  int    // after the request; -1: never answered
	answer string // an llm-answer record's Reason
}

// EnableLLM gives the runtime's npc objects the method npc:llm_plan. Call
// it once, before agents tick; the LLM serves every agent whose bodies run
// in this runtime. Close the LLM before the runtime.
//
// In a body, npc:llm_plan(goal_text [, {capabilities = ..., timeout =
// seconds, goal = "name", fallback = "reject"|"trim"|"goap"}]) asks the
// model for a plan and suspends the body until the answer (or the
// timeout) without ever blocking a tick. It returns the plan as a table
// {goal = ..., reasoning = ..., steps = {{action = ..., description = ...,
// arguments = {...}, reasoning = ...}, ...}}, or nil and a reason:
// "timeout", "refused: ...", "rejected: ...", "error: ..." or
// "unavailable".
// capabilities is a list of action names of the role (described by their
// precondition, effects and cost) or of {name = ..., description = ...}
// tables; nil means every action of the role. With goal (a goal of the
// role), the answer is grounded when it arrives (llm.GroundingRule against
// the agent's state then) and rejected, trimmed to its valid prefix or
// replaced by the GOAP planner's plan as fallback says (default reject).
//
// Each request and each answer is a record of the agent (llm-request with
// the goal text; llm-answer with the plan as JSON, or "timeout", or the
// reason), so LLMOptions.Replay can repeat a run without the model.
func (r *Runtime) EnableLLM(o LLMOptions) (*LLM, error) {
	if r.closed {
		return nil, errClosed
	}
	if o.Planner == nil && o.Replay == nil && !o.Unavailable {
		return nil, errors.New("luabind: EnableLLM needs a Planner, a Replay or Unavailable")
	}
	if o.Timeout < 0 || math.IsNaN(o.Timeout) || math.IsInf(o.Timeout, 0) {
		return nil, fmt.Errorf("luabind: LLMOptions.Timeout must be a finite number of seconds >= 0, not %v", o.Timeout)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultLLMTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultLLMRequestTimeout
	}
	l := &LLM{rt: r, opts: o, asked: map[*engine.Agent]int{}}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	if o.Replay != nil {
		l.replay = replayAnswers(o.Replay)
	}
	L := r.L
	fn, err := L.Load(strings.NewReader(llmPrelude), preludeName)
	if err != nil {
		panic("luabind: llm prelude: " + err.Error()) // a bug in this package
	}
	L.Push(fn)
	L.Push(r.methods)
	L.Push(L.NewFunction(l.start))
	L.Push(L.NewFunction(l.result))
	L.Push(r.hostToken)
	L.Call(4, 0)
	r.methodsChanged()
	return l, nil
}

// llmPrelude defines npc:llm_plan: start the request in Go, suspend the
// body on the host token while the LLM polls the request in Go each tick,
// then build the result.
const llmPrelude = `
local methods, start, result, HOST = ...
local yield, type, error = coroutine.yield, type, error
function methods.llm_plan(self, goal, opts)
  if type(self) ~= "userdata" then
    error("npc:llm_plan is a method: call it with a colon, npc:llm_plan(...), not npc.llm_plan(...)", 2)
  end
  local h, pending = start(self, goal, opts)
  if pending then
    local ok, err = yield(HOST, h)
    if not ok then error(err, 2) end
  end
  return result(self, h)
end
`

// Wait blocks until every request in flight has finished (its answer is
// then ready for the next tick). Tests use it to make "the answer has
// arrived" a fact instead of a race.
func (l *LLM) Wait() { l.wg.Wait() }

// Close cancels the requests in flight and waits for their goroutines.
// Bodies still waiting get "error: ..." answers at their next tick.
func (l *LLM) Close() {
	l.cancel()
	l.wg.Wait()
}

// llmRequest is one npc:llm_plan call.
type llmRequest struct {
	l        *LLM
	agent    *engine.Agent
	goal     string
	opts     callOptions
	timeout  float64 // seconds of game time
	waited   float64
	ticks    int
	done     chan struct{}
	cancel   context.CancelFunc
	recorded *recordedAnswer // under Replay

	// Set by the request's goroutine before done closes.
	plan llm.Plan
	js   []byte // plan as JSON, the answer record's text (encoded there, off the game's goroutine)
	err  error

	// The outcome the body gets: the answer record's Reason, and the plan.
	answer string
	out    *llm.Plan
	why    string // when out is nil: "timeout", "error: ...", ...
}

type callOptions struct {
	caps     []llm.Capability
	goal     *engine.Goal
	fallback llm.Fallback
}

// start(npc, goal, opts) validates the call, records the request and
// starts it; it returns the handle and whether the body must wait.
func (l *LLM) start(L *lua.LState) int {
	r := l.rt
	a := r.checkAgent(L, 1)
	if r.mode != modeBody {
		L.Error(lua.LString(scriptWhere(L)+"npc:llm_plan can only be called in an action body (run), not in "+r.mode.String()), 0)
	}
	goal, ok := L.Get(2).(lua.LString)
	if !ok {
		L.Error(lua.LString(scriptWhere(L)+"bad argument #1 to 'llm_plan' (string expected, got "+L.Get(2).Type().String()+")"), 0)
	}
	req := &llmRequest{l: l, agent: a, goal: string(goal), timeout: l.opts.Timeout, done: make(chan struct{})}
	if err := l.readOptions(L, a, req); err != nil {
		L.Error(lua.LString(scriptWhere(L)+"npc:llm_plan: "+err.Error()), 0)
	}
	action := ""
	if run := a.Running(); run != nil {
		action = run.Name
	}
	a.Record(record.Event{Kind: record.EventLLMRequest, Goal: req.goal, Action: action})
	h := &hostHandle{fn: req.poll, call: HostCall{Agent: a, Name: "llm_plan", Memo: req}}
	ud := L.NewUserData()
	ud.Value = h
	ud.Metatable = r.callMeta
	L.Push(ud)

	switch {
	case l.opts.Unavailable:
		req.finish("unavailable", nil, "unavailable")
		L.Push(lua.LFalse)
		return 2
	case l.replay != nil:
		k := l.asked[a]
		l.asked[a] = k + 1
		recs := l.replay[a.Name]
		if k >= len(recs) {
			msg := fmt.Sprintf("error: replay: no recorded answer for request %d of agent %s", k+1, a.Name)
			req.finish(msg, nil, msg)
			L.Push(lua.LFalse)
			return 2
		}
		req.recorded = &recs[k]
		if req.recorded.ticks == 0 {
			req.deliverRecorded()
			L.Push(lua.LFalse)
			return 2
		}
	default:
		if err := l.opts.Planner.CheckGoal(req.goal); err != nil {
			req.finish("refused: "+err.Error(), nil, "refused: "+err.Error())
			L.Push(lua.LFalse)
			return 2
		}
		l.launch(req)
	}
	L.Push(lua.LTrue)
	return 2
}

// launch runs the request on its own goroutine. The goroutine reads only
// what start copied for it (the goal, the capabilities, a snapshot of
// the state) and writes only req.plan, req.js and req.err before closing done.
func (l *LLM) launch(req *llmRequest) {
	planner := l.opts.Planner.WithCapabilities(req.opts.caps)
	state := req.agent.State.Map(req.agent.Domain.Schema)
	ctx, cancel := context.WithTimeout(l.ctx, l.opts.RequestTimeout)
	req.cancel = cancel
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer close(req.done)
		req.plan, req.err = planner.GeneratePlanWithState(ctx, req.goal, state)
		if req.err == nil {
			req.js, _ = json.Marshal(req.plan)
		}
	}()
}

// poll is the request's host function: called in Go once per tick while
// the body waits; done when the answer or the timeout is delivered.
func (req *llmRequest) poll(c *HostCall) (bool, error) {
	req.ticks++
	req.waited += c.DT
	if req.recorded != nil {
		if req.recorded.ticks > 0 && req.ticks >= req.recorded.ticks {
			req.deliverRecorded()
			return true, nil
		}
		return false, nil
	}
	after := req.l.opts.DeliverAfterTicks
	if after > 0 && req.ticks >= after {
		<-req.done // lockstep: this tick waits for the model
		req.deliver()
		return true, nil
	}
	if after <= 0 {
		select {
		case <-req.done:
			req.deliver()
			return true, nil
		default:
		}
	}
	if req.waited >= req.timeout-1e-9 {
		req.cancel()
		req.finish("timeout", nil, "timeout")
		return true, nil
	}
	return false, nil
}

// deliver turns the finished request into the body's outcome.
func (req *llmRequest) deliver() {
	req.cancel()
	if req.err != nil {
		msg := "error: " + req.err.Error()
		if errors.Is(req.err, llm.ErrRefused) {
			msg = "refused: " + req.err.Error()
		}
		req.finish(msg, nil, msg)
		return
	}
	req.finish(string(req.js), &req.plan, "")
}

func (req *llmRequest) deliverRecorded() {
	ans := req.recorded.answer
	if !strings.HasPrefix(ans, "{") {
		req.finish(ans, nil, ans)
		return
	}
	var p llm.Plan
	if err := json.Unmarshal([]byte(ans), &p); err != nil {
		msg := "error: replay: the recorded answer is not a plan: " + err.Error()
		req.finish(ans, nil, msg)
		return
	}
	if p.Steps == nil {
		p.Steps = []llm.PlanStep{}
	}
	req.finish(ans, &p, "")
}

// finish records the answer and sets the body's outcome; a plan is
// grounded first when the call named a goal.
func (req *llmRequest) finish(answer string, p *llm.Plan, why string) {
	ev := record.Event{Kind: record.EventLLMAnswer, Goal: req.goal, Reason: answer}
	if p != nil {
		ev.Plan = p.Actions()
	}
	req.agent.Record(ev)
	req.answer, req.out, req.why = answer, p, why
	if p == nil || req.opts.goal == nil {
		return
	}
	rule := llm.GroundingRule{Domain: req.agent.Domain, State: req.agent.State, Goal: req.opts.goal, OnInvalid: req.opts.fallback}
	v, err := llm.NewPlanApprovalGate(rule.Review).AutoApproveEmpty(false).Review(*p)
	switch {
	case err != nil:
		req.out, req.why = nil, "error: "+err.Error()
	case !v.Approved:
		req.out, req.why = nil, "rejected: "+v.Reason
	default:
		req.out = &v.Plan
	}
}

// result(npc, handle) returns the plan table, or nil and the reason.
func (l *LLM) result(L *lua.LState) int {
	l.rt.checkAgent(L, 1)
	ud, ok := L.Get(2).(*lua.LUserData)
	var req *llmRequest
	if ok {
		if h, ok := ud.Value.(*hostHandle); ok {
			req, _ = h.call.Memo.(*llmRequest)
		}
	}
	if req == nil {
		L.ArgError(2, "llm_plan handle expected")
	}
	if req.out == nil {
		L.Push(lua.LNil)
		L.Push(lua.LString(req.why))
		return 2
	}
	// The reply is the model's, as long as it likes: charge its tables
	// and strings (work and memory) before building them on the game's
	// goroutine.
	items, bytes := planSize(*req.out)
	l.rt.charge(L, itemsWork(items)+bytesWork(bytes))
	l.rt.allocate(L, int64(bytes)+tableEntryBytes*int64(items))
	L.Push(planTable(L, *req.out))
	return 1
}

// tableEntryBytes is what the memory meter counts for each table entry
// and table built from a model's reply (the walk's figure for a hash
// entry, see sandbox_memory.go).
const tableEntryBytes = 40

// planSize counts what planTable builds from p: table entries and tables
// (items) and the bytes of its strings and keys.
func planSize(p llm.Plan) (items, bytes int) {
	items, bytes = 3, len(p.Goal)+len(p.Reasoning)
	for _, s := range p.Steps {
		items += 6
		bytes += len(s.Action) + len(s.Description) + len(s.Reasoning)
		if s.Arguments != nil {
			i, b := jsonSize(s.Arguments, 0)
			items, bytes = items+i, bytes+b
		}
	}
	return items, bytes
}

// jsonSize is planSize for a value jsonToLua converts, to the same depth.
func jsonSize(v any, depth int) (items, bytes int) {
	if depth > 16 {
		return 0, 0
	}
	switch x := v.(type) {
	case map[string]any:
		items = 1 + len(x)
		for k, e := range x {
			i, b := jsonSize(e, depth+1)
			items, bytes = items+i, bytes+b+len(k)
		}
	case []any:
		items = 1 + len(x)
		for _, e := range x {
			i, b := jsonSize(e, depth+1)
			items, bytes = items+i, bytes+b
		}
	case string:
		bytes = len(x)
	}
	return items, bytes
}

func planTable(L *lua.LState, p llm.Plan) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("goal", lua.LString(p.Goal))
	t.RawSetString("reasoning", lua.LString(p.Reasoning))
	steps := L.CreateTable(len(p.Steps), 0)
	for _, s := range p.Steps {
		st := L.CreateTable(0, 4)
		st.RawSetString("action", lua.LString(s.Action))
		st.RawSetString("description", lua.LString(s.Description))
		st.RawSetString("reasoning", lua.LString(s.Reasoning))
		args := lua.LValue(L.NewTable())
		if s.Arguments != nil {
			args = jsonToLua(L, s.Arguments, 0)
		}
		st.RawSetString("arguments", args)
		steps.Append(st)
	}
	t.RawSetString("steps", steps)
	return t
}

// jsonToLua converts a decoded JSON value to Lua: objects and arrays to
// tables (at most 16 deep; deeper values become nil), null to nil.
func jsonToLua(L *lua.LState, v any, depth int) lua.LValue {
	if depth > 16 {
		return lua.LNil
	}
	switch x := v.(type) {
	case map[string]any:
		// In key order: a table's pairs follows the order its keys were
		// set in, and a Go map's order differs from run to run.
		t := L.CreateTable(0, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			t.RawSetString(k, jsonToLua(L, x[k], depth+1))
		}
		return t
	case []any:
		t := L.CreateTable(len(x), 0)
		for _, e := range x {
			t.Append(jsonToLua(L, e, depth+1))
		}
		return t
	case string:
		return lua.LString(x)
	case float64:
		return lua.LNumber(x)
	case bool:
		return lua.LBool(x)
	}
	if v == nil {
		return lua.LNil
	}
	return lua.LString(fmt.Sprint(v))
}

// readOptions reads the call's option table into req.
func (l *LLM) readOptions(L *lua.LState, a *engine.Agent, req *llmRequest) error {
	req.opts.caps = llm.CapabilitiesOf(a.Domain)
	v := L.Get(3)
	if v == lua.LNil {
		return nil
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		return fmt.Errorf("the options must be a table, not a %s", v.Type())
	}
	// Options in sorted order, so the problem reported first is always the
	// same (a Lua table's hash part has no order).
	var keys []string
	t.ForEach(func(k, _ lua.LValue) { keys = append(keys, k.String()) })
	sort.Strings(keys)
	var problem error
	for _, key := range keys {
		if problem != nil {
			break
		}
		val := t.RawGetString(key)
		switch key {
		case "capabilities":
			req.opts.caps, problem = capabilitiesFrom(val, a.Domain)
		case "timeout":
			n, ok := val.(lua.LNumber)
			if !ok || !(float64(n) > 0) || math.IsInf(float64(n), 0) {
				problem = fmt.Errorf("timeout must be a number of seconds > 0, not %s", val.String())
				continue
			}
			req.timeout = float64(n)
		case "goal":
			name, ok := val.(lua.LString)
			if !ok {
				problem = fmt.Errorf("goal must be the name of a goal of the role, not a %s", val.Type())
				continue
			}
			if req.opts.goal = a.Domain.Goal(string(name)); req.opts.goal == nil {
				problem = fmt.Errorf("the role has no goal %q%s", string(name), didYouMean(string(name), a.Domain.GoalNames()))
			}
		case "fallback":
			switch val.String() {
			case "reject":
				req.opts.fallback = llm.RejectInvalid
			case "trim":
				req.opts.fallback = llm.TrimToValidPrefix
			case "goap":
				req.opts.fallback = llm.FallBackToGOAP
			default:
				problem = fmt.Errorf("fallback must be \"reject\", \"trim\" or \"goap\", not %q", val.String())
			}
		default:
			problem = fmt.Errorf("unknown option %q%s", key, didYouMean(key, []string{"capabilities", "timeout", "goal", "fallback"}))
		}
	}
	return problem
}

// capabilitiesFrom reads a capabilities list: action names of the role,
// described as llm.CapabilitiesOf describes them (any other name gets no
// description), or {name = ..., description = ...} tables.
func capabilitiesFrom(v lua.LValue, d *engine.Domain) ([]llm.Capability, error) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("capabilities must be a list, not a %s", v.Type())
	}
	described := map[string]string{}
	for _, c := range llm.CapabilitiesOf(d) {
		described[c.Name] = c.Description
	}
	caps := []llm.Capability{}
	for i, n := 1, t.Len(); i <= n; i++ {
		switch x := t.RawGetInt(i).(type) {
		case lua.LString:
			caps = append(caps, llm.Capability{Name: string(x), Description: described[string(x)]})
		case *lua.LTable:
			name, ok := x.RawGetString("name").(lua.LString)
			if !ok || name == "" {
				return nil, fmt.Errorf("capabilities[%d] has no name", i)
			}
			desc, _ := x.RawGetString("description").(lua.LString)
			caps = append(caps, llm.Capability{Name: string(name), Description: string(desc)})
		default:
			return nil, fmt.Errorf("capabilities[%d] must be an action name or a {name, description} table, not a %s", i, x.Type())
		}
	}
	return caps, nil
}

// replayAnswers pairs each agent's llm-request records with the
// llm-answer record that follows each. A request without an answer (its
// body was interrupted first) is never answered in the replay either.
func replayAnswers(events []record.Event) map[string][]recordedAnswer {
	out := map[string][]recordedAnswer{}
	open := map[string]int{} // tick of the unanswered request, per agent
	for _, e := range events {
		switch e.Kind {
		case record.EventLLMRequest:
			open[e.Agent] = e.Tick
			out[e.Agent] = append(out[e.Agent], recordedAnswer{ticks: -1})
		case record.EventLLMAnswer:
			recs := out[e.Agent]
			if len(recs) == 0 || recs[len(recs)-1].ticks >= 0 {
				continue // an answer without its request: the trace was cut
			}
			recs[len(recs)-1] = recordedAnswer{ticks: e.Tick - open[e.Agent], answer: e.Reason}
		}
	}
	return out
}

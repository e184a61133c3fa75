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

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/record"
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
	// Models are more planners by the name of their model role ("cheapest",
	// "best", or any name the game gives), for npc:llm_plan's model
	// option: a script names the kind of model a call needs and the game
	// maps it to a client (a small local model, a large hosted one). The
	// name "default" means Planner unless Models has it. A call naming a
	// model that is neither fails its action with the names there are.
	Models map[string]*llm.DynamicPlanner
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
	if o.Planner == nil && len(o.Models) == 0 && o.Replay == nil && !o.Unavailable {
		return nil, errors.New("luabind: EnableLLM needs a Planner, a Replay or Unavailable")
	}
	for name, p := range o.Models {
		if p == nil {
			return nil, fmt.Errorf("luabind: LLMOptions.Models[%q] is nil", name)
		}
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
	L.Push(L.NewFunction(l.decide))
	L.Push(L.NewFunction(l.replan))
	L.Call(6, 0)
	r.methodsChanged()
	return l, nil
}

// llmPrelude defines npc:llm_plan: start the request in Go, suspend the
// body on the host token while the LLM polls the request in Go each tick,
// then build the result.
const llmPrelude = `
local methods, start, result, HOST, decide, replan = ...
local yield, type, error, ipairs, tostring = coroutine.yield, type, error, ipairs, tostring

-- run executes the plan's steps with execute and asks for a revised plan
-- when one fails, at most limit times, as llm.AdaptiveReplanEngine does.
local function run(self, h, plan, execute, limit)
  local results, replans, attempt = {}, 0, 0
  local out = { plan = plan, results = results, completed = false }
  while true do
    local failed, err
    for i, step in ipairs(plan.steps) do
      local ok, e = execute(step, self)
      if ok then
        results[#results + 1] = { action = step.action, success = true, output = e, attempt = attempt }
      else
        err = tostring(e or "the step failed")
        results[#results + 1] = { action = step.action, success = false, error = err, attempt = attempt }
        failed = i
        break
      end
    end
    if not failed then
      out.completed = true
      break
    end
    if replans >= limit then break end
    replans = replans + 1
    local h2, pending = replan(self, h, failed, err)
    if pending then
      local ok, e = yield(HOST, h2)
      if not ok then error(e, 3) end
    end
    local revised, why = result(self, h2)
    if revised == nil then
      out.error = why
      break
    end
    if #revised.steps == 0 then break end
    attempt = attempt + 1
    plan, h = revised, h2
    out.plan = plan
  end
  out.replans = replans
  local success = true
  for _, r in ipairs(results) do success = success and r.success end
  out.success = success
  return out
end

function methods.llm_plan(self, goal, opts)
  if type(self) ~= "userdata" then
    error("npc:llm_plan is a method: call it with a colon, npc:llm_plan(...), not npc.llm_plan(...)", 2)
  end
  local h, pending, limit = start(self, goal, opts)
  if pending then
    local ok, err = yield(HOST, h)
    if not ok then error(err, 2) end
  end
  local plan, why = result(self, h)
  local review = type(opts) == "table" and opts.review or nil
  if plan ~= nil and review ~= nil and #plan.steps > 0 then
    local verdict, reason = review(plan, self)
    plan, why = decide(self, h, verdict, reason)
  end
  local execute = type(opts) == "table" and opts.execute or nil
  if plan ~= nil and execute ~= nil then
    return run(self, h, plan, execute, limit)
  end
  return plan, why
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

	// A revised plan's request (the execute option): the plan whose step
	// failed, its 0-based index and the error. Its answer is neither
	// grounded nor reviewed, as llm.AdaptiveReplanEngine's is not.
	replanOf *llm.Plan
	failed   int
	failErr  string
}

type callOptions struct {
	caps        []llm.Capability
	goal        *engine.Goal
	fallback    llm.Fallback
	model       string // the model role named, or ""
	temperature *float64
	context     string
	rails       []llm.GuardRail
	planner     *llm.DynamicPlanner // the call's planner, its options applied (nil under Replay or Unavailable)
	maxReplans  int                 // with execute: the revised plans it may ask for
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
	req.opts.maxReplans = llm.DefaultMaxReplanAttempts
	err := l.readOptions(L, a, req)
	if err == nil {
		err = l.callPlanner(req)
	}
	if err != nil {
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
		L.Push(lua.LNumber(req.opts.maxReplans))
		return 3
	case l.replay != nil:
		k := l.asked[a]
		l.asked[a] = k + 1
		recs := l.replay[a.Name]
		if k >= len(recs) {
			msg := fmt.Sprintf("error: replay: no recorded answer for request %d of agent %s", k+1, a.Name)
			req.finish(msg, nil, msg)
			L.Push(lua.LFalse)
			L.Push(lua.LNumber(req.opts.maxReplans))
			return 3
		}
		req.recorded = &recs[k]
		if req.recorded.ticks == 0 {
			req.deliverRecorded()
			L.Push(lua.LFalse)
			L.Push(lua.LNumber(req.opts.maxReplans))
			return 3
		}
	default:
		if err := req.opts.planner.CheckGoal(req.goal); err != nil {
			req.finish("refused: "+err.Error(), nil, "refused: "+err.Error())
			L.Push(lua.LFalse)
			L.Push(lua.LNumber(req.opts.maxReplans))
			return 3
		}
		l.launch(req)
	}
	L.Push(lua.LTrue)
	L.Push(lua.LNumber(req.opts.maxReplans))
	return 3
}

// callPlanner picks the call's planner (its model role, see
// LLMOptions.Models) and applies the call's capabilities, temperature,
// context and guard rails to a copy of it. Under Replay or Unavailable no
// planner is asked, and none is picked.
func (l *LLM) callPlanner(req *llmRequest) error {
	if l.opts.Unavailable || l.replay != nil {
		return nil
	}
	o := &req.opts
	p := l.opts.Planner
	if o.model == "" {
		// The running action's llm_model, as Embabel routes an action to
		// a model, else its role's.
		if run := req.agent.Running(); run != nil {
			if b, ok := run.Body.(*luaBody); ok {
				o.model = b.llmModel
			}
		}
		if rec := l.rt.domains[req.agent.Domain]; o.model == "" && rec != nil {
			o.model = rec.llmModel
		}
	}
	if o.model != "" {
		if m, ok := l.opts.Models[o.model]; ok {
			p = m
		} else if o.model != "default" {
			names := make([]string, 0, len(l.opts.Models)+1)
			for n := range l.opts.Models {
				names = append(names, n)
			}
			if l.opts.Planner != nil {
				names = append(names, "default")
			}
			sort.Strings(names)
			return fmt.Errorf("model %q is not one the game offers (%s)%s", o.model, strings.Join(names, ", "), didYouMean(o.model, names))
		}
	}
	if p == nil {
		return errors.New("no default model: name one of the game's models with the model option")
	}
	p = p.WithCapabilities(o.caps)
	if o.temperature != nil {
		var err error
		if p, err = p.WithTemperature(*o.temperature); err != nil {
			return err
		}
	}
	if o.context != "" {
		p = p.WithMoreContext(o.context)
	}
	if len(o.rails) > 0 {
		p = p.WithGuardRails(o.rails...)
	}
	o.planner = p
	return nil
}

// launch runs the request on its own goroutine. The goroutine reads only
// what start copied for it (the goal, the capabilities, a snapshot of
// the state) and writes only req.plan, req.js and req.err before closing done.
func (l *LLM) launch(req *llmRequest) {
	planner := req.opts.planner
	state := req.agent.State.Map(req.agent.Domain.Schema)
	ctx, cancel := context.WithTimeout(l.ctx, l.opts.RequestTimeout)
	req.cancel = cancel
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer close(req.done)
		if req.replanOf != nil {
			req.plan, req.err = planner.Replan(ctx, *req.replanOf, req.failed, req.failErr)
		} else {
			req.plan, req.err = planner.GeneratePlanWithState(ctx, req.goal, state)
		}
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
	if p == nil || req.opts.goal == nil || req.replanOf != nil {
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
	req := llmRequestOf(L, 2)
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

// replan(npc, handle, failed, err) asks for a revised plan after step
// failed (1-based) of the handle's plan failed with err, as start asks
// for the first: recorded (an llm-request record whose reason says which
// step failed), answered off the game loop, or from Replay. It returns
// the new handle and whether the body must wait.
func (l *LLM) replan(L *lua.LState) int {
	r := l.rt
	a := r.checkAgent(L, 1)
	prev := llmRequestOf(L, 2)
	failed := L.CheckInt(3) - 1
	errText := L.CheckString(4)
	if prev.out == nil || failed < 0 || failed >= len(prev.out.Steps) {
		L.ArgError(3, "not a step of the plan")
	}
	req := &llmRequest{l: l, agent: a, goal: prev.goal, opts: prev.opts, timeout: prev.timeout, done: make(chan struct{}),
		replanOf: prev.out, failed: failed, failErr: errText}
	action := ""
	if run := a.Running(); run != nil {
		action = run.Name
	}
	a.Record(record.Event{Kind: record.EventLLMRequest, Goal: req.goal, Action: action,
		Reason: fmt.Sprintf("replan: step %d (%s) failed: %s", failed+1, prev.out.Steps[failed].Action, errText)})
	h := &hostHandle{fn: req.poll, call: HostCall{Agent: a, Name: "llm_plan", Memo: req}}
	ud := L.NewUserData()
	ud.Value = h
	ud.Metatable = r.callMeta
	L.Push(ud)
	if l.replay != nil {
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
		L.Push(lua.LTrue)
		return 2
	}
	l.launch(req)
	L.Push(lua.LTrue)
	return 2
}

// decide(npc, handle, verdict, reason) applies what the call's review
// function decided about the plan, as llm.PlanApprovalGate applies a
// Decision, and returns the plan table or nil and the reason:
//   - true, nil or "approve": the plan as it is;
//   - false (with a reason) or {reject = reason}: nil, "rejected: reason";
//   - {remove = {i, ...}}: without those steps (1-based, as the plan's
//     steps table);
//   - {order = {i, ...}}: the steps in that order (order[k] is the step
//     that comes k-th);
//   - {remove = ..., order = ...}: removed first, then reordered (the
//     order's indexes are of the plan after the removal).
//
// A decision that does not fit the plan (a step index out of range, an
// order that is not a permutation) gives nil, "error: ...".
func (l *LLM) decide(L *lua.LState) int {
	l.rt.checkAgent(L, 1)
	req := llmRequestOf(L, 2)
	d, err := luaDecision(L.Get(3), L.Get(4))
	if err == nil {
		var v llm.Verdict
		v, err = llm.NewPlanApprovalGate(func(llm.Plan) llm.Decision { return d }).Review(*req.out)
		if err == nil && !v.Approved {
			L.Push(lua.LNil)
			L.Push(lua.LString("rejected: " + v.Reason))
			return 2
		}
		if err == nil {
			req.out = &v.Plan
			return l.result(L)
		}
	}
	L.Push(lua.LNil)
	L.Push(lua.LString("error: " + err.Error()))
	return 2
}

// luaDecision reads a review function's answer (see decide).
func luaDecision(v, reason lua.LValue) (llm.Decision, error) {
	why := ""
	if s, ok := reason.(lua.LString); ok {
		why = string(s)
	}
	switch x := v.(type) {
	case *lua.LNilType:
		return llm.Approve(), nil
	case lua.LBool:
		if x {
			return llm.Approve(), nil
		}
		if why == "" {
			why = "the review said no"
		}
		return llm.Reject(why), nil
	case lua.LString:
		if x == "approve" {
			return llm.Approve(), nil
		}
	case *lua.LTable:
		if r := x.RawGetString("reject"); r != lua.LNil {
			return llm.Reject(lua.LVAsString(r)), nil
		}
		removed, err := luaIndexes(x.RawGetString("remove"), "remove")
		if err != nil {
			return llm.Decision{}, err
		}
		order, err := luaIndexes(x.RawGetString("order"), "order")
		if err != nil {
			return llm.Decision{}, err
		}
		switch {
		case order == nil && removed == nil:
			return llm.Decision{}, errors.New("llm: review decision: a table needs reject, remove or order")
		case order == nil:
			return llm.RemoveSteps(removed...), nil
		case removed == nil:
			return llm.Reorder(order...), nil
		}
		return llm.Modify(removed, order), nil
	}
	return llm.Decision{}, fmt.Errorf("llm: review decision: expected true, false, \"approve\" or a table {reject =, remove =, order =}, not %s", v.Type())
}

// luaIndexes reads a list of 1-based step indexes as 0-based ones; nil
// when v is nil.
func luaIndexes(v lua.LValue, what string) ([]int, error) {
	if v == lua.LNil {
		return nil, nil
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("llm: review decision: %s must be a list of step indexes, not a %s", what, v.Type())
	}
	out := []int{}
	for i, n := 1, t.Len(); i <= n; i++ {
		k, ok := t.RawGetInt(i).(lua.LNumber)
		if !ok || float64(k) != math.Trunc(float64(k)) || math.Abs(float64(k)) > 1e9 {
			return nil, fmt.Errorf("llm: review decision: %s[%d] must be a whole step index, not %s", what, i, t.RawGetInt(i).String())
		}
		out = append(out, int(k)-1)
	}
	return out, nil
}

// llmRequestOf returns the request of the llm_plan handle at argument n.
func llmRequestOf(L *lua.LState, n int) *llmRequest {
	var req *llmRequest
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if h, ok := ud.Value.(*hostHandle); ok {
			req, _ = h.call.Memo.(*llmRequest)
		}
	}
	if req == nil {
		L.ArgError(n, "llm_plan handle expected")
	}
	return req
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
		case "model":
			name, ok := val.(lua.LString)
			if !ok || name == "" {
				problem = fmt.Errorf("model must name a model role (\"cheapest\", \"best\", \"default\", ...), not %s", val.String())
				continue
			}
			req.opts.model = string(name)
		case "temperature":
			n, ok := val.(lua.LNumber)
			if !ok || !(float64(n) >= 0 && float64(n) <= 2) {
				problem = fmt.Errorf("temperature must be a number from 0 to 2, not %s", val.String())
				continue
			}
			t := float64(n)
			req.opts.temperature = &t
		case "context":
			text, ok := val.(lua.LString)
			if !ok {
				problem = fmt.Errorf("context must be a string, not a %s", val.Type())
				continue
			}
			req.opts.context = string(text)
		case "max_goal_chars":
			n, ok := val.(lua.LNumber)
			if !ok || !(float64(n) >= 1) || float64(n) != math.Trunc(float64(n)) || float64(n) > 1e9 {
				problem = fmt.Errorf("max_goal_chars must be a whole number >= 1, not %s", val.String())
				continue
			}
			req.opts.rails = append(req.opts.rails, llm.MaxLength(int(n)))
		case "deny":
			words, ok := val.(*lua.LTable)
			var list []string
			for i := 1; ok && i <= words.Len(); i++ {
				w, isStr := words.RawGetInt(i).(lua.LString)
				ok = isStr
				list = append(list, string(w))
			}
			if !ok {
				problem = fmt.Errorf("deny must be a list of words, not %s", val.String())
				continue
			}
			req.opts.rails = append(req.opts.rails, llm.DenyWords(list...))
		case "execute":
			if _, ok := val.(*lua.LFunction); !ok {
				problem = fmt.Errorf("execute must be a function(step, npc) returning true or false and an error, not a %s", val.Type())
			}
		case "max_replans":
			n, ok := val.(lua.LNumber)
			if !ok || !(float64(n) >= 0) || float64(n) != math.Trunc(float64(n)) || float64(n) > 1000 {
				problem = fmt.Errorf("max_replans must be a whole number from 0 to 1000, not %s", val.String())
				continue
			}
			req.opts.maxReplans = int(n)
		case "review":
			if _, ok := val.(*lua.LFunction); !ok {
				problem = fmt.Errorf("review must be a function(plan, npc) returning the decision, not a %s", val.Type())
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
			problem = fmt.Errorf("unknown option %q%s", key, didYouMean(key, llmOptionNames()))
		}
	}
	return problem
}

// llmOptionNames returns npc:llm_plan's options.
func llmOptionNames() []string {
	return []string{"capabilities", "context", "deny", "execute", "fallback", "goal", "max_goal_chars", "max_replans", "model", "review", "temperature", "timeout"}
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

package luabind

import (
	"errors"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/record"
	lua "github.com/yuin/gopher-lua"
)

// bdiState is the runtime's part in reactive plans.
type bdiState struct {
	// waitToken marks what a body yields in achieve and wait_event.
	waitToken *lua.LUserData
	// planSets are the plans and initial goals of each role file read, by
	// path, parents' plans after the child's.
	planSets map[string]*rolePlans
	// work is what each agent's scripts spent in its current tick, in
	// work units (see sandbox_tickbudget.go): all of an agent's intentions share
	// one instruction budget per tick (see intentionWork), so plans that
	// wake each other cannot multiply it by the number of resumes, and
	// all of its Lua calls share Options.TickBudget.
	work map[*engine.Agent]*tickWork
}

// intentionWork returns the agent's work record for its current tick,
// or nil when the runtime has no instruction budget.
func (r *Runtime) intentionWork(a *engine.Agent) *tickWork {
	if r.budget.callLimit <= 0 {
		return nil
	}
	return r.tickWork(a)
}

// planBody is a plan's body function. Each start is a new coroutine in
// the runtime's Lua state, called as body(npc, ctx).
type planBody struct {
	rt *Runtime
	fn *lua.LFunction
}

// Start implements bdi.Body.
func (b *planBody) Start(a *engine.Agent, ev *bdi.Event, ctx any) (bdi.Task, error) {
	if b.rt.closed {
		return nil, errClosed
	}
	var evt lua.LValue = lua.LNil
	if ev != nil {
		evt = b.rt.eventTable(ev)
	}
	return &planTask{coTask: coTask{rt: b.rt, th: b.rt.newThread(a), agent: a, kind: "plan body", zeroDtWaits: true},
		fn: b.fn, ctx: b.rt.toLua(ctx), ev: evt}, nil
}

// planTask is one intention: a coroutine that runs until it suspends. It
// waits in Go like an action body (coTask: npc:wait, host methods, the
// Pending of achieve and wait_event), resuming the coroutine only when the
// wait is over, under the same budget and memory limit. All intentions of
// an agent also share one budget per tick (intentionWork).
type planTask struct {
	coTask
	fn          *lua.LFunction
	ctx         lua.LValue
	ev          lua.LValue // the event that started the plan, as wait_event returns it (the body's third argument)
	result      lua.LValue
	suspensions int
}

// Result implements bdi.Task: the body's first return value.
func (t *planTask) Result() any {
	if t.result == nil || t.result == lua.LNil {
		return nil
	}
	return luaResult{t.result}
}

// Suspension implements bdi.Suspender: how often the intention suspended,
// and what it waits for now.
func (t *planTask) Suspension() (int, string) { return t.suspensions, t.waiting() }

// Stop implements bdi.Task.
func (t *planTask) Stop() {
	if t.bw != nil {
		t.bw.p.Cancel()
	}
	if !t.done {
		t.done = true
		t.rt.release(&t.coTask, false)
	}
}

// Resume implements bdi.Task.
func (t *planTask) Resume(dt float64) (engine.Status, error) {
	if t.done {
		return engine.Failed, errors.New("luabind: intention resumed after it ended")
	}
	// One instruction budget per agent per tick for all its intentions:
	// once it is spent the intention waits for the next tick (before it
	// reads what it waited for, so nothing is lost).
	w := t.rt.intentionWork(t.agent)
	if w != nil && w.intentions >= t.rt.budget.callLimit {
		if !w.intentionsNoted {
			w.intentionsNoted = true
			t.agent.Record(record.Event{Kind: record.EventNoPlan, Reason: "intentions spent this tick's budget of " +
				strconv.FormatInt(t.rt.budget.callLimit, 10) + " work units; the rest waits for the next tick"})
		}
		return engine.Running, nil
	}
	// The agent's whole tick budget (Options.TickBudget) spent: the
	// intention waits for the next tick too.
	if t.rt.tickSpent(t.agent, siteIntention, "") {
		return engine.Running, nil
	}
	args, ok := t.waitOver(dt)
	if !ok {
		return engine.Running, nil
	}
	var first []lua.LValue
	if !t.started {
		first = []lua.LValue{t.npcObject(), t.ctx, t.ev}
	}
	t.rt.site = callSite{kind: siteIntention}
	st, rets, err := t.resume(t.fn, first, args)
	if w != nil {
		w.intentions += t.work
	}
	switch {
	case err != nil:
		return engine.Failed, err
	case st == lua.ResumeYield:
		t.suspensions++
		return engine.Running, nil
	}
	if len(rets) > 0 {
		t.result = rets[0]
	}
	return engine.Succeeded, nil
}

package luabind

import (
	"errors"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// luaBody is an action's run function. Each start gets a coroutine of its
// own in the runtime's Lua state (a new one, or one a returned body left
// and nothing can tell from new: see body_threadpool.go); the function
// prototype is shared.
type luaBody struct {
	rt          *Runtime
	fn          *lua.LFunction
	onInterrupt *lua.LFunction
	llmModel    string // the action's llm_model: the model role its npc:llm_plan calls ask by default
}

// Start implements engine.Body: it makes the run's coroutine. The
// coroutine starts with a small stack that grows on demand (see
// registrySize).
func (b *luaBody) Start(agent *engine.Agent, action *engine.Action) (engine.Task, error) {
	if b.rt.closed {
		return nil, errClosed
	}
	return &luaTask{coTask: coTask{rt: b.rt, th: b.rt.newThread(agent), agent: agent, kind: "action body"}, body: b}, nil
}

// luaTask is one run of a body: a coroutine resumed at most once per tick.
// The first resume passes npc. npc:wait, unfinished host methods and the
// waits of npc:achieve and npc:wait_event are handled in Go without
// resuming the coroutine until they are over (coTask); a body that calls
// coroutine.yield() itself gets the tick's dt back.
type luaTask struct {
	coTask
	body *luaBody
	// interruptErr is why on_interrupt failed, for InterruptErr.
	interruptErr error
	tick         *tickWork // the agent's tick record (Runtime.cachedTickWork)
}

// Resume runs the body until it yields or ends, under the runtime's
// budget: a body that runs past Options.InstructionBudget fails with an
// error naming its file and line.
func (t *luaTask) Resume(dt float64) (engine.Status, error) {
	if t.done {
		return engine.Failed, errors.New("luabind: body resumed after it ended")
	}
	// The agent's tick budget (Options.TickBudget) spent by its other
	// scripts: the body is not resumed and waits for the next tick, before
	// it reads what it waited for (this tick does not count in an
	// npc:wait).
	var tick *tickWork
	if rt := t.rt; rt.tickLimit > 0 && t.agent.Ticks() > 0 { // rt.charged, inline
		if tick = rt.cachedTickWork(t.agent, &t.tick); tick.spent >= rt.tickLimit {
			rt.noteTickBudget(t.agent, tick, callSite{kind: siteBody}, "", false)
			return engine.Running, nil
		}
	}
	args, ok := t.waitOver(dt)
	if !ok {
		return engine.Running, nil
	}
	var first []lua.LValue
	if !t.started {
		first = []lua.LValue{t.npcObject()}
	}
	if tick != nil {
		t.rt.site = callSite{kind: siteBody, w: tick}
	}
	st, rets, err := t.resume(t.body.fn, first, args)
	switch {
	case err != nil:
		t.rt.noteScriptError(err)
		return engine.Failed, err
	case st == lua.ResumeYield:
		return engine.Running, nil
	}
	// A body fails by returning false, reason.
	if len(rets) > 0 && rets[0] == lua.LFalse {
		// The return has no line once the coroutine ended: name the
		// body's own first line.
		p := t.body.fn.Proto
		reason := p.SourceName + ":" + itoa(p.LineDefined) + ": the body returned false"
		if len(rets) > 1 && rets[1] != lua.LNil {
			reason = errorText(rets[1])
		}
		return engine.Failed, errors.New(reason)
	}
	return engine.Succeeded, nil
}

// Interrupt ends the run: the coroutine is dropped and on_interrupt, when
// the action has one, runs once under the budget with npc.state writable.
func (t *luaTask) Interrupt() {
	if t.done {
		return
	}
	t.done = true
	t.rt.release(&t.coTask, false)
	if f := t.body.onInterrupt; f != nil {
		rt := t.rt
		// An on_interrupt error must not stop the interruption; the
		// agent records it (see InterruptErr).
		rt.site = callSite{kind: siteInterrupt}
		if _, err := rt.call(t.agent, modeInterrupt, f, 0, rt.npc(t.agent)); err != nil {
			t.interruptErr = err
		}
	}
}

// InterruptErr implements engine.InterruptReporter: the error of the
// on_interrupt handler of the last Interrupt, or nil.
func (t *luaTask) InterruptErr() error { return t.interruptErr }

package luabind

import (
	"errors"
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// luaBody is an action's run function. Each start gets a new coroutine in
// the runtime's Lua state; the function prototype is shared.
type luaBody struct {
	rt          *Runtime
	fn          *lua.LFunction
	onInterrupt *lua.LFunction
}

// Start implements engine.Body: it makes the run's coroutine. The
// coroutine starts with a small stack that grows on demand (see
// registrySize).
func (b *luaBody) Start(agent *engine.Agent, action *engine.Action) (engine.Task, error) {
	return &luaTask{body: b, th: b.rt.newThread(agent), agent: agent}, nil
}

// luaTask is one run of a body: a coroutine resumed at most once per tick.
// The first resume passes npc. npc:wait and unfinished host methods are
// handled in Go without resuming the coroutine until they are done; a
// body that calls coroutine.yield() itself gets the tick's dt back.
type luaTask struct {
	body    *luaBody
	th      *lua.LState
	agent   *engine.Agent
	started bool
	done    bool

	// While the body sleeps in npc:wait, the task counts the time in Go
	// and resumes the coroutine only once sleepFor seconds have passed.
	sleeping        bool
	slept, sleepFor float64
	// While a host method is not done, the task calls it in Go each tick
	// and resumes the coroutine with its results when it is.
	host *hostHandle
	mem  bodyMemory // what the body holds (see memory.go)
	// interruptErr is why on_interrupt failed, for InterruptErr.
	interruptErr error
	// While the body waits in npc:achieve or npc:wait_event, the task
	// polls the wait each tick (bdi_npc.go).
	bw *bdiWait
}

// Resume runs the body until it yields or ends, under the runtime's
// budget: a body that runs past Options.InstructionBudget fails with an
// error naming its file and line.
func (t *luaTask) Resume(dt float64) (status engine.Status, err error) {
	if t.done {
		return engine.Failed, errors.New("luabind: body resumed after it ended")
	}
	var args []lua.LValue
	switch {
	case t.sleeping:
		t.slept += dt
		if t.slept < t.sleepFor-1e-9 {
			return engine.Running, nil
		}
		t.sleeping = false
	case t.host != nil:
		h := t.host
		h.call.First, h.call.DT = false, dt
		done, herr := h.fn(&h.call)
		switch {
		case herr != nil:
			args = []lua.LValue{lua.LFalse, lua.LString("npc:" + h.call.Name + ": " + herr.Error())}
		case !done:
			return engine.Running, nil
		default:
			args = make([]lua.LValue, 0, 1+len(h.call.Results))
			args = append(args, lua.LTrue)
			for _, v := range h.call.Results {
				args = append(args, fromValue(v))
			}
		}
		t.host = nil
	case t.bw != nil:
		var ok bool
		if args, ok = t.bw.poll(t.body.rt); !ok {
			return engine.Running, nil
		}
		t.bw = nil
	case t.started:
		// A body that yields by itself gets the tick's dt back.
		args = []lua.LValue{lua.LNumber(dt)}
	}
	rt := t.body.rt
	sc := rt.begin(t.agent, modeBody)
	rt.budget.mem.held = t.mem.held
	rt.running = t.th
	L := rt.L
	top := L.GetTop()
	defer func() {
		rt.running = nil
		rt.end(sc)
		// gopher-lua panics out of Resume when a coroutine yielded across
		// a Go call it could not suspend (see checkedYield). Restore the
		// main state and fail the action instead of the process.
		if rcv := recover(); rcv != nil {
			L.SetTop(top)
			L.G.CurrentThread = L.G.MainThread
			t.done = true
			rt.release(t, false)
			status, err = engine.Failed, fmt.Errorf("luabind: action body broke its coroutine (did it wait inside a metamethod?): %v", rcv)
		}
	}()
	var st lua.ResumeState
	var rets []lua.LValue
	if !t.started {
		t.started = true
		st, err, rets = L.Resume(t.th, t.body.fn, t.body.rt.npc(t.agent))
	} else {
		st, err, rets = L.Resume(t.th, t.body.fn, args...)
	}
	work, alloc := rt.budget.n, rt.budget.mem.alloc
	switch st {
	case lua.ResumeYield:
		if merr := rt.afterResume(t, work, alloc); merr != nil {
			where := scriptWhere(t.th)
			t.done = true
			rt.release(t, true)
			return engine.Failed, errors.New(where + merr.Error())
		}
		if len(rets) >= 2 {
			switch rets[0] {
			case rt.sleepToken:
				t.sleeping, t.slept, t.sleepFor = true, 0, float64(lua.LVAsNumber(rets[1]))
			case rt.hostToken:
				if ud, ok := rets[1].(*lua.LUserData); ok {
					t.host, _ = ud.Value.(*hostHandle)
				}
				if t.host != nil && t.host.call.Agent != t.agent {
					// A handle that another agent's code started: the
					// host would run it on this agent's ticks.
					h := t.host
					t.host, t.done = nil, true
					where := scriptWhere(t.th)
					rt.release(t, false)
					return engine.Failed, fmt.Errorf("%snpc:%s: this host call was started by %s, not by %s: an agent can wait only for its own host calls",
						where, h.call.Name, agentName(h.call.Agent), agentName(t.agent))
				}
			case rt.bdi.waitToken:
				t.bw = waitOf(rets[1])
			}
		}
		return engine.Running, nil
	case lua.ResumeOK:
		t.done = true
		rt.release(t, false)
		// A body fails by returning false, reason.
		if len(rets) > 0 && rets[0] == lua.LFalse {
			reason := "the body returned false"
			if len(rets) > 1 && rets[1] != lua.LNil {
				reason = errorText(rets[1])
			}
			return engine.Failed, errors.New(reason)
		}
		return engine.Succeeded, nil
	}
	t.done = true
	// The dead coroutine still holds its frames: name the script's line
	// where the message has none or names this package's own code.
	where := rt.faultWhere()
	if where == "" {
		where = scriptWhere(t.th)
	}
	err = errors.New(locateAt(luaError(err).Error(), where))
	rt.release(t, strings.Contains(err.Error(), "memory limit exceeded"))
	return engine.Failed, err
}

// Interrupt ends the run: the coroutine is dropped and on_interrupt, when
// the action has one, runs once under the budget with npc.state writable.
func (t *luaTask) Interrupt() {
	if t.done {
		return
	}
	t.done = true
	t.body.rt.release(t, false)
	if f := t.body.onInterrupt; f != nil {
		rt := t.body.rt
		// An on_interrupt error must not stop the interruption; the
		// agent records it (see InterruptErr).
		if _, err := rt.call(t.agent, modeInterrupt, f, 0, rt.npc(t.agent)); err != nil {
			t.interruptErr = err
		}
	}
}

// InterruptErr implements engine.InterruptReporter: the error of the
// on_interrupt handler of the last Interrupt, or nil.
func (t *luaTask) InterruptErr() error { return t.interruptErr }

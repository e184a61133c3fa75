package luabind

import (
	"errors"
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// coTask is what an action body's run (luaTask) and a reactive plan's
// intention (planTask) share: a coroutine of the runtime's Lua state that
// waits in Go (npc:wait, host methods that take ticks, npc:achieve and
// npc:wait_event) and is resumed only when its wait is over, under the
// runtime's budget and the agent's memory limit, with every failure named
// at the script's file:line.
type coTask struct {
	rt      *Runtime
	th      *lua.LState
	agent   *engine.Agent
	kind    string // "action body" or "plan body", for messages
	started bool
	done    bool
	// zeroDtWaits makes a resume with dt == 0 (an intention woken inside
	// the tick) leave host methods and plain yields waiting for the next
	// tick, since no game time has passed.
	zeroDtWaits bool

	// While it sleeps in npc:wait the task counts the time in Go.
	sleeping        bool
	slept, sleepFor float64
	// While a host method is not done the task calls it in Go each tick
	// and resumes the coroutine with its results when it is.
	host *hostHandle
	// While it waits in npc:achieve or npc:wait_event the task polls the
	// wait each tick (npc_bdi.go).
	bw  *bdiWait
	mem bodyMemory // what the coroutine holds (see sandbox_memory.go)
	// npc is the agent's npc object, looked up once (npcObject): a
	// look-up in the runtime's map of every agent's npc missed the cache
	// on each resume of a large world.
	npc *lua.LUserData
	// work is what the last resume spent, in work units (0 when it ran
	// inside another budgeted call).
	work int64
	// warm is where the memory lies that the next resume reads (body_warm.go).
	warm warmSpans
}

// waitOver advances the task's wait by dt and reports whether the
// coroutine is to be resumed now, with the values it resumes with.
func (t *coTask) waitOver(dt float64) ([]lua.LValue, bool) {
	switch {
	case t.sleeping:
		t.slept += dt
		if t.slept < t.sleepFor-1e-9 {
			return nil, false
		}
		t.sleeping = false
	case t.bw != nil:
		args, ok := t.bw.poll(t.rt)
		if !ok {
			return nil, false
		}
		t.bw = nil
		return args, true
	case t.host != nil:
		if dt == 0 && t.zeroDtWaits {
			return nil, false // a host method advances with game time only
		}
		h := t.host
		h.call.First, h.call.DT = false, dt
		done, herr := h.fn(&h.call)
		var args []lua.LValue
		switch {
		case herr != nil:
			args = []lua.LValue{lua.LFalse, lua.LString("npc:" + h.call.Name + ": " + herr.Error())}
		case !done:
			return nil, false
		default:
			// The runtime's spare slice: resume only pushes the values.
			clear(t.rt.waitArgs)
			args = append(t.rt.waitArgs[:0], lua.LTrue)
			for _, v := range h.call.Results {
				args = append(args, fromValue(v))
			}
		}
		if cap(args) <= maxSpareRets {
			t.rt.waitArgs = args
		}
		t.host = nil
		return args, true
	case t.started:
		if dt == 0 && t.zeroDtWaits {
			return nil, false // a plain yield waits for the next tick
		}
		// A coroutine that yields by itself gets the tick's dt back.
		return []lua.LValue{lua.LNumber(dt)}, true
	}
	return nil, true
}

// resume runs the coroutine until it yields or ends: fn with first on the
// first resume, else with args. On a yield it notes what the coroutine
// now waits for. A failure (a script error, the budget or the memory
// limit spent, a host call of another agent, a yield inside a metamethod)
// ends the task and is returned with the script's file:line; a task that
// ends, either way, releases its coroutine.
func (t *coTask) resume(fn *lua.LFunction, first, args []lua.LValue) (st lua.ResumeState, rets []lua.LValue, err error) {
	rt := t.rt
	if rt.closed {
		return lua.ResumeError, nil, errClosed
	}
	sc := rt.begin(t.agent, modeBody)
	rt.budget.mem.held = t.mem.held
	rt.running = t.th
	// The agent's npc object is fast while its coroutine runs (see
	// promote); an outer resume of the same agent made it fast already.
	outerFast := rt.fast != nil
	rt.promote(t.npcObject())
	L := rt.L
	top := L.GetTop()
	defer func() {
		rt.running = nil
		if !outerFast {
			rt.demote()
		}
		rt.end(sc)
		// gopher-lua panics out of Resume when a coroutine yielded across
		// a Go call it could not suspend (see checkedYield). Restore the
		// main state and fail the task instead of the process.
		if rcv := recover(); rcv != nil {
			L.SetTop(top)
			L.G.CurrentThread = L.G.MainThread
			t.done = true
			rt.release(t, false)
			st, err = lua.ResumeError, fmt.Errorf("luabind: %s broke its coroutine (did it wait inside a metamethod?): %v", t.kind, rcv)
		}
	}()
	if !t.started {
		t.started = true
		st, rets, err = rt.resumeThread(L, t.th, fn, first)
	} else {
		st, rets, err = rt.resumeThread(L, t.th, fn, args)
	}
	t.work = 0
	if sc.armed {
		t.work = rt.budget.n
	}
	switch st {
	case lua.ResumeYield:
		if merr := rt.afterResume(t, rt.budget.n, rt.budget.mem.alloc); merr != nil {
			where := scriptWhere(t.th)
			t.done = true
			rt.release(t, true)
			return lua.ResumeError, nil, errors.New(where + merr.Error())
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
					return lua.ResumeError, nil, fmt.Errorf("%snpc:%s: this host call was started by %s, not by %s: an agent can wait only for its own host calls",
						where, h.call.Name, agentName(h.call.Agent), agentName(t.agent))
				}
			case rt.bdi.waitToken:
				t.bw = waitOf(rets[1])
			}
		}
		t.noteWarm()
		return st, rets, nil
	case lua.ResumeOK:
		t.done = true
		rt.recycleThread(t.th)
		rt.release(t, false)
		return st, rets, nil
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
	return st, nil, err
}

// npcObject returns the agent's npc object (Runtime.npc), looked up on
// the first call only.
func (t *coTask) npcObject() *lua.LUserData {
	if t.npc == nil {
		t.npc = t.rt.npc(t.agent)
	}
	return t.npc
}

// waiting says, for traces, what the coroutine waits for now.
func (t *coTask) waiting() string {
	switch {
	case t.sleeping:
		return "wait " + expr.ShortNumber(t.sleepFor) + " s"
	case t.host != nil:
		return "npc:" + t.host.call.Name
	case t.bw != nil:
		return t.bw.what
	}
	return "yield"
}

package luabind

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	lua "github.com/yuin/gopher-lua"
)

// bdiState is the runtime's part in reactive plans.
type bdiState struct {
	// waitToken marks what a body yields in achieve and wait_event.
	waitToken *lua.LUserData
	// planSets are the plans and initial goals of each role file read, by
	// path, parents' plans after the child's.
	planSets map[string]*rolePlans
	// work is what each agent's intentions spent in its current tick, in
	// work units: all of an agent's intentions share one instruction
	// budget per tick (see intentionWork), so plans that wake each other
	// cannot multiply it by the number of resumes.
	work map[*engine.Agent]*tickWork
}

// tickWork is the work one agent's intentions did in one tick.
type tickWork struct {
	tick  int
	spent int64
	noted bool // the deferral of this tick is recorded
}

// intentionWork returns the agent's work record for its current tick,
// or nil when the runtime has no instruction budget.
func (r *Runtime) intentionWork(a *engine.Agent) *tickWork {
	if r.budget.limit <= 0 {
		return nil
	}
	if r.bdi.work == nil {
		r.bdi.work = map[*engine.Agent]*tickWork{}
	}
	w := r.bdi.work[a]
	if w == nil {
		w = &tickWork{tick: -1}
		r.bdi.work[a] = w
	}
	if w.tick != a.Ticks() {
		w.tick, w.spent, w.noted = a.Ticks(), 0, false
	}
	return w
}

// planBody is a plan's body function. Each start is a new coroutine in
// the runtime's Lua state, called as body(npc, ctx).
type planBody struct {
	rt *Runtime
	fn *lua.LFunction
}

// Start implements bdi.Body.
func (b *planBody) Start(a *engine.Agent, _ *bdi.Event, ctx any) (bdi.Task, error) {
	return &planTask{rt: b.rt, fn: b.fn, th: b.rt.newThread(a), agent: a, ctx: b.rt.toLua(ctx)}, nil
}

// planTask is one intention: a coroutine that runs until it suspends. It
// waits in Go like an action body (npc:wait, host methods) and for the
// Pending of achieve and wait_event, resuming the coroutine only when the
// wait is over. Its instructions count against the runtime's budget, per
// resume, like an action body's.
type planTask struct {
	rt      *Runtime
	fn      *lua.LFunction
	th      *lua.LState
	agent   *engine.Agent
	ctx     lua.LValue
	started bool
	done    bool

	sleeping        bool
	slept, sleepFor float64
	host            *hostHandle
	wait            *bdiWait

	result      lua.LValue
	suspensions int
	what        string
}

// Result implements bdi.Task: the body's first return value.
func (t *planTask) Result() any {
	if t.result == nil || t.result == lua.LNil {
		return nil
	}
	return luaResult{t.result}
}

// Suspension implements bdi.Suspender.
func (t *planTask) Suspension() (int, string) { return t.suspensions, t.what }

// Stop implements bdi.Task.
func (t *planTask) Stop() {
	t.done = true
	if t.wait != nil {
		t.wait.p.Cancel()
	}
}

// Resume implements bdi.Task.
func (t *planTask) Resume(dt float64) (status engine.Status, err error) {
	if t.done {
		return engine.Failed, errors.New("luabind: intention resumed after it ended")
	}
	// One instruction budget per agent per tick for all its intentions:
	// once it is spent the intention waits for the next tick (before it
	// reads what it waited for, so nothing is lost).
	w := t.rt.intentionWork(t.agent)
	if w != nil && w.spent >= t.rt.budget.limit {
		if !w.noted {
			w.noted = true
			t.agent.Record(engine.Event{Kind: engine.EventNoPlan, Reason: "intentions spent this tick's budget of " +
				strconv.FormatInt(t.rt.budget.limit, 10) + " work units; the rest waits for the next tick"})
		}
		return engine.Running, nil
	}
	var args []lua.LValue
	switch {
	case t.sleeping:
		t.slept += dt
		if t.slept < t.sleepFor-1e-9 {
			return engine.Running, nil
		}
		t.sleeping = false
	case t.wait != nil:
		var ok bool
		if args, ok = t.wait.poll(t.rt); !ok {
			return engine.Running, nil
		}
		t.wait = nil
	case t.host != nil:
		h := t.host
		if dt == 0 {
			return engine.Running, nil // a host method advances with game time only
		}
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
	case t.started:
		if dt == 0 {
			return engine.Running, nil // a plain yield waits for the next tick
		}
		args = []lua.LValue{lua.LNumber(dt)}
	}
	rt := t.rt
	sc := rt.begin(t.agent, modeBody)
	L := rt.L
	top := L.GetTop()
	defer func() {
		if w != nil && sc.armed {
			w.spent += rt.budget.n
		}
		rt.end(sc)
		if rcv := recover(); rcv != nil {
			L.SetTop(top)
			L.G.CurrentThread = L.G.MainThread
			t.done = true
			status, err = engine.Failed, fmt.Errorf("luabind: plan body broke its coroutine (did it wait inside a metamethod?): %v", rcv)
		}
	}()
	var st lua.ResumeState
	var rets []lua.LValue
	if !t.started {
		t.started = true
		st, err, rets = L.Resume(t.th, t.fn, rt.npc(t.agent), t.ctx)
	} else {
		st, err, rets = L.Resume(t.th, t.fn, args...)
	}
	switch st {
	case lua.ResumeYield:
		t.suspensions++
		t.what = "yield"
		if len(rets) >= 2 {
			switch rets[0] {
			case rt.sleepToken:
				t.sleeping, t.slept, t.sleepFor = true, 0, float64(lua.LVAsNumber(rets[1]))
				t.what = "wait " + engine.FormatNumber(t.sleepFor) + " s"
			case rt.hostToken:
				if ud, ok := rets[1].(*lua.LUserData); ok {
					t.host, _ = ud.Value.(*hostHandle)
				}
				if t.host != nil {
					t.what = "npc:" + t.host.call.Name
				}
			case rt.bdi.waitToken:
				if t.wait = waitOf(rets[1]); t.wait != nil {
					t.what = t.wait.what
				}
			}
		}
		return engine.Running, nil
	case lua.ResumeOK:
		t.done = true
		if len(rets) > 0 {
			t.result = rets[0]
		}
		return engine.Succeeded, nil
	}
	t.done = true
	return engine.Failed, luaError(err)
}

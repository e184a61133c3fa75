package luabind

import (
	"errors"

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

func (b *luaBody) Start(agent *engine.Agent, action *engine.Action) (engine.Task, error) {
	th, _ := b.rt.L.NewThread()
	return &luaTask{body: b, th: th, agent: agent}, nil
}

// luaTask is one run of a body: a coroutine resumed once per tick. The
// first resume passes npc; later ones pass the tick's dt, which
// coroutine.yield() returns inside the body.
type luaTask struct {
	body    *luaBody
	th      *lua.LState
	agent   *engine.Agent
	started bool
	done    bool
}

func (t *luaTask) Resume(dt float64) (engine.Status, error) {
	if t.done {
		return engine.Failed, errors.New("luabind: body resumed after it ended")
	}
	L := t.body.rt.L
	var st lua.ResumeState
	var err error
	var rets []lua.LValue
	if !t.started {
		t.started = true
		st, err, rets = L.Resume(t.th, t.body.fn, t.body.rt.npc(t.agent))
	} else {
		st, err, rets = L.Resume(t.th, t.body.fn, lua.LNumber(dt))
	}
	switch st {
	case lua.ResumeYield:
		return engine.Running, nil
	case lua.ResumeOK:
		t.done = true
		// A body fails by returning false, reason.
		if len(rets) > 0 && rets[0] == lua.LFalse {
			reason := "the body returned false"
			if len(rets) > 1 && rets[1] != lua.LNil {
				reason = rets[1].String()
			}
			return engine.Failed, errors.New(reason)
		}
		return engine.Succeeded, nil
	}
	t.done = true
	return engine.Failed, luaError(err)
}

func (t *luaTask) Interrupt() {
	if t.done {
		return
	}
	t.done = true
	if f := t.body.onInterrupt; f != nil {
		L := t.body.rt.L
		L.Push(f)
		L.Push(t.body.rt.npc(t.agent))
		_ = L.PCall(1, 0, nil) // an on_interrupt error must not stop the interruption
	}
}

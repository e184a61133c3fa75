package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Reactive is an agent's reactive layer: a plan library that reacts to
// belief and goal events with intentions (package engine/bdi implements
// it). The engine knows only this interface, so it needs no import of the
// layer. An agent gets one from Domain.NewReactive when it is created, or
// from SetReactive.
//
// Within Agent.Tick the engine calls the layer in this order: told beliefs
// are delivered (Believed), sensors and named conditions run, the state is
// compared with the beliefs seen last and every change goes to Believed,
// then Step runs; after that the GOAP or utility step resumes the running
// action body, and the changes it made reach Believed at the end of the
// tick, to be dispatched at the next Step. All calls are made on the
// goroutine that ticks the agent.
type Reactive interface {
	// Believed receives one change of a state variable: a belief added
	// (the variable got a value it did not have) or removed (it lost its
	// value). It must only queue the change: Step dispatches it.
	Believed(a *Agent, c reactive.BeliefChange)
	// Achieve adds a top-level goal (a goal_added event) from Go.
	Achieve(a *Agent, g reactive.Goal)
	// Step is the reactive phase of one tick of dt seconds: dispatch the
	// queued events and resume the intentions.
	Step(a *Agent, dt float64)
}

// reactiveState is the agent's part in the reactive layer: the layer, the
// beliefs it has seen, told beliefs in and out, and the GOAP goals it asked
// the planner to pursue.
// The layer itself and the agent's world are the Agent's fields layer and
// world, among those a tick reads.
type reactiveState struct {
	seen   expr.State // the state as the layer last saw it; nil before the first tick
	inbox  []told     // when not empty, the agent's told is set
	outbox []told     // when not empty, the agent's handOn is set
	// pursued and pursueFail are per goal of the domain: asked for by the
	// reactive layer, and why the planner could not serve it.
	pursued    []bool
	pursueFail []string
}

// told is a belief on its way to agent to: slot is the variable's slot in
// schema, the receiver's schema when it was told (its domain may be
// replaced before the belief arrives).
type told struct {
	to     *Agent
	schema *expr.Schema
	slot   int
	v      expr.Value
	from   string
}

// slotIn returns the told variable's slot in schema s, and false when s
// has no such variable.
func (t *told) slotIn(s *expr.Schema) (int, bool) {
	if t.schema == s {
		return t.slot, true
	}
	return s.Lookup(t.schema.Name(t.slot))
}

// SetReactive installs a reactive layer (nil removes it); a layer it
// replaces is stopped first when it has a Stop(*Agent) method. The layer sees
// the beliefs of the agent's next tick as its starting point: changes made
// before it raise no events. Call it between ticks.
func (a *Agent) SetReactive(r Reactive) {
	if s, ok := a.layer.(interface{ Stop(*Agent) }); ok && a.layer != r {
		s.Stop(a)
	}
	a.setLayer(r)
	a.rx.seen = nil
}

// setLayer sets the reactive layer and its bit in react, which the tick
// tests instead of the layer itself (see Agent's hot fields).
func (a *Agent) setLayer(r Reactive) {
	a.layer = r
	a.marks &^= markLayer
	if r != nil {
		a.marks |= markLayer
	}
}

// Reactive returns the agent's reactive layer, or nil.
func (a *Agent) Reactive() Reactive { return a.layer }

// Recording reports whether a record made now would be kept or delivered
// anywhere, so a caller can skip formatting one.
func (a *Agent) Recording() bool { return a.Recorder != nil || a.buffered || a.OnEvent != nil }

// Believe sets a state variable and, when that makes a belief event (the
// variable gets a value it did not have, or loses its value to nil), hands
// it to the reactive layer at once, so two believes in one resume make two
// events. value nil (NilValue) removes the belief, like Forget. An unknown
// variable is an error naming it.
func (a *Agent) Believe(name string, v expr.Value) error {
	slot, ok := a.Domain.Schema.Lookup(name)
	if !ok {
		return unknownName("believe " + name + ": no state variable \"" + name + "\"" + DidYouMean(name, a.Domain.Schema.Names()))
	}
	a.believe(slot, v, "")
	return nil
}

// Forget removes a belief: its variable becomes Unknown (missing), which
// is a belief_removed event when it had a value. An unknown variable is an
// error naming it.
func (a *Agent) Forget(name string) error {
	slot, ok := a.Domain.Schema.Lookup(name)
	if !ok {
		return unknownName("forget " + name + ": no state variable \"" + name + "\"" + DidYouMean(name, a.Domain.Schema.Names()))
	}
	a.believe(slot, expr.Value{}, "")
	return nil
}

func (a *Agent) believe(slot int, v expr.Value, from string) {
	a.State[slot] = v
	if a.layer == nil || a.rx.seen == nil {
		return
	}
	old := a.rx.seen[slot]
	a.rx.seen[slot] = v
	a.noteChange(slot, old, v, from)
}

func hasValue(v expr.Value) bool { k := v.Kind(); return k != expr.Unknown && k != expr.Nil }

func (a *Agent) noteChange(slot int, old, v expr.Value, from string) {
	switch {
	case hasValue(v) && (!hasValue(old) || !old.Equal(v)):
		a.layer.Believed(a, reactive.BeliefChange{Slot: slot, Name: a.Domain.Schema.Name(slot), Old: old, New: v, From: from})
	case hasValue(old) && !hasValue(v):
		a.layer.Believed(a, reactive.BeliefChange{Slot: slot, Name: a.Domain.Schema.Name(slot), Old: old, New: v, Removed: true, From: from})
	}
}

// ObserveBeliefs compares the state with the beliefs the reactive layer
// saw last and hands every change to it, in slot order. A value is
// unchanged when it is the same Value (==, so a NaN that stays is no
// change) or an Equal one (0 and -0). The tick calls it
// after the sensors and after the action body; the reactive layer calls it
// after each intention's resume. Without a layer it does nothing.
func (a *Agent) ObserveBeliefs() {
	if a.layer == nil {
		return
	}
	if len(a.rx.seen) != len(a.State) {
		a.rx.seen = a.State.Clone()
		return
	}
	seen := a.rx.seen[:len(a.State)]
	for i := range a.State {
		v, old := &a.State[i], &seen[i]
		if *old == *v || old.Equal(*v) {
			continue // the common case; == also keeps a NaN the same belief
		}
		o := *old
		*old = *v
		a.noteChange(i, o, *v, "")
	}
}

// Tell sets belief name to v on the agent called to at the start of that
// agent's next tick (never the current one, so the order of agents and
// workers does not matter), as a belief event that names this agent in
// From. Told beliefs reach their receivers in agent order, then in the
// order they were told. It is an error when the agent is in no world, no
// agent of the world has that name, or the receiver has no such variable;
// each error names what is missing. Safe to call from a body while
// workers tick other agents.
func (a *Agent) Tell(to, name string, v expr.Value) error {
	w := a.world
	if w == nil {
		return newError("tell " + to + ": agent " + a.Name + " is in no world")
	}
	b := w.byName[to]
	if b == nil {
		names := make([]string, 0, len(w.Agents))
		for _, x := range w.Agents {
			names = append(names, x.Name)
		}
		return unknownName("tell " + to + ": no agent \"" + to + "\" in the world" + DidYouMean(to, names))
	}
	slot, ok := b.Domain.Schema.Lookup(name)
	if !ok {
		return unknownName("tell " + to + " " + name + ": " + to + " has no state variable \"" + name + "\"" +
			DidYouMean(name, b.Domain.Schema.Names()))
	}
	a.rx.outbox = append(a.rx.outbox, told{to: b, schema: b.Domain.Schema, slot: slot, v: v, from: a.Name})
	a.handOn = true
	if a.Recording() {
		a.emit(record.Event{Kind: record.EventTell, Peer: to, Belief: name, Value: shortValue(v)})
	}
	return nil
}

// Print records one line of a script's output: the agent's name, then
// the text (record.EventPrint, whose String is the line itself).
func (a *Agent) Print(text string) {
	line := a.Name
	if text != "" {
		line += " " + text
	}
	a.emit(record.Event{Kind: record.EventPrint, Reason: line})
}

// Achieve adds a goal for the agent. With a reactive layer, it is a
// goal_added event for the layer's plans (see package engine/bdi).
// Without one, a named goal that the domain declares is handed to the
// planners (see Pursue); any other goal is an error.
func (a *Agent) Achieve(g reactive.Goal) error {
	if a.layer != nil {
		a.layer.Achieve(a, g)
		return nil
	}
	if goal := a.Domain.Goal(g.Name()); goal != nil && !g.Tuple {
		a.Pursue(goal)
		return nil
	}
	return unknownName("achieve " + g.String() + ": the agent has no reactive plans and the domain no goal of that name" +
		DidYouMean(g.Name(), a.Domain.GoalNames()))
}

// Pursue asks the agent's planners to serve goal g of its domain: in
// "goap" and "hybrid" mode the goal is pursued among the others by
// priority, as always; in "utility" mode the agent plans for the goals it
// was asked to pursue before it picks. When the planner finds no plan for
// g (or only one with a backed-off or restricted action), the reason is
// kept for PursuitFailed. The request stands until Release.
func (a *Agent) Pursue(g *Goal) {
	if n := len(a.Domain.Goals); len(a.rx.pursued) != n {
		a.rx.pursued, a.rx.pursueFail = make([]bool, n), make([]string, n)
	}
	a.rx.pursued[g.Index], a.rx.pursueFail[g.Index] = true, ""
	a.failedState = a.failedState[:0] // decide again at once
	a.idle = false
}

// PursuitFailed returns why the planner could not serve a goal asked for
// with Pursue, and whether it failed.
func (a *Agent) PursuitFailed(g *Goal) (string, bool) {
	if g.Index >= len(a.rx.pursueFail) || !a.rx.pursued[g.Index] || a.rx.pursueFail[g.Index] == "" {
		return "", false
	}
	return a.rx.pursueFail[g.Index], true
}

// Release ends a request made with Pursue.
func (a *Agent) Release(g *Goal) {
	if g.Index < len(a.rx.pursued) {
		a.rx.pursued[g.Index], a.rx.pursueFail[g.Index] = false, ""
	}
}

func (a *Agent) pursuing(g *Goal) bool { return g.Index < len(a.rx.pursued) && a.rx.pursued[g.Index] }

func (a *Agent) anyPursued() bool {
	for _, p := range a.rx.pursued {
		if p {
			return true
		}
	}
	return false
}

func (a *Agent) notePursuitFail(g *Goal, reason string) {
	if a.pursuing(g) && a.rx.pursueFail[g.Index] == "" {
		a.rx.pursueFail[g.Index] = reason
	}
}

// reactiveBusy reports whether the reactive layer says it has work left
// (live intentions, queued events), through an optional Busy method.
func (a *Agent) reactiveBusy() bool {
	b, ok := a.layer.(interface{ Busy() bool })
	return ok && b.Busy()
}

// reactBegin runs at the start of a tick: it takes the first look at the
// beliefs and delivers the beliefs told last tick.
func (a *Agent) reactBegin() {
	if a.layer != nil && len(a.rx.seen) != len(a.State) {
		a.rx.seen = a.State.Clone()
	}
	if a.marks&markTold == 0 {
		return // the inbox is empty
	}
	for i := range a.rx.inbox {
		t := &a.rx.inbox[i]
		if slot, ok := t.slotIn(a.Domain.Schema); ok {
			a.believe(slot, t.v, t.from)
		}
		a.rx.inbox[i] = told{}
	}
	a.rx.inbox = a.rx.inbox[:0]
	a.marks &^= markTold
}

// reactStep runs after the sensors: the changes they made, then the
// layer's step.
func (a *Agent) reactStep(dt float64) {
	if a.layer == nil {
		return
	}
	a.ObserveBeliefs()
	a.layer.Step(a, dt)
}

// deliverTells moves every agent's told beliefs to their receivers, in
// agent order; a World calls it after each tick.
func (w *World) deliverTells() {
	for _, a := range w.Agents {
		w.deliverTellsOf(a)
	}
}

// deliverTellsOf moves a's told beliefs to their receivers.
func (w *World) deliverTellsOf(a *Agent) {
	for i, t := range a.rx.outbox {
		if t.to.world == w {
			t.to.rx.inbox = append(t.to.rx.inbox, t)
			t.to.marks |= markTold
		}
		a.rx.outbox[i] = told{}
	}
	a.rx.outbox = a.rx.outbox[:0]
}

// Agent returns the agent with that name (the first one added, when
// several share it), or nil.
func (w *World) Agent(name string) *Agent { return w.byName[name] }

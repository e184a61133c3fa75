package engine_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// scriptedLayer is a reactive layer that keeps what it is given and runs
// a function of the test at each step.
type scriptedLayer struct {
	changes  []reactive.BeliefChange
	achieved []reactive.Goal
	steps    int
	stopped  int
	onStep   func(a *engine.Agent, step int)
}

func (l *scriptedLayer) Believed(_ *engine.Agent, c reactive.BeliefChange) {
	l.changes = append(l.changes, c)
}
func (l *scriptedLayer) Achieve(_ *engine.Agent, g reactive.Goal) {
	l.achieved = append(l.achieved, g)
}
func (l *scriptedLayer) Step(a *engine.Agent, _ float64) {
	l.steps++
	if l.onStep != nil {
		l.onStep(a, l.steps)
	}
}
func (l *scriptedLayer) Stop(*engine.Agent) { l.stopped++ }

// changeText writes a belief change as old->new, with "-" for a removal
// and "<from" when an agent told it.
func changeText(c reactive.BeliefChange) string {
	s := c.Name + ":" + c.Old.String() + "->" + c.New.String()
	if c.Removed {
		s += " removed"
	}
	if c.From != "" {
		s += " <" + c.From
	}
	return s
}

func changeTexts(cs []reactive.BeliefChange) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = changeText(c)
	}
	return out
}

func beliefDomain(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{Name: "R", State: []engine.Var{
		{Name: "x", Value: expr.NumberValue(1)},
		{Name: "y", Value: expr.StringValue("a")},
	}})
	require.NoError(t, err)
	return d
}

func TestGoalValuesCompareAndPrint(t *testing.T) {
	named := reactive.GoalNamed("prepare")
	tuple := reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1), expr.NumberValue(0.5))
	assert.Equal(t, "prepare", named.Name())
	assert.Equal(t, "prepare", named.String())
	assert.False(t, named.Tuple)
	assert.Equal(t, "start", tuple.Name())
	assert.Equal(t, `{"start", 1, 0.5}`, tuple.String())
	assert.Equal(t, "", reactive.Goal{}.Name(), "the zero goal is the empty name")
	assert.Equal(t, "", reactive.GoalTuple(expr.NumberValue(3)).Name(), "a tuple that starts with a number has no name")
	assert.Equal(t, "{3}", reactive.GoalTuple(expr.NumberValue(3)).String())
	assert.Equal(t, "{}", reactive.GoalTuple().String())

	assert.True(t, named.Equal(reactive.GoalNamed("prepare")))
	assert.True(t, tuple.Equal(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1), expr.NumberValue(0.5))))
	assert.False(t, named.Equal(reactive.GoalNamed("rest")))
	assert.False(t, named.Equal(reactive.GoalTuple(expr.StringValue("prepare"))), "a name is not a tuple of one")
	assert.False(t, tuple.Equal(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1))), "a shorter tuple")
	assert.False(t, tuple.Equal(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(2), expr.NumberValue(0.5))))
	assert.False(t, tuple.Equal(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1), expr.NumberValue(5))),
		"the last elements differ")
}

func TestBelieveAndForgetHandTheLayerOneEventEach(t *testing.T) {
	d := beliefDomain(t)
	w := engine.NewWorld(1)
	a := engine.NewAgent("r", d)
	layer := &scriptedLayer{}
	a.SetReactive(layer)
	assert.Same(t, layer, a.Reactive())
	w.Add(a)

	// Before the first tick the layer has seen nothing: no events.
	require.NoError(t, a.Believe("x", expr.NumberValue(5)))
	assert.Empty(t, layer.changes)
	assert.Equal(t, expr.NumberValue(5), a.Get("x"), "the state changes all the same")

	w.Tick(0.1)
	assert.Empty(t, layer.changes, "the first tick only takes a look")
	assert.Equal(t, 1, layer.steps)

	require.NoError(t, a.Believe("x", expr.NumberValue(6)))
	require.NoError(t, a.Believe("x", expr.NumberValue(6)))
	require.NoError(t, a.Believe("y", expr.StringValue("b")))
	require.NoError(t, a.Forget("x"))
	require.NoError(t, a.Forget("x"))
	require.NoError(t, a.Believe("y", expr.NilValue()))
	require.NoError(t, a.Believe("x", expr.NumberValue(7)))
	assert.Equal(t, []string{
		"x:5->6",
		`y:"a"->"b"`,
		"x:6->unknown removed",
		`y:"b"->nil removed`,
		"x:unknown->7",
	}, changeTexts(layer.changes), "each change once, in order, at once")
	assert.Equal(t, expr.NumberValue(7), a.Get("x"))

	err := a.Believe("z", expr.NumberValue(1))
	require.Error(t, err)
	assert.True(t, errors.Is(err, engine.ErrUnknownName))
	assert.Equal(t, `engine: believe z: no state variable "z" (did you mean "x"?)`, err.Error())
	err = a.Forget("yy")
	require.Error(t, err)
	assert.True(t, errors.Is(err, engine.ErrUnknownName))
	assert.Equal(t, `engine: forget yy: no state variable "yy" (did you mean "y"?)`, err.Error())
}

func TestSetReactiveStopsTheLayerItReplaces(t *testing.T) {
	d := beliefDomain(t)
	w := engine.NewWorld(1)
	a := engine.NewAgent("r", d)
	first, second := &scriptedLayer{}, &scriptedLayer{}
	a.SetReactive(first)
	w.Add(a)
	w.Tick(0.1)
	a.SetReactive(first)
	assert.Equal(t, 0, first.stopped, "installing the same layer again stops nothing")
	a.SetReactive(second)
	assert.Equal(t, 1, first.stopped)
	assert.Same(t, second, a.Reactive())

	// The new layer starts from the beliefs of the next tick.
	require.NoError(t, a.Believe("x", expr.NumberValue(2)))
	assert.Empty(t, second.changes)
	w.Tick(0.1)
	require.NoError(t, a.Believe("x", expr.NumberValue(3)))
	assert.Equal(t, []string{"x:2->3"}, changeTexts(second.changes))

	a.SetReactive(nil)
	assert.Equal(t, 1, second.stopped)
	assert.Nil(t, a.Reactive())
	a.Set("x", expr.NumberValue(4))
	a.ObserveBeliefs() // without a layer: nothing to tell
	w.Tick(0.1)
	assert.Equal(t, []string{"x:2->3"}, changeTexts(second.changes))
	assert.Equal(t, 1, second.steps, "a removed layer no longer steps")
}

func TestObserveBeliefsHandsOnEveryChangeInSlotOrder(t *testing.T) {
	d := beliefDomain(t)
	w := engine.NewWorld(1)
	a := engine.NewAgent("r", d)
	layer := &scriptedLayer{}
	a.SetReactive(layer)
	w.Add(a)
	w.Tick(0.1)
	a.Set("y", expr.StringValue("b"))
	a.Set("x", expr.NilValue())
	a.ObserveBeliefs()
	a.ObserveBeliefs()
	assert.Equal(t, []string{"x:1->nil removed", `y:"a"->"b"`}, changeTexts(layer.changes))
	a.Set("x", expr.NumberValue(1))
	w.Tick(0.1) // the tick looks after the sensors
	assert.Equal(t, []string{"x:1->nil removed", `y:"a"->"b"`, "x:nil->1"}, changeTexts(layer.changes))
}

func TestToldBeliefsArriveAtTheReceiversNextTick(t *testing.T) {
	d := beliefDomain(t)
	w := engine.NewWorld(1)
	var events []string
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventTell:
			events = append(events, e.Agent+" tells "+e.Peer+" "+e.Belief+"="+e.Value)
		case record.EventPrint:
			events = append(events, e.Agent+" prints "+e.Reason)
		}
	}
	ann, bob, cid := engine.NewAgent("ann", d), engine.NewAgent("bob", d), engine.NewAgent("cid", d)
	annL, bobL, cidL := &scriptedLayer{}, &scriptedLayer{}, &scriptedLayer{}
	ann.SetReactive(annL)
	bob.SetReactive(bobL)
	cid.SetReactive(cidL)
	// cid tells first in its own tick, but ann comes first in agent order.
	cidL.onStep = func(a *engine.Agent, step int) {
		if step == 2 {
			require.NoError(t, a.Tell("bob", "y", expr.StringValue("from cid")))
			a.Print("told bob")
		}
	}
	annL.onStep = func(a *engine.Agent, step int) {
		if step == 2 {
			require.NoError(t, a.Tell("bob", "x", expr.NumberValue(10)))
			require.NoError(t, a.Tell("bob", "x", expr.NumberValue(11)))
			a.Print("")
		}
	}
	w.Add(ann)
	w.Add(bob)
	w.Add(cid)
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(1), bob.Get("x"), "not within the tick that told it")
	assert.Empty(t, bobL.changes)
	w.Tick(0.1)
	assert.Equal(t, []string{"x:1->10 <ann", "x:10->11 <ann", `y:"a"->"from cid" <cid`}, changeTexts(bobL.changes))
	assert.Equal(t, expr.NumberValue(11), bob.Get("x"))
	assert.Empty(t, annL.changes)
	assert.Empty(t, cidL.changes)
	assert.Equal(t, []string{
		"ann tells bob x=10", "ann tells bob x=11", "ann prints ann",
		`cid tells bob y="from cid"`, "cid prints cid told bob",
	}, events)

	// What is missing is named.
	err := ann.Tell("bobby", "x", expr.NumberValue(1))
	require.Error(t, err)
	assert.True(t, errors.Is(err, engine.ErrUnknownName))
	assert.Equal(t, `engine: tell bobby: no agent "bobby" in the world (did you mean "bob"?)`, err.Error())
	err = ann.Tell("bob", "xs", expr.NumberValue(1))
	require.Error(t, err)
	assert.True(t, errors.Is(err, engine.ErrUnknownName))
	assert.Equal(t, `engine: tell bob xs: bob has no state variable "xs" (did you mean "x"?)`, err.Error())
	lone := engine.NewAgent("lone", d)
	err = lone.Tell("bob", "x", expr.NumberValue(1))
	require.Error(t, err)
	assert.False(t, errors.Is(err, engine.ErrUnknownName))
	assert.Equal(t, "engine: tell bob: agent lone is in no world", err.Error())
}

func TestAchieveHandsTheGoalToTheLayerOrThePlanner(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "R",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.High)},
	})
	require.NoError(t, err)
	a := engine.NewAgent("r", d)
	layer := &scriptedLayer{}
	a.SetReactive(layer)
	require.NoError(t, a.Achieve(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1))))
	require.NoError(t, a.Achieve(reactive.GoalNamed("armed")))
	assert.Equal(t, []string{`{"start", 1}`, "armed"}, []string{layer.achieved[0].String(), layer.achieved[1].String()})
	require.Len(t, layer.achieved, 2)

	a.SetReactive(nil)
	armed := d.Goal("armed")
	require.NotNil(t, armed)
	_, failed := a.PursuitFailed(armed)
	assert.False(t, failed)
	require.NoError(t, a.Achieve(reactive.GoalNamed("armed")), "a goal of the domain is pursued")
	err = a.Achieve(reactive.GoalTuple(expr.StringValue("armed")))
	require.Error(t, err, "a tuple is no goal of the domain")
	assert.True(t, errors.Is(err, engine.ErrUnknownName))
	assert.Equal(t, `engine: achieve {"armed"}: the agent has no reactive plans and the domain no goal of that name (did you mean "armed"?)`,
		err.Error())
	err = a.Achieve(reactive.GoalNamed("armd"))
	require.Error(t, err)
	assert.Equal(t, `engine: achieve armd: the agent has no reactive plans and the domain no goal of that name (did you mean "armed"?)`, err.Error())
}

func TestPursuedGoalsKeepWhyThePlannerFailed(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "R",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{
			engine.NewGoal("armed", "ammo > 10", engine.High),
			engine.NewGoal("calm", "ammo < 0", engine.Low),
		},
		Actions: []engine.ActionSpec{engine.NewAction("wait").Effects("ammo = ammo").Body(engine.BodyFunc(engine.ApplyEffects)).Spec()},
	})
	require.NoError(t, err)
	armed, calm := d.Goal("armed"), d.Goal("calm")
	w := engine.NewWorld(1)
	a := engine.NewAgent("r", d)
	w.Add(a)
	a.Release(armed) // nothing asked for yet: nothing to end
	w.Tick(0.1)
	_, failed := a.PursuitFailed(armed)
	assert.False(t, failed, "the planner failed, but nobody asked for the goal")

	a.Pursue(calm)
	w.Tick(0.1)
	why, failed := a.PursuitFailed(calm)
	assert.True(t, failed)
	assert.Regexp(t, `^UNREACHABLE: the goal's condition can never hold`, why)
	_, failed = a.PursuitFailed(armed)
	assert.False(t, failed, "armed failed too, but was not asked for")

	a.Release(calm)
	_, failed = a.PursuitFailed(calm)
	assert.False(t, failed)
}

func TestAUtilityAgentPlansForTheGoalsItIsAskedToPursue(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{
		Name:   "R",
		Decide: "utility",
		State:  []engine.Var{{Name: "wood", Value: expr.NumberValue(0)}},
		Goals:  []engine.GoalSpec{engine.NewGoal("stocked", "wood >= 2", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("chop").Effects("wood = wood + 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
	})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var events []string
	w.OnEvent = func(e record.Event) { events = append(events, e.Kind.String()+" "+e.Goal+" "+e.Action) }
	a := engine.NewAgent("r", d)
	w.Add(a)
	w.Tick(0.1)
	assert.Equal(t, []string{"pick  chop", "start  chop", "finish  chop"}, events, "nothing asked: it picks")
	events = events[:0]
	a.Set("wood", expr.NumberValue(0))
	require.NoError(t, a.Achieve(reactive.GoalNamed("stocked")))
	w.Tick(0.1)
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, []string{
		"plan stocked ", "start stocked chop", "finish stocked chop", "start stocked chop", "finish stocked chop",
		"pick  chop", "start  chop", "finish  chop",
	}, events, "asked: it plans for the goal, then picks again once the goal holds")
}

// savingLayer is a scriptedLayer that saves its top-level goals in a
// snapshot.
type savingLayer struct {
	scriptedLayer
	goals    []reactive.Goal
	restored []reactive.Goal
}

func (l *savingLayer) SavedGoals() []reactive.Goal        { return l.goals }
func (l *savingLayer) RestoreGoals(goals []reactive.Goal) { l.restored = goals }

// A snapshot keeps the reactive layer's part of an agent: the beliefs it
// saw, beliefs told but not yet delivered, goals handed to the planner
// with why they failed, and the top-level goals of a layer that saves
// them.
func TestSnapshotKeepsWhatTheReactiveLayerWasGiven(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "R",
		State: []engine.Var{{Name: "x", Value: expr.NumberValue(1)}, {Name: "y", Value: expr.StringValue("a")}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "x > 100", engine.High)},
	})
	require.NoError(t, err)
	d.NewReactive = func(a *engine.Agent) engine.Reactive {
		if a.Name == "ann" {
			return &savingLayer{goals: []reactive.Goal{reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1)), reactive.GoalNamed("rest")}}
		}
		return &scriptedLayer{}
	}
	w := engine.NewWorld(7)
	ann, bob := engine.NewAgent("ann", d), engine.NewAgent("bob", d)
	w.Add(ann)
	w.Add(bob)
	armed := d.Goal("armed")
	w.Tick(0.1)
	require.NoError(t, ann.Tell("bob", "x", expr.NumberValue(10)))
	bob.Pursue(armed)
	w.Tick(0.1) // the told belief waits in bob's inbox for his next tick
	why, failed := bob.PursuitFailed(armed)
	require.True(t, failed)
	bob.Set("y", expr.StringValue("b")) // a change the layer has not seen
	require.Equal(t, expr.NumberValue(1), bob.Get("x"))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))

	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	ann2, bob2 := r.Agent("ann"), r.Agent("bob")
	require.NotNil(t, ann2)
	require.NotNil(t, bob2)
	assert.Equal(t, []string{`{"start", 1}`, "rest"}, goalTexts(ann2.Reactive().(*savingLayer).restored))
	got, failed := bob2.PursuitFailed(armed)
	assert.True(t, failed)
	assert.Equal(t, why, got)
	_, failed = ann2.PursuitFailed(armed)
	assert.False(t, failed)

	r.Tick(0.1)
	assert.Equal(t, expr.NumberValue(10), bob2.Get("x"))
	assert.Equal(t, []string{"x:1->10 <ann", `y:"a"->"b"`}, changeTexts(bob2.Reactive().(*scriptedLayer).changes),
		"the told belief arrives, and the change made before the snapshot is seen")
}

// A layer restored from a snapshot taken before the agent's first tick
// is given no goals to restart: it has started none, and starts its own
// on that first tick.
func TestALayerSnapshottedBeforeItsFirstTickRestartsNoGoals(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "R", State: []engine.Var{{Name: "x", Value: expr.NumberValue(1)}}})
	require.NoError(t, err)
	d.NewReactive = func(*engine.Agent) engine.Reactive {
		return &savingLayer{goals: []reactive.Goal{reactive.GoalNamed("rest")}}
	}
	w := engine.NewWorld(7)
	w.Add(engine.NewAgent("ann", d))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	require.Contains(t, buf.String(), `"reactiveGoals"`, "the layer's goals are saved")
	r, err := engine.Restore(bytes.NewReader(buf.Bytes()), engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	assert.Nil(t, r.Agent("ann").Reactive().(*savingLayer).restored)

	w.Tick(0.1)
	buf.Reset()
	require.NoError(t, w.Snapshot(&buf))
	r, err = engine.Restore(bytes.NewReader(buf.Bytes()), engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	assert.Equal(t, []string{"rest"}, goalTexts(r.Agent("ann").Reactive().(*savingLayer).restored), "after its first tick, it is")
}

func goalTexts(gs []reactive.Goal) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.String()
	}
	return out
}

// A belief told to an agent whose domain is replaced before it arrives,
// by one without that variable, is dropped.
func TestABeliefToldBeforeADomainSwapWithoutItsVariableIsDropped(t *testing.T) {
	d := beliefDomain(t)
	small, err := engine.Compile(engine.RoleSpec{Name: "S", State: []engine.Var{{Name: "x", Value: expr.NumberValue(1)}}})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	ann, bob := engine.NewAgent("ann", d), engine.NewAgent("bob", d)
	w.Add(ann)
	w.Add(bob)
	w.Tick(0.1)
	require.NoError(t, ann.Tell("bob", "y", expr.StringValue("b")))
	w.Tick(0.1) // now in bob's inbox
	bob.SetDomain(small)
	require.NotPanics(t, func() { w.Tick(0.1) })
	assert.Equal(t, []string{"x"}, bob.Domain.Schema.Names())
	assert.Equal(t, expr.NumberValue(1), bob.Get("x"), "nothing lands on another variable")
}

// A belief told before the receiver's domain is replaced reaches the
// variable of that name in the new domain, whatever its slot there.
func TestABeliefToldBeforeADomainSwapKeepsItsVariable(t *testing.T) {
	d := beliefDomain(t)
	other, err := engine.Compile(engine.RoleSpec{Name: "S", State: []engine.Var{
		{Name: "z", Value: expr.NumberValue(1)}, {Name: "w", Value: expr.NumberValue(2)}, {Name: "y", Value: expr.StringValue("c")},
	}})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	ann, bob := engine.NewAgent("ann", d), engine.NewAgent("bob", d)
	w.Add(ann)
	w.Add(bob)
	w.Tick(0.1)
	require.NoError(t, ann.Tell("bob", "y", expr.StringValue("b")))
	require.NoError(t, ann.Tell("bob", "x", expr.NumberValue(5)))
	w.Tick(0.1) // now in bob's inbox
	bob.SetDomain(other)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(1), bob.Get("z"))
	assert.Equal(t, expr.NumberValue(2), bob.Get("w"), "y's old slot is w's in the new domain")
	assert.Equal(t, expr.StringValue("b"), bob.Get("y"))

	// A snapshot taken before the delivery keeps y, and leaves out x.
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d, other}})
	require.NoError(t, err)
	r.Tick(0.1)
	assert.Equal(t, expr.StringValue("b"), r.Agent("bob").Get("y"))
	assert.Equal(t, expr.NumberValue(2), r.Agent("bob").Get("w"))
}

// Recording is true when a record would be kept (a recorder) or handed
// on (OnEvent, or a world that hands records on at the end of the tick).
func TestRecordingSaysWhetherARecordGoesAnywhere(t *testing.T) {
	d := beliefDomain(t)
	a := engine.NewAgent("r", d)
	a.Recorder = nil
	assert.False(t, a.Recording(), "no recorder, no listener, no world")
	a.OnEvent = func(record.Event) {}
	assert.True(t, a.Recording())
	a.OnEvent = nil
	a.Recorder = record.New(4)
	assert.True(t, a.Recording())
	a.Recorder = nil
	engine.NewWorld(1).Add(a)
	assert.True(t, a.Recording(), "in a world")
}

// TestABeliefToldBeforeALayersFirstTickIsAnEvent: a layer installed
// between ticks takes its first look at the beliefs at the start of the
// agent's next tick, before the beliefs told to the agent arrive, so a
// belief told meanwhile is an event for it.
func TestABeliefToldBeforeALayersFirstTickIsAnEvent(t *testing.T) {
	d := beliefDomain(t)
	w := engine.NewWorld(1)
	ann, bob := engine.NewAgent("ann", d), engine.NewAgent("bob", d)
	annL := &scriptedLayer{onStep: func(a *engine.Agent, step int) {
		if step == 1 {
			require.NoError(t, a.Tell("bob", "x", expr.NumberValue(5)))
		}
	}}
	ann.SetReactive(annL)
	w.Add(ann)
	w.Add(bob)
	w.Tick(0.1) // ann tells bob, who has no layer yet
	bobL := &scriptedLayer{}
	bob.SetReactive(bobL)
	w.Tick(0.1)
	assert.Equal(t, []string{"x:1->5 <ann"}, changeTexts(bobL.changes))
	assert.Equal(t, 1, bobL.steps)
}

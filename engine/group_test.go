package engine_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// lookout is the Data of a squad test agent: what its body saw of
// squad.enemy_x at each resume, and the resume (1, 2, ...) at which it
// writes write to squad.enemy_x (0: never).
type lookout struct {
	seen    []string
	writeAt int
	write   float64
}

type lookBody struct{}

func (lookBody) Start(a *engine.Agent, _ *engine.Action) (engine.Task, error) {
	return &lookTask{a: a}, nil
}

type lookTask struct {
	a *engine.Agent
	n int
}

func (t *lookTask) Resume(float64) (engine.Status, error) {
	t.n++
	l := t.a.Data.(*lookout)
	l.seen = append(l.seen, t.a.Get("squad.enemy_x").String())
	if t.n == l.writeAt {
		t.a.Set("squad.enemy_x", expr.NumberValue(l.write))
		t.a.Set("squad.enemy_seen", expr.BoolValue(true))
	}
	return engine.Running, nil
}

func (t *lookTask) Interrupt() {}

func squadDomain(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{
		Name: "Lookout",
		State: []engine.Var{
			{Name: "done", Value: expr.BoolValue(false)},
			{Name: "squad.enemy_seen", Value: expr.BoolValue(false)},
			{Name: "squad.enemy_x", Value: expr.NumberValue(0)},
		},
		Goals:   []engine.GoalSpec{engine.NewGoal("watch", "done", engine.Normal)},
		Actions: []engine.ActionSpec{engine.NewAction("look").Effects("done = true").Body(lookBody{}).Spec()},
	})
	require.NoError(t, err)
	return d
}

// squadBeliefs is a reactive layer that only notes the belief changes it is
// handed.
type squadBeliefs struct{ got []string }

func (b *squadBeliefs) Believed(_ *engine.Agent, c reactive.BeliefChange) {
	b.got = append(b.got, fmt.Sprintf("%s=%s from %q", c.Name, c.New, c.From))
}
func (b *squadBeliefs) Achieve(*engine.Agent, reactive.Goal) {}
func (b *squadBeliefs) Step(*engine.Agent, float64)          {}

// squadWorld makes 5 agents of which the first 4 form squad "blue";
// agent eye (ID 1) writes enemy_x = 7 at its second resume, and, when
// clash is set, agent a3 writes 9 in the same tick.
func squadWorld(t *testing.T, workers int, clash bool) (*engine.World, *engine.Group, []string) {
	t.Helper()
	d := squadDomain(t)
	w := engine.NewWorld(3)
	w.Workers = workers
	var trace []string
	w.OnEvent = func(e record.Event) { trace = append(trace, e.String()) }
	g, err := w.NewGroup("blue", engine.GroupSpecOf(d, "squad"))
	require.NoError(t, err)
	for i, name := range []string{"a0", "eye", "a2", "a3", "loner"} {
		a := engine.NewAgent(name, d)
		l := &lookout{}
		if name == "eye" {
			l.writeAt, l.write = 2, 7
		}
		if name == "a3" && clash {
			l.writeAt, l.write = 2, 9
		}
		a.Data = l
		a.SetReactive(&squadBeliefs{})
		w.Add(a)
		if i < 4 {
			require.NoError(t, g.Join(a))
		}
	}
	return w, g, trace
}

func seenBy(w *engine.World) map[string][]string {
	out := map[string][]string{}
	for _, a := range w.Agents {
		out[a.Name] = a.Data.(*lookout).seen
	}
	return out
}

func TestGroupWriteSeenByEveryMemberNextTick(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			w, g, _ := squadWorld(t, workers, false)
			for range 3 {
				w.Tick(0.1)
			}
			// eye writes in its second tick; a2 ticks after it in that tick
			// (on one worker) and still reads 0; every member reads 7 from
			// the third tick on; loner, not a member, never does.
			assert.Equal(t, map[string][]string{
				"a0":    {"0", "0", "7"},
				"eye":   {"0", "0", "7"},
				"a2":    {"0", "0", "7"},
				"a3":    {"0", "0", "7"},
				"loner": {"0", "0", "0"},
			}, seenBy(w))
			assert.Equal(t, expr.NumberValue(7), g.Get("enemy_x"))
			assert.Equal(t, expr.BoolValue(true), g.Get("enemy_seen"))
			// The mates got the write as belief events from the group; the
			// writer saw its own change as its own.
			assert.Equal(t, []string{`squad.enemy_seen=true from "blue"`, `squad.enemy_x=7 from "blue"`},
				w.Agents[0].Reactive().(*squadBeliefs).got)
			assert.Equal(t, []string{`squad.enemy_seen=true from ""`, `squad.enemy_x=7 from ""`},
				w.Agents[1].Reactive().(*squadBeliefs).got)
			assert.Empty(t, w.Agents[4].Reactive().(*squadBeliefs).got)
		})
	}
}

func TestGroupClashingWritesSameTraceAnyWorkers(t *testing.T) {
	var traces [][]string
	for _, workers := range []int{1, 4} {
		w, g, _ := squadWorld(t, workers, true)
		var trace []string
		w.OnEvent = func(e record.Event) { trace = append(trace, e.String()) }
		for range 3 {
			w.Tick(0.1)
		}
		// eye (ID 1) and a3 (ID 3) wrote in the same tick: the higher ID wins.
		assert.Equal(t, expr.NumberValue(9), g.Get("enemy_x"))
		for _, a := range w.Agents[:4] {
			assert.Equal(t, expr.NumberValue(9), a.Get("squad.enemy_x"), a.Name)
		}
		assert.Equal(t, []string{"0", "0", "9"}, seenBy(w)["eye"])
		traces = append(traces, trace)
	}
	assert.Equal(t, traces[0], traces[1])
	assert.Equal(t, []string{
		"tick    2  t=  0.100s  eye          group-write belief=squad.enemy_seen value=true group=blue",
		"tick    2  t=  0.100s  eye          group-write belief=squad.enemy_x value=7 group=blue",
		"tick    2  t=  0.100s  a3           group-write belief=squad.enemy_seen value=true group=blue",
		"tick    2  t=  0.100s  a3           group-write belief=squad.enemy_x value=9 group=blue",
	}, traces[0][len(traces[0])-4:])
}

func TestGroupSnapshotRoundTrip(t *testing.T) {
	w, g, _ := squadWorld(t, 1, false)
	for range 3 {
		w.Tick(0.1)
	}
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{w.Agents[0].Domain}})
	require.NoError(t, err)
	for _, a := range r.Agents {
		a.Data = &lookout{}
	}
	rg := r.Group("blue")
	require.NotNil(t, rg)
	assert.Equal(t, "squad", rg.Scope())
	assert.Equal(t, g.Get("enemy_x"), rg.Get("enemy_x"))
	assert.Equal(t, g.Get("enemy_seen"), rg.Get("enemy_seen"))
	var names []string
	for _, a := range rg.Members() {
		names = append(names, a.Name)
	}
	assert.Equal(t, []string{"a0", "eye", "a2", "a3"}, names)
	// The restored group still shares: a write of a2 reaches the others.
	r.Agents[2].Set("squad.enemy_x", expr.NumberValue(12))
	r.Tick(0.1)
	for _, a := range r.Agents[:4] {
		assert.Equal(t, expr.NumberValue(12), a.Get("squad.enemy_x"), a.Name)
	}
	assert.Equal(t, expr.NumberValue(0), r.Agents[4].Get("squad.enemy_x"))
}

func TestGroupMembership(t *testing.T) {
	d := squadDomain(t)
	w := engine.NewWorld(1)
	g, err := w.NewGroup("blue", engine.GroupSpec{Scope: "squad", Vars: []engine.Var{{Name: "enemy_x", Value: expr.NumberValue(4)}}})
	require.NoError(t, err)
	_, err = w.NewGroup("blue", engine.GroupSpec{Scope: "squad"})
	assert.EqualError(t, err, "engine: NewGroup blue: the world has a group of that name")
	red, err := w.NewGroup("red", engine.GroupSpec{Scope: "squad", Vars: []engine.Var{{Name: "enemy_y"}}})
	require.NoError(t, err)

	a := engine.NewAgent("a", d)
	assert.EqualError(t, g.Join(a), "engine: group blue: agent a is not in the group's world")
	w.Add(a)
	require.NoError(t, g.Join(a))
	assert.Equal(t, expr.NumberValue(4), a.Get("squad.enemy_x"), "a member gets the board when it joins")
	assert.EqualError(t, red.Join(a), `engine: group red: agent a is in group blue of the same scope "squad"`)
	b := engine.NewAgent("b", d)
	w.Add(b)
	assert.EqualError(t, red.Join(b), `engine: group red: agent b has no state variable "squad.enemy_y" (declare it in the agent's role)`)
	assert.EqualError(t, g.Set("enemy_z", expr.NumberValue(1)), `engine: group blue: no variable "enemy_z" (did you mean "enemy_x"?)`)

	require.NoError(t, g.Join(b))
	require.NoError(t, g.Set("enemy_x", expr.NumberValue(5)))
	assert.Equal(t, expr.NumberValue(5), b.Get("squad.enemy_x"))
	require.True(t, w.Remove(a))
	assert.Equal(t, []*engine.Agent{b}, g.Members(), "a removed agent leaves its groups")
	assert.True(t, g.Leave(b))
	assert.False(t, g.Leave(b))
}

// A goal on a squad variable: the mates plan for it from the tick after
// the write, as for any change the world makes.
func TestGroupVariableDrivesMatesPlans(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{
		Name: "Mate",
		State: []engine.Var{
			{Name: "responded", Value: expr.BoolValue(false)},
			{Name: "squad.enemy_seen", Value: expr.BoolValue(false)},
		},
		Goals: []engine.GoalSpec{engine.NewGoal("respond", "!squad.enemy_seen || responded", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("turn").Effects("responded = true").Body(engine.BodyFunc(func(a *engine.Agent, act *engine.Action) (engine.Status, error) {
				return engine.ApplyEffects(a, act)
			})).Spec(),
		},
	})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var starts []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventStart {
			starts = append(starts, fmt.Sprint(e.Tick, " ", e.Agent))
		}
	}
	g, err := w.NewGroup("blue", engine.GroupSpecOf(d, "squad"))
	require.NoError(t, err)
	for _, name := range []string{"m0", "m1", "m2"} {
		a := engine.NewAgent(name, d)
		w.Add(a)
		require.NoError(t, g.Join(a))
	}
	w.Tick(0.1)
	w.Agents[1].Set("squad.enemy_seen", expr.BoolValue(true)) // m1 spots an enemy (a sensor of the game)
	w.Tick(0.1)
	assert.Equal(t, []string{"2 m1"}, starts, "m1 sees its own write at once; its mates do not yet")
	w.Tick(0.1)
	assert.Equal(t, []string{"2 m1", "3 m0", "3 m2"}, starts)
}

// TestRemoveGroupTakesItOutOfTheWorld: a removed group is gone from the
// world's groups, whichever its place; its members keep the values their
// states hold and are no longer its members, so a later change of its
// board reaches no one; removing it again reports false.
func TestRemoveGroupTakesItOutOfTheWorld(t *testing.T) {
	d := squadDomain(t)
	w := engine.NewWorld(1)
	blue, err := w.NewGroup("blue", engine.GroupSpec{Scope: "squad", Vars: []engine.Var{{Name: "enemy_x", Value: expr.NumberValue(4)}}})
	require.NoError(t, err)
	red, err := w.NewGroup("red", engine.GroupSpec{Scope: "other"})
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	w.Add(a)
	require.NoError(t, blue.Join(a))

	assert.True(t, w.RemoveGroup(blue), "the first group")
	assert.Equal(t, []*engine.Group{red}, w.Groups())
	assert.Nil(t, w.Group("blue"))
	assert.Empty(t, blue.Members())
	require.NoError(t, blue.Set("enemy_x", expr.NumberValue(9)))
	assert.Equal(t, expr.NumberValue(4), a.Get("squad.enemy_x"), "the former member keeps its value")
	assert.False(t, w.RemoveGroup(blue))
	assert.True(t, w.RemoveGroup(red), "the last group")
	assert.Empty(t, w.Groups())
}

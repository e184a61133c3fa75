package engine_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// fetcher is the Data of a crate test agent: how many resumes its fetch
// takes and how it ends (engine.Succeeded, engine.Failed, or
// engine.Running for never).
type fetcher struct {
	resumes int
	end     engine.Status
}

type fetchBody struct{}

func (fetchBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &fetchTask{a: a, act: act}, nil
}

type fetchTask struct {
	a   *engine.Agent
	act *engine.Action
	n   int
}

func (t *fetchTask) Resume(float64) (engine.Status, error) {
	f := t.a.Data.(*fetcher)
	if t.n++; t.n < f.resumes || f.end == engine.Running {
		return engine.Running, nil
	}
	if f.end == engine.Failed {
		return engine.Failed, nil
	}
	return engine.ApplyEffects(t.a, t.act)
}

func (t *fetchTask) Interrupt() {}

// crateWorld makes a world of agents fetching ammo from crates: one crate
// per entry of slots, named c1, c2, ..., and one agent per entry of
// agents (s0, s1, ...).
func crateWorld(t *testing.T, workers int, slots []int, agents ...*fetcher) (*engine.World, *[]string) {
	t.Helper()
	d := crateDomain(t)
	w := engine.NewWorld(1)
	w.Workers = workers
	trace := &[]string{}
	w.OnEvent = func(e record.Event) { *trace = append(*trace, e.String()) }
	for i, n := range slots {
		require.NoError(t, w.AddObject(&engine.Object{Name: fmt.Sprint("c", i+1), Kind: "crate", Slots: n}))
	}
	for i, f := range agents {
		a := engine.NewAgent(fmt.Sprint("s", i), d)
		a.Data = f
		w.Add(a)
	}
	return w, trace
}

// crateDomain is the role of crateWorld's soldiers: fetch, which uses a
// crate, until armed.
func crateDomain(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "stop", Value: expr.BoolValue(false)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 0", engine.Normal)},
		Actions: []engine.ActionSpec{func() engine.ActionSpec {
			s := engine.NewAction("fetch").Pre("!stop").Effects("ammo = ammo + 1").Body(fetchBody{}).Spec()
			s.Uses = "crate"
			return s
		}()},
	})
	require.NoError(t, err)
	return d
}

func holders(w *engine.World, name string) []string {
	var out []string
	for _, a := range w.Object(name).Holders() {
		out = append(out, a.Name)
	}
	return out
}

func TestObjectOneSlotGoesToTheLowestID(t *testing.T) {
	var traces [][]string
	for _, workers := range []int{1, 4} {
		w, trace := crateWorld(t, workers, []int{1}, &fetcher{resumes: 3, end: engine.Succeeded}, &fetcher{resumes: 2, end: engine.Succeeded})
		var seen [][]string
		for range 6 {
			w.Tick(0.1)
			seen = append(seen, holders(w, "c1"))
		}
		// s0 and s1 both start fetching in tick 1; s0 (the lower ID) gets the
		// only slot and s1 is interrupted; s1 plans around the claimed crate
		// until s0's step ends in tick 3, then claims it in tick 4.
		assert.Equal(t, [][]string{{"s0"}, {"s0"}, nil, {"s1"}, nil, nil}, seen, "%d workers", workers)
		traces = append(traces, *trace)
	}
	assert.Equal(t, traces[0], traces[1], "the same trace with 1 and 4 workers")
	assert.Contains(t, traces[0], "tick    1  t=  0.000s  s0           start       goal=armed action=fetch object=c1", "the start names the object")
	assert.Contains(t, traces[0], `tick    1  t=  0.000s  s1           interrupt   goal=armed action=fetch reason="crate c1 was claimed by s0 in the same tick (its 1 slot(s) go to the lowest agent IDs)"`)
	assert.Contains(t, traces[0], `tick    2  t=  0.100s  s1           plan-failed goal=armed reason="BACKED_OFF: a plan exists only through action \"fetch\", which uses a crate: the only crate (c1) is claimed by s0"`)
}

func TestObjectCheapestFreeObjectIsClaimed(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1, 1, 1}, &fetcher{end: engine.Running}, &fetcher{end: engine.Running})
	w.ObjectCost = func(a *engine.Agent, o *engine.Object) float64 {
		return map[string]float64{"c1": 5, "c2": 1, "c3": 1}[o.Name]
	}
	w.Tick(0.1)
	// Both want c2 (cheapest, before c3 among equals): s0 gets it; s1 is
	// interrupted and claims the next cheapest free one, c3.
	assert.Equal(t, []string{"s0"}, holders(w, "c2"))
	w.Tick(0.1)
	assert.Equal(t, "c3", w.Agents[1].Holds().Name)
	assert.Equal(t, []string{"s1"}, holders(w, "c3"))
	assert.Nil(t, holders(w, "c1"))
}

// TestObjectReleased runs one agent holding the only crate and ends its
// step each way a step can end: the slot is free after that tick.
func TestObjectReleased(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		end    func(w *engine.World, a *engine.Agent)
		f      fetcher
	}{
		{name: "finished", reason: "the step succeeds in its second resume", f: fetcher{resumes: 2, end: engine.Succeeded}, end: func(w *engine.World, a *engine.Agent) { w.Tick(0.1) }},
		{name: "failed", reason: "the body fails in its second resume", f: fetcher{resumes: 2, end: engine.Failed}, end: func(w *engine.World, a *engine.Agent) { w.Tick(0.1) }},
		{name: "interrupted", reason: "the world makes the precondition false", f: fetcher{end: engine.Running}, end: func(w *engine.World, a *engine.Agent) {
			a.Set("stop", expr.BoolValue(true))
			w.Tick(0.1)
		}},
		{name: "removed", reason: "the agent leaves the world", f: fetcher{end: engine.Running}, end: func(w *engine.World, a *engine.Agent) {
			require.True(t, w.Remove(a))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.f
			w, trace := crateWorld(t, 1, []int{1}, &f)
			a := w.Agents[0]
			w.Tick(0.1)
			require.Equal(t, []string{"s0"}, holders(w, "c1"))
			require.Same(t, w.Object("c1"), a.Holds())
			tt.end(w, a)
			assert.Nil(t, holders(w, "c1"), tt.reason)
			assert.Nil(t, a.Holds(), tt.reason)
			assert.NotEmpty(t, *trace)
		})
	}
}

func TestObjectReleasedWhenMovedToAnotherWorld(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1}, &fetcher{end: engine.Running})
	a := w.Agents[0]
	w.Tick(0.1)
	require.Equal(t, []string{"s0"}, holders(w, "c1"))

	var buf bytes.Buffer
	require.NoError(t, w.SnapshotAgents(&buf, []*engine.Agent{a}))
	require.True(t, w.Remove(a))
	assert.Nil(t, holders(w, "c1"), "the source world's crate is free")

	other, _ := crateWorld(t, 1, []int{1})
	moved, err := other.AddSnapshot(&buf, engine.RestoreOptions{Domains: []*engine.Domain{a.Domain}})
	require.NoError(t, err)
	moved[0].Data = &fetcher{end: engine.Running}
	other.Tick(0.1)
	assert.Equal(t, []string{"s0"}, holders(other, "c1"), "it claims the target world's crate of that name")
}

func TestObjectSnapshotRoundTrip(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1, 2}, &fetcher{end: engine.Running}, &fetcher{end: engine.Running}, &fetcher{end: engine.Running})
	w.Tick(0.1)
	w.Tick(0.1)
	require.Equal(t, []string{"s0"}, holders(w, "c1"))
	require.Equal(t, []string{"s1", "s2"}, holders(w, "c2"))

	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{w.Agents[0].Domain}})
	require.NoError(t, err)
	for _, a := range r.Agents {
		a.Data = &fetcher{end: engine.Running}
	}
	assert.Equal(t, 2, r.Object("c2").Slots)
	assert.Equal(t, []string{"s0"}, holders(r, "c1"))
	assert.Equal(t, []string{"s1", "s2"}, holders(r, "c2"))
	r.Tick(0.1)
	assert.Equal(t, []string{"s1", "s2"}, holders(r, "c2"), "the restored steps go on holding their slots")
}

func TestObjectNotClaimedOutsideAWorld(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1}, &fetcher{resumes: 1, end: engine.Succeeded})
	a := w.Agents[0]
	require.True(t, w.Remove(a))
	a.Tick(0.1)
	assert.Equal(t, expr.NumberValue(1), a.Get("ammo"), "the action ran without a crate to claim")
	assert.Nil(t, a.Holds())
}

func TestObjectInfiniteCostIsNotForTheAgent(t *testing.T) {
	w, trace := crateWorld(t, 1, []int{1, 1}, &fetcher{end: engine.Running}, &fetcher{end: engine.Running})
	// s1 may use only c1 (its team's crate, say); s0 prefers c1 too.
	w.ObjectCost = func(a *engine.Agent, o *engine.Object) float64 {
		if a.Name == "s1" && o.Name == "c2" {
			return math.Inf(1)
		}
		return map[string]float64{"c1": 1, "c2": 2}[o.Name]
	}
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, []string{"s0"}, holders(w, "c1"))
	assert.Nil(t, holders(w, "c2"), "s1 never claims the crate its cost bars")
	assert.Nil(t, w.Agents[1].Holds())
	assert.Contains(t, *trace, `tick    2  t=  0.100s  s1           plan-failed goal=armed reason="BACKED_OFF: a plan exists only through action \"fetch\", which uses a crate: the only crate (c1) is claimed by s0"`)

	w.ObjectCost = func(*engine.Agent, *engine.Object) float64 { return math.NaN() }
	pe := new(engine.PlanError)
	_, err := w.Agents[1].Planner().Plan(w.Agents[1].State)
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, `a plan exists only through action "fetch", which uses a crate: no crate in the world is for s1 (the world's ObjectCost is +Inf for each)`, pe.Detail)
}

// TestAnAgentAddedLaterPlansAroundAClaimedObject: an agent added after
// the only crate was claimed, asked for a plan before its first tick,
// leaves out the action that needs a crate, as its tick would.
func TestAnAgentAddedLaterPlansAroundAClaimedObject(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1}, &fetcher{end: engine.Running})
	w.Tick(0.1)
	require.Equal(t, []string{"s0"}, holders(w, "c1"))
	late := engine.NewAgent("late", w.Agents[0].Domain)
	late.Data = &fetcher{end: engine.Running}
	w.Add(late)
	_, err := late.Planner().Plan(late.State)
	assert.EqualError(t, err, `engine: BACKED_OFF: goal "armed", action "fetch": a plan exists only through action "fetch", which uses a crate: the only crate (c1) is claimed by s0`)
}

// TestAClaimedObjectIsNoBackOffWithSecondsLeft: an action left out
// because its kind of object is claimed waits for no clock, so its
// BACKED_OFF names no seconds left, even at the world's first instant.
func TestAClaimedObjectIsNoBackOffWithSecondsLeft(t *testing.T) {
	w, trace := crateWorld(t, 1, []int{1}, &fetcher{end: engine.Running}, &fetcher{end: engine.Running})
	w.Tick(0)
	w.Tick(0)
	require.Equal(t, []string{"s0"}, holders(w, "c1"))
	assert.Contains(t, *trace, `tick    2  t=  0.000s  s1           plan-failed goal=armed reason="BACKED_OFF: a plan exists only through action \"fetch\", which uses a crate: the only crate (c1) is claimed by s0"`)
}

func TestObjectPlannerLeavesOutClaimedKinds(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1}, &fetcher{end: engine.Running}, &fetcher{end: engine.Running})
	w.Tick(0.1)
	require.Equal(t, []string{"s0"}, holders(w, "c1"))
	p, err := w.Agents[0].Planner().Plan(w.Agents[0].State)
	require.NoError(t, err, "the holder may plan with the crate it holds")
	assert.Equal(t, "fetch", p.Steps[0].Name)
	_, err = w.Agents[1].Planner().Plan(w.Agents[1].State)
	assert.EqualError(t, err, `engine: BACKED_OFF: goal "armed", action "fetch": a plan exists only through action "fetch", which uses a crate: the only crate (c1) is claimed by s0`)
}

// TestObjectUtilityPickWaitsForASlot: a utility pick of an action that
// uses a kind of object is made only while the agent may claim one.
func TestObjectUtilityPickWaitsForASlot(t *testing.T) {
	spec := engine.NewAction("fetch").Pre("ammo < 1").Effects("ammo = ammo + 1").Body(fetchBody{}).Spec()
	spec.Uses = "crate"
	spec.Utility = engine.UtilitySpec{Value: 1}
	d, err := engine.Compile(engine.RoleSpec{Name: "Picker", Decide: "utility",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}}, Actions: []engine.ActionSpec{spec}})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var picks []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPick || e.Kind == record.EventInterrupt {
			picks = append(picks, e.String())
		}
	}
	require.NoError(t, w.AddObject(&engine.Object{Name: "c1", Kind: "crate", Slots: 1}))
	for i, f := range []*fetcher{{resumes: 3, end: engine.Succeeded}, {end: engine.Running}} {
		a := engine.NewAgent(fmt.Sprint("s", i), d)
		a.Data = f
		w.Add(a)
	}
	var seen [][]string
	for range 5 {
		w.Tick(0.1)
		seen = append(seen, holders(w, "c1"))
	}
	assert.Equal(t, [][]string{{"s0"}, {"s0"}, nil, {"s1"}, {"s1"}}, seen)
	require.Len(t, picks, 4, "%q", picks)
	assert.Equal(t, "tick    4  t=  0.300s  s1           pick        action=fetch score=0.723", picks[3],
		"s1 picks fetch again only once s0 has let go of the crate")
}

// TestAddObjectRefusesWhatItCannotAdd: an object needs a name and a
// kind, a name new in the world, and no other world.
func TestAddObjectRefusesWhatItCannotAdd(t *testing.T) {
	w, other := engine.NewWorld(1), engine.NewWorld(2)
	c1 := &engine.Object{Name: "c1", Kind: "crate", Slots: 1}
	require.NoError(t, w.AddObject(c1))
	elsewhere := &engine.Object{Name: "c9", Kind: "crate", Slots: 1}
	require.NoError(t, other.AddObject(elsewhere))
	for _, tt := range []struct {
		o    *engine.Object
		want string
	}{
		{&engine.Object{Kind: "crate"}, "engine: AddObject: an object needs a name and a kind"},
		{&engine.Object{Name: "c2"}, "engine: AddObject: an object needs a name and a kind"},
		{&engine.Object{Name: "c1", Kind: "medic"}, "engine: AddObject c1: the world has an object of that name"},
		{elsewhere, "engine: AddObject c9: the object is in a world already"},
	} {
		assert.EqualError(t, w.AddObject(tt.o), tt.want)
	}
	assert.Equal(t, []*engine.Object{c1}, w.Objects())
}

// TestRemoveObjectLetsItsHoldersGoOn: a removed object is gone from the
// world, whichever its place; the step holding it goes on holding
// nothing; removing it again reports false.
func TestRemoveObjectLetsItsHoldersGoOn(t *testing.T) {
	w, _ := crateWorld(t, 1, []int{1, 1}, &fetcher{end: engine.Running})
	a := w.Agents[0]
	w.Tick(0.1)
	c1, c2 := w.Object("c1"), w.Object("c2")
	require.Same(t, c1, a.Holds())
	assert.True(t, w.RemoveObject(c1))
	assert.Equal(t, []*engine.Object{c2}, w.Objects())
	assert.Nil(t, a.Holds())
	assert.Empty(t, c1.Holders())
	assert.Equal(t, "fetch", a.Running().Name, "the step goes on")
	assert.False(t, w.RemoveObject(c1))
	assert.True(t, w.RemoveObject(c2), "the last object")
	assert.Empty(t, w.Objects())
}

// TestWhyNoObjectCanBeClaimed: an action whose kind of object the agent
// may not claim is left out of its plans, and the failure says why: no
// object of the kind, none the world's ObjectCost lets it have, every one
// run out of slots, the only one with slots claimed, the only one
// claimed, or every one claimed.
func TestWhyNoObjectCanBeClaimed(t *testing.T) {
	const prefix = `engine: BACKED_OFF: goal "armed", action "fetch": a plan exists only through action "fetch", which uses a crate: `
	tests := []struct {
		name    string
		slots   []int
		holders int
		setup   func(w *engine.World)
		want    string
	}{
		{name: "none", want: "no crate is in the world"},
		{name: "barred", slots: []int{1},
			setup: func(w *engine.World) {
				w.ObjectCost = func(*engine.Agent, *engine.Object) float64 { return math.Inf(1) }
			},
			want: "no crate in the world is for late (the world's ObjectCost is +Inf for each)"},
		{name: "run out", slots: []int{0, 0}, want: "every crate has run out (no slots)"},
		{name: "run out while held", slots: []int{1}, holders: 1,
			setup: func(w *engine.World) { w.Object("c1").Slots = 0 },
			want:  "every crate has run out (no slots)"},
		{name: "the only one with slots", slots: []int{1, 0}, holders: 1,
			want: "the only crate with slots (c1) is claimed by s0, the others have run out"},
		{name: "the only one", slots: []int{1}, holders: 1, want: "the only crate (c1) is claimed by s0"},
		{name: "every one", slots: []int{1, 1}, holders: 2, want: "every crate is claimed (c1 by s0)"},
		{name: "every one with slots", slots: []int{1, 1, 0}, holders: 2, want: "every crate is claimed (c1 by s0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fs []*fetcher
			for range tt.holders {
				fs = append(fs, &fetcher{end: engine.Running})
			}
			w, _ := crateWorld(t, 1, tt.slots, fs...)
			w.Tick(0.1)
			w.Tick(0.1) // s1 claims c2, after s0 took c1 in the first tick
			if tt.setup != nil {
				tt.setup(w)
			}
			late := engine.NewAgent("late", crateDomain(t))
			w.Add(late)
			_, err := late.Planner().Plan(late.State)
			assert.EqualError(t, err, prefix+tt.want)
		})
	}
}

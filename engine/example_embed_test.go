package engine_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// The utility planner scores every applicable action by its
// considerations and picks the best; ties go to the action declared first.
func ExampleUtilityPlanner_Pick() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:   "Deer",
		Decide: "utility",
		State:  []engine.Var{{Name: "hunger", Value: expr.NumberValue(80)}, {Name: "danger", Value: expr.NumberValue(10)}},
		Considerations: []engine.ConsiderationSpec{
			{Input: "hunger", Min: 0, Max: 100, Name: "hungry"},
		},
		Actions: []engine.ActionSpec{
			{Name: "graze", Considerations: []engine.ConsiderationSpec{{Input: "hunger", Min: 0, Max: 100}}},
			{Name: "flee", Considerations: []engine.ConsiderationSpec{{Input: "danger", Min: 0, Max: 100}}},
		},
	})
	if err != nil {
		panic(err)
	}
	u := engine.NewUtilityPlanner(d)
	st := d.NewState()
	best, _ := u.Pick(st, nil)
	fmt.Println(best.Name, u.Score(d.Action("graze"), st), u.Score(d.Action("flee"), st))
	st.Set(d.Schema, "danger", expr.NumberValue(95))
	best, _ = u.Pick(st, nil)
	fmt.Println(best.Name)
	// Output:
	// graze 0.8 0.1
	// flee
}

// A custom consideration is a Go function of the action and the state;
// its result is clamped to [0, 1] and weighted like the built-in ones.
func ExampleFuncConsideration() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:   "Shopper",
		Decide: "utility",
		State:  []engine.Var{{Name: "coins", Value: expr.NumberValue(3)}},
		Actions: []engine.ActionSpec{
			{Name: "buyBread", Utility: engine.UtilitySpec{Cost: 2}},
			{Name: "buyCake", Utility: engine.UtilitySpec{Cost: 5}},
		},
	})
	if err != nil {
		panic(err)
	}
	// Affordable: 1 when the action's utility cost fits the purse, else 0.
	slot, _ := d.Schema.Lookup("coins")
	affordable := engine.FuncConsideration("affordable", 1, func(a *engine.Action, st expr.State) float64 {
		coins, _ := st[slot].AsNumber()
		if a.Utility.Cost <= coins {
			return 1
		}
		return 0
	})
	u := engine.NewUtilityPlanner(d)
	u.Considerations = []engine.Consideration{affordable}
	for _, sa := range u.ActionsByUtility(d.NewState()) {
		fmt.Println(sa.Action.Name, sa.Score)
	}
	// Output:
	// buyBread 1
	// buyCake 0
}

// sawTask is a Go action body that takes several ticks: it reports
// Running until its work is done, then applies the action's effects.
type sawTask struct {
	agent  *engine.Agent
	action *engine.Action
	left   float64 // seconds of sawing left
}

func (t *sawTask) Resume(dt float64) (engine.Status, error) {
	if t.left -= dt; t.left > 1e-9 {
		return engine.Running, nil
	}
	return engine.ApplyEffects(t.agent, t.action)
}

// Interrupt is called when the plan the run served is dropped.
func (t *sawTask) Interrupt() { fmt.Println("saw put down") }

type sawBody struct{ seconds float64 }

func (b sawBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &sawTask{agent: a, action: act, left: b.seconds}, nil
}

// A role written in Go alone, with a body that spans ticks: Body.Start
// begins a run, Task.Resume is called once per tick until it reports
// Succeeded or Failed, and Task.Interrupt ends it early.
func ExampleBody() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Carpenter",
		State: []engine.Var{{Name: "planks", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "planks >= 1", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("saw").Effects("planks = planks + 1").Body(sawBody{seconds: 0.5}).Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("tick %d: %s %s", e.Tick, e.Kind, e.Action)))
	}
	w.Add(engine.NewAgent("joe", d))
	for i := 0; i < 6; i++ {
		w.Tick(0.1)
	}
	// Output:
	// tick 1: plan
	// tick 1: start saw
	// tick 5: finish saw
	// tick 6: idle
}

// Every agent keeps a bounded ring of its latest records and counts of
// every kind; Summary is the one line printed on finish or when stuck.
func ExampleRecorder() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Miner",
		State: []engine.Var{{Name: "ore", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("loaded", "ore >= 2", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("dig").Effects("ore = ore + 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(1)
	a := engine.NewAgent("dwarf", d)
	w.Add(a)
	for i := 0; i < 3; i++ {
		w.Tick(1)
	}
	for _, e := range a.Recorder.Records() {
		fmt.Println(strings.TrimRight(e.String(), " "))
	}
	fmt.Println(a.Recorder.Count(record.EventFinish), "finished")
	fmt.Println(a.Recorder.Summary("IDLE"))
	// Output:
	// tick    1  t=  0.000s  dwarf        plan        goal=loaded plan=[dig, dig] cost=2
	// tick    1  t=  0.000s  dwarf        start       goal=loaded action=dig
	// tick    1  t=  0.000s  dwarf        finish      goal=loaded action=dig
	// tick    2  t=  1.000s  dwarf        start       goal=loaded action=dig
	// tick    2  t=  1.000s  dwarf        finish      goal=loaded action=dig
	// tick    3  t=  2.000s  dwarf        idle
	// 2 finished
	// [flight-recorder] status=IDLE plans=1 plan-failures=0 replans=0 picks=0 started=2 finished=2 failed=0 interrupted=0 last="finish dig"
}

// A world saves to JSON between ticks and loads back, in this process or
// another, and runs on with the same decisions (see docs/save-and-load.md).
func ExampleWorld_Snapshot() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Baker",
		State: []engine.Var{{Name: "loaves", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("baked", "loaves >= 3", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("bake").Effects("loaves = loaves + 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(7)
	w.Add(engine.NewAgent("ann", d))
	w.Tick(1)
	var save bytes.Buffer
	if err := w.Snapshot(&save); err != nil {
		panic(err)
	}

	loaded, err := engine.Restore(&save, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	if err != nil {
		panic(err)
	}
	ann := loaded.Agent("ann")
	fmt.Println("loaded at tick", loaded.Ticks, "with", ann.Get("loaves"), "loaves, plan", ann.CurrentPlan()[0].Name, "...")
	loaded.OnEvent = func(e record.Event) { fmt.Println(strings.TrimSpace(fmt.Sprint(e.Tick, " ", e.Kind, " ", e.Action))) }
	loaded.Tick(1)
	loaded.Tick(1)
	loaded.Tick(1)
	// Output:
	// loaded at tick 1 with 1 loaves, plan bake ...
	// 2 start bake
	// 2 finish bake
	// 3 start bake
	// 3 finish bake
	// 4 idle
}

// Recipe is a typed fact: a value of type "Recipe" on the blackboard.
type Recipe struct {
	Flour, Water int
}

// Typed facts are saved with the world: JSONFacts writes them as JSON and
// reads each listed type back into its Go type.
func ExampleJSONFacts() {
	d, err := engine.Compile(engine.RoleSpec{
		Name: "Baker",
		Actions: []engine.ActionSpec{
			engine.NewAction("bake").Inputs("Recipe").Effects("baked = true").Spec(),
		},
		State: []engine.Var{{Name: "baked", Value: expr.BoolValue(false)}, {Name: "Recipe", Value: expr.BoolValue(false)}},
	})
	if err != nil {
		panic(err)
	}
	d.Facts = engine.JSONFacts{Types: map[string]any{"Recipe": Recipe{}}}
	w := engine.NewWorld(1)
	ann := engine.NewAgent("ann", d)
	w.Add(ann)
	ann.SetFact("Recipe", Recipe{Flour: 500, Water: 350})

	var save bytes.Buffer
	if err := w.Snapshot(&save); err != nil {
		panic(err)
	}
	loaded, err := engine.Restore(&save, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	if err != nil {
		panic(err)
	}
	r := loaded.Agent("ann").Fact("Recipe").(Recipe)
	fmt.Printf("%T %d %d %v\n", r, r.Flour, r.Water, loaded.Agent("ann").Get("Recipe"))
	// Output:
	// engine_test.Recipe 500 350 true
}

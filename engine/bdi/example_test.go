package bdi_test

import (
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// A Go program defines plans, installs them on a domain, and adds goals
// with Agent.Achieve.
func Example() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Bell",
		State: []engine.Var{{Name: "rung", Value: expr.NumberValue(0)}},
	})
	if err != nil {
		panic(err)
	}
	lib, err := bdi.NewLibrary(d, []*bdi.Plan{
		{Name: "ring", On: bdi.GoalAdded, Goal: "ring",
			Body: bdi.Func(func(a *engine.Agent, ev *bdi.Event, ctx any) (any, error) {
				n, _ := a.Get("rung").AsNumber()
				return "ding", a.Believe("rung", expr.NumberValue(n+1))
			})},
		{Name: "count", On: bdi.BeliefAdded, Belief: "rung",
			Body: bdi.Func(func(a *engine.Agent, ev *bdi.Event, ctx any) (any, error) {
				a.Print("rung " + ev.Value.String() + " times")
				return nil, nil
			})},
	})
	if err != nil {
		panic(err)
	}
	bdi.Install(d, &bdi.Config{Library: lib})
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPrint || e.Kind == record.EventGoalRemoved {
			fmt.Println(e.Tick, e.Kind, strings.TrimSpace(e.Reason+e.Goal+" "+e.Value))
		}
	}
	a := engine.NewAgent("bell", d)
	w.Add(a)
	_ = a.Achieve(reactive.GoalNamed("ring"))
	w.Tick(0.1)
	_ = a.Achieve(reactive.GoalNamed("ring"))
	w.Tick(0.1)
	// Output:
	// 1 print bell rung 1 times
	// 1 goal-removed ring "ding"
	// 2 print bell rung 2 times
	// 2 goal-removed ring "ding"
}

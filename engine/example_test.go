package engine_test

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// A Go game can plan with roles built in Go alone.
func ExamplePlanner() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "magazines", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec(),
			engine.NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	p, err := engine.NewPlanner(d).Plan(d.NewState())
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Names(), p.Cost)
	// Output: [fetchMagazine reload] 2
}

// World.Tick is the one call a game makes each frame; bodies written in Go
// implement engine.Body (BodyFunc for one-tick actions).
func ExampleWorld() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Woodcutter",
		State: []engine.Var{{Name: "wood", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "wood >= 2", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("chop").Effects("wood = wood + 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) { fmt.Println(e.Tick, e.Kind, e.Action, e.Plan) }
	w.Add(engine.NewAgent("jack", d))
	for i := 0; i < 3; i++ {
		w.Tick(1.0 / 60)
	}
	// Output:
	// 1 plan  [chop chop]
	// 1 start chop []
	// 1 finish chop []
	// 2 start chop []
	// 2 finish chop []
	// 3 idle  []
}

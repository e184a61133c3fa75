package engine_test

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// A level of detail: the game says how much each agent matters, and the
// far ones think less often, each think with the time since the last.
func ExampleLOD() {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Guard",
		State: []engine.Var{{Name: "rested", Value: expr.BoolValue(false)}},
		Goals: []engine.GoalSpec{engine.NewGoal("fresh", "rested", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("rest").Effects("rested = true").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(1)
	near, far := engine.NewAgent("near", d), engine.NewAgent("far", d)
	w.Add(near)
	w.Add(far)
	w.LOD = engine.LOD{
		Level: func(a *engine.Agent) int {
			if a == far {
				return 1
			}
			return 0
		},
		Rates: []float64{60, 2}, // thinks per second at levels 0 and 1
	}
	for range 120 { // 2 s at 60 ticks a second; far waits 0.118 s, then thinks every 0.5 s
		w.Tick(1.0 / 60)
	}
	for _, a := range w.Agents {
		level, rate := a.LODLevel()
		fmt.Printf("%s: level %d, rate %g, %d thinks, clock %.3f s\n", a.Name, level, rate, a.Ticks(), a.Time())
	}
	// Output:
	// near: level 0, rate 0, 120 thinks, clock 2.000 s
	// far: level 1, rate 2, 4 thinks, clock 1.633 s
}

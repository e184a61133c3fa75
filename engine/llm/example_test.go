package llm_test

import (
	"context"
	"fmt"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/llm"
)

// A model proposes a plan that forgets a step; the grounding rule checks it
// against the role and falls back to the GOAP planner.
func Example() {
	soldier, err := engine.Compile(engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "magazines", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetchMagazine").Effects("magazines = magazines + 1").Cost(2).Spec(),
			engine.NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		},
	})
	if err != nil {
		panic(err)
	}
	// A stand-in for openaichat.New: the reply a model might give.
	model := llm.ClientFunc(func(ctx context.Context, req llm.ChatRequest) (string, error) {
		return "```json\n{\"reasoning\": \"just reload\", \"steps\": [{\"action\": \"reload\"}]}\n```", nil
	})
	planner, err := llm.NewDynamicPlanner(model).Capabilities(llm.CapabilitiesOf(soldier)).Build()
	if err != nil {
		panic(err)
	}
	rule := llm.GroundingRule{Domain: soldier, State: soldier.NewState(), Goal: soldier.Goal("armed"), OnInvalid: llm.FallBackToGOAP}
	v, err := llm.NewPlanApprovalGate(rule.Review).GenerateAndReview(context.Background(), planner, "get armed")
	if err != nil {
		panic(err)
	}
	fmt.Print(v.Plan.DisplayString())
	// Output:
	// Plan for: get armed
	// Reasoning: GOAP fallback: step 0 (reload): the precondition of "reload", magazines > 0, does not hold
	// 1. fetchMagazine: planned by GOAP for goal armed
	// 2. reload: planned by GOAP for goal armed
}

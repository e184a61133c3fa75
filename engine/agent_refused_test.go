package engine_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/internal/plancases"
)

// TestAProbedPlanWhoseAuthorityWasRevokedIsRefused: under a plan budget a
// higher goal's plan is found by a probe while a step runs, and taken at
// the next tick; when the game revokes the authority an action of that
// plan needs in between, the agent refuses the plan (a refused record
// naming the plan, not a plan-failed one) instead of running it.
func TestAProbedPlanWhoseAuthorityWasRevokedIsRefused(t *testing.T) {
	c := plancases.Deep()
	c.Role.State = append(c.Role.State, engine.Var{Name: "safe", Value: expr.BoolValue(true)},
		engine.Var{Name: "spot", Value: expr.BoolValue(false)})
	c.Role.Goals = append(c.Role.Goals, engine.NewGoal("safe", "safe", engine.High))
	c.Role.Actions = append(c.Role.Actions, engine.NewAction("Hide").Pre("spot").Effects("safe = true").Authority("cover").Spec(),
		engine.NewAction("FindSpot").Effects("spot = true").Spec())
	d := slicedDomain(t, c)
	d.Action("Forage").Body = &slowBody{n: 10}
	w, r, a := slicedAgent(d, 100, 20)
	a.Authorities = []string{"cover"}
	w.Tick(1.0 / 60) // the plan for stocked
	w.Tick(1.0 / 60) // Forage starts
	require.Equal(t, "Forage", a.Running().Name)
	w.PlanBudget = 1
	require.True(t, a.Set("safe", expr.BoolValue(false)))
	w.Tick(1.0 / 60) // tick 3: the probe's search is suspended after 1 expansion
	w.Tick(1.0 / 60) // tick 4: the probe finds FindSpot, Hide
	a.Authorities = nil
	w.Tick(1.0 / 60) // tick 5: the plan is refused
	var got []string
	for _, e := range r.events {
		if e.Tick >= 5 {
			got = append(got, fmt.Sprintf("%d %s %s %v %s", e.Tick, e.Kind, e.Goal, e.Plan, e.Reason))
		}
	}
	assert.Equal(t, []string{
		`5 interrupt stocked [] goal safe (high) became unsatisfied`,
		`5 refused safe [FindSpot Hide] action "Hide" needs authority "cover", and none is granted`,
		`5 plan-suspended safe [] plan budget spent (1 expansion this tick); queue position 1 of 1; resumes first next tick`,
	}, got, "the plan is refused, not run, and the queue plans again under the new policy")
	assert.Nil(t, a.Running())
}

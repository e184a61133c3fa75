package bdi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// armory is a role with a goal the GOAP planner serves (armed, by
// reloading), one it cannot (fed), and one that holds from the start
// (alive).
func armory(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{Name: "Armory",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "food", Value: expr.NumberValue(0)},
			{Name: "hp", Value: expr.NumberValue(3)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 0", engine.Low), engine.NewGoal("fed", "food > 0", engine.Low),
			engine.NewGoal("alive", "hp > 0", engine.Low)},
		Actions: []engine.ActionSpec{engine.NewAction("Reload").Effects("ammo = 6").Fulfills("armed").
			Body(engine.BodyFunc(func(a *engine.Agent, _ *engine.Action) (engine.Status, error) {
				a.Set("ammo", expr.NumberValue(6))
				return engine.Succeeded, nil
			})).Spec()},
	})
	require.NoError(t, err)
	return d
}

// TestAGoalWithoutPlansGoesToTheGOAPPlanner: a goal no plan is relevant
// for but that names a goal of the role is handed to the GOAP planner; it
// completes when the goal holds (at once when it already does) and fails
// with the planner's reason when there is no plan.
func TestAGoalWithoutPlansGoesToTheGOAPPlanner(t *testing.T) {
	d := armory(t)
	var armed, fed, alive *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("a"), reactive.GoalNamed("f"), reactive.GoalNamed("h")}},
		&bdi.Plan{Name: "arm", On: bdi.GoalAdded, Goal: "a", Body: awaitGoal(reactive.GoalNamed("armed"), &armed)},
		&bdi.Plan{Name: "feed", On: bdi.GoalAdded, Goal: "f", Body: awaitGoal(reactive.GoalNamed("fed"), &fed)},
		&bdi.Plan{Name: "live", On: bdi.GoalAdded, Goal: "h", Body: awaitGoal(reactive.GoalNamed("alive"), &alive)},
	)
	w, a, tr := world(d)
	w.Tick(0.1)
	require.True(t, alive.p.Done(), "alive holds already")
	res, err := alive.p.Result()
	assert.Nil(t, res)
	assert.NoError(t, err)
	assert.False(t, armed.p.Done(), "the reload runs in this tick's action phase")
	assert.Equal(t, expr.NumberValue(6), a.Get("ammo"))
	w.Tick(0.1)
	require.True(t, armed.p.Done(), "armed holds: the goal completes at the next reactive phase")
	_, err = armed.p.Result()
	assert.NoError(t, err)
	assert.False(t, fed.p.Done(), "the planner tries fed once armed holds, in this tick's action phase")
	w.Tick(0.1)
	require.True(t, fed.p.Done())
	_, err = fed.p.Result()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bdi: goal fed: the GOAP planner found no plan: UNREACHABLE")
	chosen := tr.kinds(record.EventPlanChosen)
	var goap []string
	for _, l := range chosen {
		if strings.Contains(l, "GOAP planner") {
			goap = append(goap, l[strings.Index(l, "goal="):])
		}
	}
	assert.Equal(t, []string{
		`goal=armed action=GOAP planner reason="no relevant plan: the goal is handed to the GOAP planner"`,
		`goal=fed action=GOAP planner reason="no relevant plan: the goal is handed to the GOAP planner"`,
		`goal=alive action=GOAP planner reason="no relevant plan: the goal is handed to the GOAP planner"`,
	}, goap)
	for _, g := range []string{"armed", "fed", "alive"} {
		_, failed := a.PursuitFailed(d.Goal(g))
		assert.False(t, failed, "%s is released once it ended", g)
	}
	assert.Empty(t, bdi.Of(a).Intentions())
}

// TestStopReleasesTheGOAPGoals: a replaced mind gives back the goals it
// handed to the GOAP planner.
func TestStopReleasesTheGOAPGoals(t *testing.T) {
	d := armory(t)
	var fed *awaitTask
	lib, err := bdi.NewLibrary(d, []*bdi.Plan{{Name: "feed", On: bdi.GoalAdded, Goal: "f", Body: awaitGoal(reactive.GoalNamed("fed"), &fed)}})
	require.NoError(t, err)
	cfg := &bdi.Config{Library: lib, MaxDepth: 3}
	w, a, _ := world(d)
	m := bdi.Attach(a, cfg)
	assert.Same(t, m, bdi.Of(a))
	assert.Same(t, cfg, m.Config())
	require.NoError(t, a.Achieve(reactive.GoalNamed("f")))
	for range 2 { // armed by tick 1; fed tried at tick 2
		w.Tick(0.1)
	}
	_, failed := a.PursuitFailed(d.Goal("fed"))
	require.True(t, failed, "the planner found no plan; the mind sees it at its next phase")
	bdi.Attach(a, &bdi.Config{})
	_, failed = a.PursuitFailed(d.Goal("fed"))
	assert.False(t, failed, "released by Stop")
	assert.Empty(t, m.Intentions())
	assert.False(t, m.Busy())
	assert.Nil(t, m.Current(), "outside the reactive phase")
}

// TestAGOAPGoalThatEndedIsReleasedWhileAnotherIsPursued: a goal handed to
// the GOAP planner is given back when it ends, even while the mind still
// waits for another goal there.
func TestAGOAPGoalThatEndedIsReleasedWhileAnotherIsPursued(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "Camp",
		State: []engine.Var{{Name: "food", Value: expr.NumberValue(0)}, {Name: "rest", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("fed", "food > 0", engine.Low), engine.NewGoal("rested", "rest > 0", engine.Low)},
		Actions: []engine.ActionSpec{engine.NewAction("Sleep").Effects("rest = 1").Fulfills("rested").
			Body(engine.BodyFunc(func(*engine.Agent, *engine.Action) (engine.Status, error) { return engine.Running, nil })).Spec()},
	})
	require.NoError(t, err)
	var fed, rested *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("r"), reactive.GoalNamed("f")}},
		&bdi.Plan{On: bdi.GoalAdded, Goal: "r", Body: awaitGoal(reactive.GoalNamed("rested"), &rested)},
		&bdi.Plan{On: bdi.GoalAdded, Goal: "f", Body: awaitGoal(reactive.GoalNamed("fed"), &fed)})
	w, a, _ := world(d)
	for range 3 {
		w.Tick(0.1)
	}
	require.True(t, fed.p.Done())
	_, err = fed.p.Result()
	require.ErrorContains(t, err, "bdi: goal fed: the GOAP planner found no plan")
	_, failed := a.PursuitFailed(d.Goal("fed"))
	assert.False(t, failed, "fed is released once it ended")
	assert.False(t, rested.p.Done(), "the sleep goes on")
}

package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestAnAgentOfManyVariablesDecidesAsOneOfFew: an agent keeps its state
// and the state after its body's last resume inside itself when they fit
// (up to 8 variables), else in an allocation of their own, with the
// state its step started from; either way it checks a step's relative
// effects against the state the step started from, and sees that the
// world undid what the rest of its plan counted on (the traveller of
// TestAPlanTheWorldMadeFallShortIsReplannedAtOnce, with 0 to 20 more
// variables that nothing reads).
func TestAnAgentOfManyVariablesDecidesAsOneOfFew(t *testing.T) {
	for _, extra := range []int{0, 6, 7, 20} {
		plans, pos := travellerReplans(t, extra)
		assert.Equal(t, travellerWants, plans, "%d more variables", extra)
		assert.Equal(t, expr.NumberValue(10), pos, "%d more variables", extra)
	}
}

// TestCurrentPlanIsTheStepsLeftAndNilWithoutAPlan: CurrentPlan is the
// running step and those after it, and nil (not an empty list) before
// the first plan and once the plan is done.
func TestCurrentPlanIsTheStepsLeftAndNilWithoutAPlan(t *testing.T) {
	w, a, _ := newWorld(t, RoleSpec{Name: "Baker",
		State: []Var{{"dough", expr.BoolValue(false)}, {"bread", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("fed", "bread", Normal)},
		Actions: []ActionSpec{
			NewAction("Knead").Effects("dough = true").Body(ticksBody{n: 2}).Spec(),
			NewAction("Bake").Pre("dough").Effects("bread = true").Body(ticksBody{n: 1}).Spec(),
		}})
	assert.Nil(t, a.CurrentPlan(), "before the first tick")
	w.Tick(0.1)
	assert.Equal(t, []string{"Knead", "Bake"}, names(a.CurrentPlan()))
	for range 5 {
		w.Tick(0.1)
	}
	require.Equal(t, expr.BoolValue(true), a.Get("bread"))
	assert.Nil(t, a.CurrentPlan(), "the plan is done")
}

// TestAUtilityAgentNeverPicksAnActionOfScoreZero: with no action scoring
// above 0 a utility agent does nothing rather than something pointless;
// once one scores above 0 it is picked.
func TestAUtilityAgentNeverPicksAnActionOfScoreZero(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"hunger", expr.NumberValue(0)}},
		Actions: []ActionSpec{
			{Name: "Eat", Considerations: []ConsiderationSpec{{Input: "hunger", Min: 0, Max: 10}}, Body: ticksBody{n: 100}},
		}})
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Nil(t, a.Running(), "Eat scores 0")
	a.Set("hunger", expr.NumberValue(5))
	w.Tick(0.1)
	assert.Equal(t, []string{"3 pick Eat"}, tr.lines(record.EventPick))
	assert.Equal(t, "Eat", a.Running().Name)
}

// TestARunningPickIsReScoredOnlyAfterRethinkEvery: a pick made at 0 s
// with RethinkEvery 1 s is scored again at 1 s, not before, however much
// better another action looks meanwhile.
func TestARunningPickIsReScoredOnlyAfterRethinkEvery(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"danger", expr.NumberValue(0)}},
		Actions: []ActionSpec{
			{Name: "Graze", Utility: UtilitySpec{Value: 50}, Considerations: []ConsiderationSpec{{Kind: ConsiderValue}}, Body: ticksBody{n: 100}},
			{Name: "Flee", Considerations: []ConsiderationSpec{{Input: "danger", Min: 0, Max: 1}}, Body: ticksBody{n: 100}},
		}})
	a.RethinkEvery = 1
	w.Tick(0.25)
	a.Set("danger", expr.NumberValue(1))
	for range 5 {
		w.Tick(0.25)
	}
	assert.Equal(t, []string{"1 pick Graze", "5 pick Flee"}, tr.lines(record.EventPick), "ticks at 0, 0.25, 0.5, 0.75, 1, 1.25 s")
}

// TestTheRecordsOfALoneAgentAreItsOnEventsToKeep: an agent ticked alone
// (in no world) hands its records to Agent.OnEvent at once, and each pick
// record's lists are its own: the next pick does not write over them (a
// world's agents do the same through World.OnEvent).
func TestTheRecordsOfALoneAgentAreItsOnEventsToKeep(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"hunger", expr.NumberValue(2)}},
		Actions: []ActionSpec{
			{Name: "Eat", Considerations: []ConsiderationSpec{{Input: "hunger", Min: 0, Max: 10}}, Body: ticksBody{n: 1}},
		}})
	a := NewAgent("lone", d)
	var picks []record.Event
	a.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPick {
			picks = append(picks, e)
		}
	}
	a.Tick(0.1)
	a.Set("hunger", expr.NumberValue(8))
	a.Tick(0.1)
	a.Tick(0.1)
	require.GreaterOrEqual(t, len(picks), 2)
	assert.Equal(t, []record.ActionScore{{Action: "Eat", Score: 0.2}}, picks[0].Scores, "the first pick's scores, kept")
	assert.Equal(t, []record.ActionScore{{Action: "Eat", Score: 0.8}}, picks[len(picks)-1].Scores)
}

// TestASensorRunsWhenItsNextRunIsWithinTheTolerance: a sensor runs at
// every tick within 1e-9 s of its next run, so one of Every 1 + 1e-9 s
// runs at 0 s, 1 s and 2 s under ticks of 0.5 s.
func TestASensorRunsWhenItsNextRunIsWithinTheTolerance(t *testing.T) {
	var runs []float64
	w, _, _ := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"x", expr.NumberValue(0)}},
		Sensors: []SensorSpec{{Name: "eye", Every: 1 + 1e-9, Run: func(a *Agent, _ float64) error {
			runs = append(runs, a.Time())
			return nil
		}}}})
	for range 5 {
		w.Tick(0.5)
	}
	assert.Equal(t, []float64{0, 1, 2}, runs)
}

// TestEachFailingConditionIsRecordedOnce: each named condition's error is
// recorded once, not every tick, apart from a sensor's and another
// condition's: the second of two conditions (after one sensor) too.
func TestEachFailingConditionIsRecordedOnce(t *testing.T) {
	fails := func(msg string) func(*Agent) (bool, error) {
		return func(*Agent) (bool, error) { return false, errors.New(msg) }
	}
	w, _, tr := newWorld(t, RoleSpec{Name: "R",
		State:      []Var{{"x", expr.NumberValue(0)}},
		Sensors:    []SensorSpec{{Name: "eye", Run: func(*Agent, float64) error { return errors.New("blind") }}},
		Conditions: []ConditionSpec{{Name: "ok", Test: func(*Agent) (bool, error) { return true, nil }}, {Name: "broken", Test: fails("no answer")}},
	})
	for range 3 {
		w.Tick(0.1)
	}
	var got []string
	for _, e := range tr.events {
		if e.Kind == record.EventSensorFailed || e.Kind == record.EventConditionFailed {
			got = append(got, fmt.Sprintf("%d %s %s: %s", e.Tick, e.Kind, e.Action, e.Reason))
		}
	}
	assert.Equal(t, []string{"1 sensor-failed eye: blind", "1 condition-failed broken: no answer"}, got)
}

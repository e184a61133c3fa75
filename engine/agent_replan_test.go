package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestNoPlanIsAskedAgainOnlyWhenWhatPlanningReadsChanges(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "Digger",
		State: []Var{{"treasure", expr.BoolValue(false)}, {"shovel", expr.BoolValue(false)}, {"ground", expr.StringValue("hard")},
			{"clock", expr.NumberValue(0)}},
		Goals: []GoalSpec{NewGoal("rich", "treasure", Normal)},
		Actions: []ActionSpec{
			NewAction("Dig").Pre("shovel && ground == soft").Effects("treasure = true").Body(ticksBody{n: 1}).Spec(),
		},
		Sensors: []SensorSpec{{Name: "clock", Run: func(a *Agent, dt float64) error {
			n, _ := a.Get("clock").AsNumber()
			a.Set("clock", expr.NumberValue(n+dt)) // a variable no goal, precondition or effect reads
			return nil
		}}}})
	for i := 1; i <= 30; i++ {
		if i == 15 {
			a.Set("ground", expr.StringValue("soft")) // read by Dig's precondition: ask again
		}
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 plan-failed rich", "15 plan-failed rich"}, tr.lines(record.EventPlanFailed),
		"a change of clock, which the search never reads, asks nothing (a plan-failed record every tick before)")
}

func TestNotAuthorizedIsNamedWhenTheAuthorityBlocks(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Burglar",
		State: []Var{{"tools", expr.BoolValue(false)}, {"vault", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("loot", "vault", Normal)},
		Actions: []ActionSpec{
			NewAction("GetTools").Effects("tools = true").Spec(),
			NewAction("Crack").Pre("tools").Effects("vault = true").Authority("thief").Spec(),
		}})
	require.NoError(t, err)
	p := NewPlanner(d)
	p.exclude = []bool{true, false} // GetTools is backed off
	p.Policy = &Policy{}
	_, err = p.PlanFor(d.Goal("loot"), d.NewState())
	var pe *PlanError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, NotAuthorized, pe.Reason, "GetTools' back-off ends; the missing authority stays: %v", err)
	assert.Equal(t, "Crack", pe.Action)
	assert.Equal(t, "thief", pe.Authority)
}

func TestAPlanTheWorldMadeFallShortIsReplannedAtOnce(t *testing.T) {
	plans, pos := travellerReplans(t, 0)
	assert.Equal(t, travellerWants, plans)
	assert.Equal(t, expr.NumberValue(10), pos)
}

// travellerWants is what travellerReplans records.
var travellerWants = []string{
	"plan  Walk,Walk,Walk,Walk,Walk ",
	"finish Walk  ",
	"interrupt Walk  the rest of the plan no longer reaches goal arrive; replanning",
	"plan  Teleport ",
	"finish Teleport  ",
}

// travellerReplans runs a traveller, with extra more variables that
// nothing reads, walking to pos 10 two steps a walk. At its fourth tick
// a current carries it back and a portal opens: the walks left no
// longer reach 10, and the portal is cheaper. It returns the plans,
// interrupts, finishes and failures recorded, and where it ends.
func travellerReplans(t *testing.T, extra int) ([]string, expr.Value) {
	state := []Var{{"pos", expr.NumberValue(0)}, {"portal", expr.BoolValue(false)}}
	for i := range extra {
		state = append(state, Var{fmt.Sprintf("pad%d", i), expr.NumberValue(float64(i))})
	}
	w, a, tr := newWorld(t, RoleSpec{Name: "Traveller",
		State: state,
		Goals: []GoalSpec{NewGoal("arrive", "pos >= 10", Normal)},
		Actions: []ActionSpec{
			NewAction("Walk").Effects("pos = pos + 2").Body(ticksBody{n: 2}).Spec(),
			NewAction("Teleport").Pre("portal").Effects("pos = 10").Cost(2).Body(ticksBody{n: 1}).Spec(),
		}})
	for i := 1; i <= 12; i++ {
		if i == 4 {
			n, _ := a.Get("pos").AsNumber()
			a.Set("pos", expr.NumberValue(n-2))
			a.Set("portal", expr.BoolValue(true))
		}
		w.Tick(0.1)
	}
	var plans []string
	for _, e := range tr.events {
		switch e.Kind {
		case record.EventPlan, record.EventInterrupt, record.EventFinish, record.EventFail:
			plans = append(plans, e.Kind.String()+" "+e.Action+" "+strings.Join(e.Plan, ",")+" "+e.Reason)
		}
	}
	return plans, a.Get("pos")
}

// The watch of the rest of the plan simulates the running step's effects
// without testing its precondition again: a body may make its own
// precondition false while it runs (the cook burns the last fuel) and is
// still to finish. A harmless change of a variable the next step reads
// must then not make the agent take the running step for blocked and
// replan around it.
func TestARunningStepThatSpentItsOwnPreconditionIsNotTakenForBlocked(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "Cook",
		State: []Var{{"fuel", expr.NumberValue(1)}, {"plates", expr.NumberValue(1)},
			{"meal", expr.BoolValue(false)}, {"served", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("fed", "served", Normal)},
		Actions: []ActionSpec{
			// Cook burns its fuel at its first resume and finishes at its third.
			NewAction("Cook").Pre("fuel > 0").Effects("meal = true").Body(stepsBody{n: 3, every: 1, v: "fuel", add: -1}).Spec(),
			NewAction("Buy").Effects("meal = true").Cost(10).Body(ticksBody{n: 1}).Spec(),
			NewAction("Serve").Pre("meal && plates > 0").Effects("served = true").Body(ticksBody{n: 1}).Spec(),
		}})
	for i := 1; i <= 6; i++ {
		if i == 2 {
			a.Set("plates", expr.NumberValue(3)) // read by Serve, which still runs
		}
		w.Tick(0.1)
	}
	var got []string
	for _, e := range tr.events {
		switch e.Kind {
		case record.EventPlan, record.EventInterrupt, record.EventFinish, record.EventReplan:
			got = append(got, e.Kind.String()+" "+e.Action+" "+strings.Join(e.Plan, ",")+" "+e.Reason)
		}
	}
	assert.Equal(t, []string{
		"plan  Cook,Serve ",
		"finish Cook  ",
		"finish Serve  ",
	}, got, "Cook goes on to its end although its precondition no longer holds; Buy is never needed")
	assert.Equal(t, expr.BoolValue(true), a.Get("served"))
	assert.Equal(t, expr.NumberValue(-2), a.Get("fuel"))
}

// A named condition is tested at every tick of a running body, even one
// that changes nothing: the danger it reports interrupts the step whose
// precondition it breaks.
func TestANamedConditionIsTestedAtEveryTickOfARunningBody(t *testing.T) {
	danger := false
	w, a, tr := newWorld(t, RoleSpec{Name: "Sleeper",
		State: []Var{{"rested", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("rest", "rested", Normal)},
		Actions: []ActionSpec{
			NewAction("Sleep").Pre("!danger").Effects("rested = true").Body(ticksBody{n: 10}).Spec(),
		},
		Conditions: []ConditionSpec{{Name: "danger", Test: func(*Agent) (bool, error) { return danger, nil }}}})
	for i := 1; i <= 5; i++ {
		if i == 4 {
			danger = true
		}
		w.Tick(0.1)
	}
	require.Equal(t, []string{"4 interrupt Sleep"}, tr.lines(record.EventInterrupt))
	for _, e := range tr.events {
		if e.Kind == record.EventInterrupt {
			assert.Equal(t, `precondition "!danger" of Sleep no longer holds`, e.Reason)
		}
	}
	assert.Equal(t, expr.BoolValue(true), a.Get("danger"))
}

// A belief told to an agent whose body runs is taken in at its next
// tick, as at any other: it interrupts the step whose precondition it
// breaks.
func TestABeliefToldToARunningBodyIsTakenIn(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "Sleeper",
		State: []Var{{"rested", expr.BoolValue(false)}, {"danger", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("rest", "rested", Normal)},
		Actions: []ActionSpec{
			NewAction("Sleep").Pre("!danger").Effects("rested = true").Body(ticksBody{n: 10}).Spec(),
		}})
	for i := 1; i <= 6; i++ {
		if i == 3 {
			require.NoError(t, a.Tell("npc", "danger", expr.BoolValue(true))) // delivered after tick 3
		}
		w.Tick(0.1)
	}
	require.Equal(t, []string{"4 interrupt Sleep"}, tr.lines(record.EventInterrupt))
	assert.Equal(t, expr.BoolValue(true), a.Get("danger"))
}

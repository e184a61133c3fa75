package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

type draft struct{ slots []int }

// produce is a one-tick body that puts v on the blackboard as act's output.
func produce(v func(a *Agent) any) Body {
	return BodyFunc(func(a *Agent, act *Action) (Status, error) {
		a.SetFact(act.output, v(a))
		return Succeeded, nil
	})
}

func TestTypedFactsFromGo(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Conf",
		State: []Var{{"UserInput", expr.BoolValue(true)}},
		Conditions: []ConditionSpec{{Name: "noDoubleBooking", Test: func(a *Agent) (bool, error) {
			dr, ok := a.Fact("DraftSchedule").(draft)
			return ok && dr.slots[0] != dr.slots[1], nil
		}}},
		Actions: []ActionSpec{
			NewAction("confirm").Inputs("DraftSchedule").Output("PersonalSchedule").Pre("noDoubleBooking").
				achievesGoal("schedule").Body(produce(func(a *Agent) any { return a.Fact("DraftSchedule") })).Spec(),
			NewAction("assemble").Inputs("Profile").Output("DraftSchedule").post("noDoubleBooking").
				Body(produce(func(*Agent) any { return draft{slots: []int{1, 2}} })).Spec(),
			NewAction("profile").Inputs("UserInput").Output("Profile").NoRerun().
				Body(produce(func(*Agent) any { return "likes Go" })).Spec(),
		}})
	require.NoError(t, err)
	g := d.Goal("schedule")
	require.NotNil(t, g, "achieves_goal makes the goal from the output when none is declared")
	assert.Equal(t, "PersonalSchedule", g.Condition.Source())
	assert.Equal(t, []string{"DraftSchedule", "PersonalSchedule", "Profile", "UserInput"}, sortedCopy(d.Types()))
	assert.Equal(t, "noDoubleBooking && DraftSchedule", d.Action("confirm").Pre.Source())

	p, err := NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"profile", "assemble", "confirm"}, p.Names(), "declaration order is reversed; the types order the plan")

	a := NewAgent("npc", d)
	assert.Equal(t, expr.BoolValue(false), a.Get("Profile"), "a type is false until produced")
	plan, err := a.Plan()
	require.NoError(t, err)
	res, err := a.ExecutePlan(plan.Names())
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, []string{"profile", "assemble", "confirm"}, plan.Names())
	assert.Equal(t, draft{slots: []int{1, 2}}, a.Fact("PersonalSchedule"), "any Go value on the blackboard")
	assert.Equal(t, expr.BoolValue(true), a.Get("PersonalSchedule"))
	assert.True(t, a.SetFact("Profile", nil))
	assert.Equal(t, expr.BoolValue(false), a.Get("Profile"), "removing the value makes the type false")
	assert.False(t, a.SetFact("Nope", 1), "only the domain's types")
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func TestNoRerunOncePerPlan(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Wood",
		State: []Var{{"wood", expr.NumberValue(0)}},
		Goals: []GoalSpec{NewGoal("pile", "wood >= 3", Normal)},
		Actions: []ActionSpec{
			NewAction("chop").Effects("wood = wood + 1").Spec(),
			NewAction("fell").Effects("wood = wood + 2").Cost(1).NoRerun().Spec(),
		}})
	require.NoError(t, err)
	p, err := NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"chop", "fell"}, p.Names(), "fell twice would cost 2 as well; it may run once, so chop then fell (first in declaration order)")
	assert.Equal(t, 2.0, p.Cost)
}

func TestTypedContractProblems(t *testing.T) {
	_, err := Compile(RoleSpec{Name: "Bad",
		Conditions: []ConditionSpec{{Name: "ok", Test: func(*Agent) (bool, error) { return true, nil }}},
		Actions: []ActionSpec{
			NewAction("a").Inputs("Missing").Output("Out").post("oops").Spec(),
			NewAction("b").Output("bad name").Spec(),
		}})
	var ce *CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `action "a" input "Missing": no action's output produces it and no state sets it (declare it in state, false, when the game provides it)
action "a" post "oops" names no condition
action "b" output "bad name" is not a type name (letters, digits and _)`, err.Error())
}

// TestOneKindOfTypedContractIsEnough: a role whose actions use only
// inputs, only an output, or only promises is compiled as typed: the
// inputs join the precondition, the output and the promise the effects.
func TestOneKindOfTypedContractIsEnough(t *testing.T) {
	body := BodyFunc(func(*Agent, *Action) (Status, error) { return Succeeded, nil })
	d, err := Compile(RoleSpec{Name: "Inputs", State: []Var{{"Order", expr.BoolValue(true)}, {"shipped", expr.BoolValue(false)}},
		Actions: []ActionSpec{NewAction("ship").Inputs("Order").Effects("shipped = true").Body(body).Spec()}})
	require.NoError(t, err)
	assert.Equal(t, "Order", d.Action("ship").Pre.Source())

	d, err = Compile(RoleSpec{Name: "Output", State: []Var{{"x", expr.NumberValue(0)}},
		Actions: []ActionSpec{NewAction("report").Output("Report").Body(body).Spec()}})
	require.NoError(t, err)
	assert.Equal(t, "Report = true", d.Action("report").Effects.Source())

	d, err = Compile(RoleSpec{Name: "Post", State: []Var{{"x", expr.NumberValue(0)}},
		Conditions: []ConditionSpec{{Name: "safe", Test: func(*Agent) (bool, error) { return true, nil }}},
		Actions:    []ActionSpec{NewAction("lock").Effects("x = 1").post("safe").Body(body).Spec()}})
	require.NoError(t, err)
	assert.Equal(t, "x = 1, safe = true", d.Action("lock").Effects.Source())

	d, err = Compile(RoleSpec{Name: "Achieves", State: []Var{{"tidy", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("clean", "tidy", Normal)},
		Actions: []ActionSpec{NewAction("report").Output("Report").achievesGoal("reported").Body(body).Spec(),
			NewAction("sweep").Effects("tidy = true").Body(body).Spec()}})
	require.NoError(t, err)
	require.NotNil(t, d.Goal("reported"), "another goal declared: achieves_goal still makes its own from the output")
	assert.Equal(t, "Report", d.Goal("reported").Condition.Source())

	d, err = Compile(RoleSpec{Name: "AchievesOnly", State: []Var{{"tidy", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("clean", "tidy", Normal)},
		Actions: []ActionSpec{NewAction("sweep").Effects("tidy = true").achievesGoal("clean").Body(body).Spec()}})
	require.NoError(t, err)
	assert.Equal(t, []*Goal{d.Goal("clean")}, d.Action("sweep").Fulfills, "achieves_goal of a declared goal is fulfills")

	d, err = Compile(RoleSpec{Name: "Mixed", State: []Var{{"Order", expr.BoolValue(true)}, {"x", expr.NumberValue(0)}},
		Actions: []ActionSpec{NewAction("ship").Inputs("Order").Pre("x > 0 || x < -1").Body(body).Spec(),
			NewAction("count").Pre("x < 3").Effects("x = x + 1").Body(body).Spec()}})
	require.NoError(t, err)
	assert.Equal(t, "(x > 0 || x < -1) && Order", d.Action("ship").Pre.Source(), "a precondition with || is wrapped")
	assert.Equal(t, "x < 3", d.Action("count").Pre.Source(), "an action without inputs keeps its precondition")
}

// TestTypeNamesAreIdentifiers: a type name is letters, digits and _, not
// starting with a digit, and not true, false or nil.
func TestTypeNamesAreIdentifiers(t *testing.T) {
	for _, name := range []string{"a", "z", "A", "Z", "_", "a0", "z9", "Draft_2", "nils"} {
		assert.True(t, isName(name), name)
	}
	for _, name := range []string{"", "0a", "9", "a-b", "a b", "a/", "a:", "a@", "a[", "a`", "a{", "true", "false", "nil"} {
		assert.False(t, isName(name), name)
	}
}

// TestAWrappedPreconditionsErrorPointsIntoItsText: a precondition with
// || is wrapped in parentheses to add the inputs; a parse error in it
// points at the column of the designer's text (here one past its 12
// characters, where the text ends too soon), but at column 1, which
// leaves no column for the parenthesis, one further.
func TestAWrappedPreconditionsErrorPointsIntoItsText(t *testing.T) {
	for col, want := range map[int]int{10: 22, 1: 14} {
		act := NewAction("ship").Inputs("Order").Pre("x > 0 || x <").Spec()
		act.PreAt = Pos{File: "ship.lua", Line: 3, Col: col}
		_, err := Compile(RoleSpec{Name: "R", File: "ship.lua", State: []Var{{"Order", expr.BoolValue(true)}, {"x", expr.NumberValue(0)}},
			Actions: []ActionSpec{act}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("ship.lua:3:%d: action \"ship\" pre: ", want), "declared at column %d", col)
	}
}

// TestABrokenPromiseIsOnTheFinishRecord: a promised named condition
// that does not hold after the body is named on the step's finish record.
func TestABrokenPromiseIsOnTheFinishRecord(t *testing.T) {
	w, _, tr := newWorld(t, RoleSpec{Name: "R", State: []Var{{"done", expr.BoolValue(false)}},
		Conditions: []ConditionSpec{{Name: "safe", Test: func(*Agent) (bool, error) { return false, nil }}},
		Goals:      []GoalSpec{NewGoal("g", "done", Normal)},
		Actions:    []ActionSpec{NewAction("lock").Effects("done = true").post("safe").Body(ticksBody{n: 1}).Spec()}})
	w.Tick(0.1)
	var got []string
	for _, e := range tr.events {
		if e.Kind == record.EventFinish {
			got = append(got, e.Action+": "+e.Reason)
		}
	}
	assert.Equal(t, []string{"lock: broken promise: safe"}, got)
}

// TestNoRerunActionsThatRanStayLeftOutWhileTheGoalIsPursued: each
// NoRerun action that ran in the pursuit of a goal is left out of the
// plans made for it afterwards, the first as well as the last.
func TestNoRerunActionsThatRanStayLeftOutWhileTheGoalIsPursued(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "Wood",
		State: []Var{{"wood", expr.NumberValue(0)}},
		Goals: []GoalSpec{NewGoal("pile", "wood >= 3", Normal)},
		Actions: []ActionSpec{
			NewAction("fell").Effects("wood = wood + 1").NoRerun().Body(ticksBody{n: 1}).Spec(),
			NewAction("split").Effects("wood = wood + 1").NoRerun().Body(ticksBody{n: 1}).Spec(),
			NewAction("chop").Effects("wood = wood + 1").Cost(5).Body(ticksBody{n: 1}).Spec(),
		}})
	w.Tick(0.1) // fell
	w.Tick(0.1) // split
	require.True(t, a.Set("wood", expr.NumberValue(0)))
	w.Tick(0.1) // the world took the wood: chop ends the plan short of the goal
	w.Tick(0.1) // plan again for pile
	var plans []string
	for _, e := range tr.events {
		if e.Kind == record.EventPlan {
			plans = append(plans, fmt.Sprint(e.Tick, " ", e.Plan))
		}
	}
	assert.Equal(t, []string{"1 [fell split chop]", "4 [chop chop]"}, plans)
}

// TestAnUnmetEffectAndABrokenPromiseAreBothOnTheFinishRecord: the finish
// record names the effects the body did not make, then the promises that
// do not hold; a promised named condition is not checked as an effect.
func TestAnUnmetEffectAndABrokenPromiseAreBothOnTheFinishRecord(t *testing.T) {
	w, _, tr := newWorld(t, RoleSpec{Name: "R", State: []Var{{"done", expr.BoolValue(false)}, {"x", expr.NumberValue(0)}},
		Conditions: []ConditionSpec{{Name: "safe", Test: func(*Agent) (bool, error) { return false, nil }}},
		Goals:      []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("lock").Effects("done = true, x = 1").post("safe").
			Body(BodyFunc(func(a *Agent, _ *Action) (Status, error) {
				a.Set("done", expr.BoolValue(true))
				return Succeeded, nil
			})).Spec()}})
	w.Tick(0.1)
	var got []string
	for _, e := range tr.events {
		if e.Kind == record.EventFinish {
			got = append(got, e.Action+": "+e.Reason)
		}
	}
	assert.Equal(t, []string{"lock: promised effects not met: x = 1 (is 0); broken promise: safe"}, got)
}

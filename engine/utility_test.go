package engine

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// utilitySoldier is the seed's attack example plus two supply actions.
func utilitySoldier() RoleSpec {
	return RoleSpec{
		Name:  "Soldier",
		State: []Var{{"ammo", expr.NumberValue(0)}, {"magazines", expr.NumberValue(0)}, {"health", expr.NumberValue(100)}, {"enemy_visible", expr.BoolValue(false)}},
		Actions: []ActionSpec{
			{Name: "attack", Pre: "enemy_visible && ammo > 0", Utility: UtilitySpec{Cost: 10, Value: 50, Weight: 1.5, Tags: []string{"combat"}}},
			{Name: "fetchMagazine", Utility: UtilitySpec{Cost: 20, Value: 30, Tags: []string{"supply"}}},
			{Name: "reload", Pre: "magazines > 0", Utility: UtilitySpec{Cost: 5, Value: 50, Tags: []string{"supply"}}},
		},
	}
}

func compileRoles(t *testing.T, roles ...RoleSpec) *Domain {
	t.Helper()
	d, err := Compile(roles...)
	require.NoError(t, err)
	return d
}

func stateOf(t *testing.T, d *Domain, kv map[string]expr.Value) expr.State {
	t.Helper()
	st := d.NewState()
	for k, v := range kv {
		require.True(t, st.Set(d.Schema, k, v), "no variable %q", k)
	}
	return st
}

func scoreOf(t *testing.T, xs []ScoredAction) map[string]float64 {
	t.Helper()
	m := map[string]float64{}
	for _, x := range xs {
		m[x.Action.Name] = x.Score
	}
	return m
}

func TestSeedFormulaHandComputed(t *testing.T) {
	d := compileRoles(t, utilitySoldier())
	u := NewUtilityPlanner(d)
	st := stateOf(t, d, map[string]expr.Value{"ammo": expr.NumberValue(30), "enemy_visible": expr.BoolValue(true), "magazines": expr.NumberValue(1)})
	got := scoreOf(t, u.ActionsByUtility(st))
	tests := []struct {
		name   string
		reason string
		want   float64
	}{
		{"attack", "(0.9·0.3 + 0.5·0.5 + 1·1) / 1.8 × 1.5", (0.9*0.3 + 0.5*0.5 + 1) / 1.8 * 1.5},
		{"fetchMagazine", "(0.8·0.3 + 0.3·0.5 + 1) / 1.8 × 1", (0.8*0.3 + 0.3*0.5 + 1) / 1.8},
		{"reload", "(0.95·0.3 + 0.5·0.5 + 1) / 1.8 × 1", (0.95*0.3 + 0.5*0.5 + 1) / 1.8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, got[tc.name], 1e-12, tc.reason)
		})
	}
	assert.InDelta(t, 1.2666666666666666, got["attack"], 1e-12, "the seed's attack example scores 1.2667")
	assert.Equal(t, "attack", u.SelectBestAction(st).Name)
	assert.Equal(t, []string{"attack", "reload", "fetchMagazine"}, namesOf(u.ActionsByUtility(st)))
}

func namesOf(xs []ScoredAction) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, x.Action.Name)
	}
	return out
}

func TestSeedConsiderationEdges(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		c      Consideration
		u      UtilitySpec
		input  float64
		want   float64
	}{
		{"cost 0", "max(0, 1 - 0/100) = 1; an explicit 0 stays 0", CostConsideration(0), UtilitySpec{Set: UtilityCost}, 0, 1},
		{"cost 100", "max(0, 1 - 1) = 0", CostConsideration(0), UtilitySpec{Cost: 100}, 100, 0},
		{"cost 150", "max(0, 1 - 1.5) = 0", CostConsideration(0), UtilitySpec{Cost: 150}, 150, 0},
		{"cost default", "an unset cost is the seed's 1: 0.99", CostConsideration(0), UtilitySpec{}, 1, 0.99},
		{"cost negative", "1 - (-50)/100 = 1.5: the seed bounds cost() below only", CostConsideration(0), UtilitySpec{Cost: -50}, -50, 1.5},
		{"value 0", "min(1, 0/100) = 0", ValueConsideration(0), UtilitySpec{Set: UtilityValue}, 0, 0},
		{"value 100", "min(1, 1) = 1", ValueConsideration(0), UtilitySpec{Value: 100}, 100, 1},
		{"value 200", "min(1, 2) = 1", ValueConsideration(0), UtilitySpec{Value: 200}, 200, 1},
		{"value negative", "min(1, -0.5) = -0.5: the seed bounds value() above only", ValueConsideration(0), UtilitySpec{Value: -50}, -50, -0.5},
		{"utility even", "(50 - 50 + 100)/200 = 0.5", utilityConsideration(0), UtilitySpec{Cost: 50, Value: 50}, 0, 0.5},
		{"utility seed", "(50 - 10 + 100)/200 = 0.7", utilityConsideration(0), UtilitySpec{Cost: 10, Value: 50}, 40, 0.7},
		{"utility high", "(200 - 0 + 100)/200 = 1.5: the seed does not clamp utility()", utilityConsideration(0), UtilitySpec{Value: 200, Set: UtilityCost}, 200, 1.5},
		{"utility low", "(0 - 150 + 100)/200 = -0.25, unclamped", utilityConsideration(0), UtilitySpec{Cost: 150, Set: UtilityValue}, -150, -0.25},
		{"utility 300", "(300 - 0 + 100)/200 = 2, not 1 (issue 13.6)", utilityConsideration(0), UtilitySpec{Value: 300, Set: UtilityCost}, 300, 2},
		{"tag present", "hasTag(combat) on a combat action", hasTagConsideration("combat"), UtilitySpec{Tags: []string{"x", "combat"}}, 1, 1},
		{"tag absent", "hasTag(combat) on a supply action", hasTagConsideration("combat"), UtilitySpec{Tags: []string{"supply"}}, 0, 0},
		{"NaN func", "a NaN score is 0", FuncConsideration("nan", 1, func(*Action, expr.State) float64 { return math.NaN() }), UtilitySpec{}, math.NaN(), 0},
		{"func above 1", "a custom score is used as it is, as the seed's lambda", FuncConsideration("big", 1, func(*Action, expr.State) float64 { return 3 }), UtilitySpec{}, 3, 3},
		{"func with curve", "0.5 through the quadratic is 0.25", FuncConsideration("half", 1, func(*Action, expr.State) float64 { return 0.5 }).withCurve(curve.New(curve.Polynomial)), UtilitySpec{}, 0.5, 0.25},
		{"cost with curve", "cost 50 gives 0.5, squared 0.25", CostConsideration(0).withCurve(curve.New(curve.Polynomial)), UtilitySpec{Cost: 50}, 50, 0.25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a", Utility: tc.u}}})
			in, out, err := tc.c.eval(d.Actions[0], d.NewState(), d.Schema)
			require.NoError(t, err)
			if math.IsNaN(tc.input) {
				assert.True(t, math.IsNaN(in), "input: %v", in)
			} else {
				assert.InDelta(t, tc.input, in, 1e-12, "input")
			}
			assert.InDelta(t, tc.want, out, 1e-12, tc.reason)
		})
	}
}

func TestExplicitZeroUtility(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{
		{Name: "unset"},
		{Name: "zero", Utility: UtilitySpec{Set: UtilityCost | UtilityValue | UtilityWeight}},
	}})
	assert.Equal(t, UtilitySpec{Cost: 1, Value: 1, Weight: 1}, d.Actions[0].Utility, "the seed's defaults 1, 1, 1.0")
	z := d.Actions[1].Utility
	assert.Equal(t, [3]float64{0, 0, 0}, [3]float64{z.Cost, z.Value, z.Weight}, "explicit zeros stay zero")
	u := NewUtilityPlanner(d)
	assert.Equal(t, 0.0, u.Score(d.Actions[1], d.NewState()), "weight 0 scores 0")
	assert.Equal(t, "unset", u.SelectBestAction(d.NewState()).Name)
}

func TestPreconditionConsideration(t *testing.T) {
	d := compileRoles(t, utilitySoldier())
	c := PreconditionConsideration()
	st := d.NewState()
	_, out, _ := c.eval(d.Action("attack"), st, d.Schema)
	assert.Equal(t, 0.0, out, "attack needs a visible enemy")
	_, out, _ = c.eval(d.Action("fetchMagazine"), st, d.Schema)
	assert.Equal(t, 1.0, out, "no precondition holds")
	assert.Equal(t, []string{"fetchMagazine"}, namesOf(NewUtilityPlanner(d).ActionsByUtility(st)),
		"only applicable actions are scored")
}

func TestTagFiltering(t *testing.T) {
	d := compileRoles(t, utilitySoldier())
	st := stateOf(t, d, map[string]expr.Value{"ammo": expr.NumberValue(30), "enemy_visible": expr.BoolValue(true), "magazines": expr.NumberValue(1)})
	tests := []struct {
		name   string
		reason string
		cs     []Consideration
		best   string
		order  []string
	}{
		{"combat", "only attack has the combat tag", []Consideration{hasTagConsideration("combat")}, "attack",
			[]string{"attack", "fetchMagazine", "reload"}},
		{"supply", "both supply actions score 1; declaration order breaks the tie", []Consideration{hasTagConsideration("supply")}, "fetchMagazine",
			[]string{"fetchMagazine", "reload", "attack"}},
		{"supply and value", "combine(hasTag(supply), value) prefers reload's value 50",
			[]Consideration{combineConsideration(hasTagConsideration("supply"), ValueConsideration(1))}, "reload",
			[]string{"reload", "fetchMagazine", "attack"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := utilityWith(d, tc.cs...)
			assert.Equal(t, tc.best, u.SelectBestAction(st).Name, tc.reason)
			assert.Equal(t, tc.order, namesOf(u.ActionsByUtility(st)), tc.reason)
		})
	}
}

func TestCombineIsWeightedAverage(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a", Utility: UtilitySpec{Cost: 20, Value: 40}}}})
	c := combineConsideration(CostConsideration(3), ValueConsideration(1))
	in, out, err := c.eval(d.Actions[0], d.NewState(), d.Schema)
	require.NoError(t, err)
	assert.InDelta(t, (0.8*3+0.4*1)/4, out, 1e-12, "(0.8·3 + 0.4·1) / 4")
	assert.Equal(t, in, out, "a combine's input is its average")
}

func TestTiesByDeclarationOrder(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{
		{Name: "first"}, {Name: "second"}, {Name: "better", Utility: UtilitySpec{Value: 2}}, {Name: "third"},
	}})
	u := NewUtilityPlanner(d)
	st := d.NewState()
	assert.Equal(t, "better", u.SelectBestAction(st).Name)
	assert.Equal(t, []string{"better", "first", "second", "third"}, namesOf(u.ActionsByUtility(st)), "equal scores keep declaration order")
	u = utilityWith(d, hasTagConsideration("none"))
	assert.Equal(t, "first", u.SelectBestAction(st).Name, "all zero: the first declared wins")
	assert.Equal(t, []*Action{d.Action("first")}, u.Plan(st))
	u.Explain = true
	pick, e := u.Pick(st, nil)
	assert.Equal(t, "first", pick.Name, "explained, the first declared wins too")
	assert.Equal(t, []string{"first", "second", "better", "third"}, explainedNames(e))
}

func explainedNames(e *Explanation) []string {
	out := []string{}
	for _, x := range e.Actions {
		out = append(out, x.Action.Name)
	}
	return out
}

// The explanation names the mode it scored in: the default (empty) mode
// is "average".
func TestTheExplanationNamesItsMode(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a"}}})
	for mode, want := range map[string]string{"": UtilityAverage, UtilityAverage: UtilityAverage, UtilityMultiply: UtilityMultiply} {
		u := NewUtilityPlanner(d)
		u.Mode, u.Explain = mode, true
		_, e := u.Pick(d.NewState(), nil)
		require.NotNil(t, e)
		assert.Equal(t, want, e.Mode, "mode %q", mode)
	}
}

func TestEmptyRolePicksNothing(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "Empty"})
	u := NewUtilityPlanner(d)
	st := d.NewState()
	assert.Nil(t, u.SelectBestAction(st))
	assert.Empty(t, u.ActionsByUtility(st))
	assert.Empty(t, u.Plan(st))
	pick, _ := u.Pick(st, nil)
	assert.Nil(t, pick)
	u.Explain = true
	pick, e := u.Pick(st, nil)
	assert.Nil(t, pick)
	require.NotNil(t, e)
	assert.Empty(t, e.Actions)
}

func TestNoApplicableActionPicksNothing(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"x", expr.NumberValue(0)}}, Actions: []ActionSpec{{Name: "a", Pre: "x > 0"}}})
	u := NewUtilityPlanner(d)
	assert.Nil(t, u.SelectBestAction(d.NewState()))
	assert.Empty(t, u.Plan(d.NewState()))
}

func TestPlanAndActionsForGoal(t *testing.T) {
	role := utilitySoldier()
	role.Goals = []GoalSpec{{Name: "armed", Condition: "ammo > 10"}, {Name: "enemy_down", Condition: "!enemy_visible"}}
	role.Actions[0].Fulfills = []string{"enemy_down"}
	role.Actions[2].Fulfills = []string{"armed"}
	role.Actions = append(role.Actions, ActionSpec{Name: "grenade", Fulfills: []string{"enemy_down"}, Utility: UtilitySpec{Cost: 50, Value: 90}})
	d := compileRoles(t, role)
	u := NewUtilityPlanner(d)
	st := stateOf(t, d, map[string]expr.Value{"ammo": expr.NumberValue(30), "enemy_visible": expr.BoolValue(true), "magazines": expr.NumberValue(1)})
	assert.Equal(t, []*Action{d.Action("attack")}, u.Plan(st), "Plan returns at most the best")
	assert.Equal(t, []string{"attack", "grenade"}, namesOf(u.ActionsForGoal(d.Goal("enemy_down"), st)))
	assert.Equal(t, []string{"reload"}, namesOf(u.ActionsForGoal(d.Goal("armed"), st)))
	assert.Empty(t, u.ActionsForGoal(nil, st))
	st.Set(d.Schema, "magazines", expr.NumberValue(0))
	assert.Empty(t, u.ActionsForGoal(d.Goal("armed"), st), "reload does not apply without a magazine")
}

func TestMultiplyModeCompensation(t *testing.T) {
	eatFlee := func(mode string) *Domain {
		return compileRoles(t, RoleSpec{Name: "Animal", UtilityMode: mode, Actions: []ActionSpec{
			{Name: "eat", Considerations: []ConsiderationSpec{
				{Name: "hunger", Score: func(*Action, expr.State) float64 { return 0.4 }},
				{Name: "food near", Score: func(*Action, expr.State) float64 { return 0.4 }},
				{Name: "safe", Score: func(*Action, expr.State) float64 { return 0.4 }},
			}},
			{Name: "flee", Considerations: []ConsiderationSpec{{Name: "danger", Score: func(*Action, expr.State) float64 { return 0.9 }}}},
		}})
	}
	tests := []struct {
		name   string
		reason string
		mode   string
		eat    float64
		flee   float64
	}{
		{"average", "the seed's mean: 0.4 vs 0.9", "", 0.4, 0.9},
		{"multiply", "each 0.4 becomes 0.4 + 0.6·(2/3)·0.4 = 0.56; 0.56³ = 0.175616 vs 0.9", UtilityMultiply, 0.175616, 0.9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := eatFlee(tc.mode)
			u := NewUtilityPlanner(d)
			got := scoreOf(t, u.ActionsByUtility(d.NewState()))
			assert.InDelta(t, tc.eat, got["eat"], 1e-12, tc.reason)
			assert.InDelta(t, tc.flee, got["flee"], 1e-12, tc.reason)
			assert.Equal(t, "flee", u.SelectBestAction(d.NewState()).Name, tc.reason)
		})
	}
	// Summing instead would pick eat: 1.2 against 0.9.
	d := eatFlee("")
	sum := func(a *Action) float64 {
		s := 0.0
		for i := range a.Considerations {
			_, o, _ := a.Considerations[i].eval(a, d.NewState(), d.Schema)
			s += o
		}
		return s
	}
	assert.InDelta(t, 1.2, sum(d.Action("eat")), 1e-12)
	assert.Greater(t, sum(d.Action("eat")), sum(d.Action("flee")), "a sum rewards having more considerations")
}

func TestMultiplyWithoutCompensationWouldPunish(t *testing.T) {
	// Five considerations at 0.8 against one at 0.5: the plain product
	// 0.8^5 = 0.33 loses; compensated, each 0.8 is 0.8 + 0.2·0.8·0.8 = 0.928
	// and 0.928^5 = 0.688 wins, as the average (0.8 vs 0.5) does.
	five := make([]ConsiderationSpec, 5)
	for i := range five {
		five[i] = ConsiderationSpec{Name: "c", Score: func(*Action, expr.State) float64 { return 0.8 }}
	}
	d := compileRoles(t, RoleSpec{Name: "R", UtilityMode: UtilityMultiply, Actions: []ActionSpec{
		{Name: "many", Considerations: five},
		{Name: "one", Considerations: []ConsiderationSpec{{Name: "c", Score: func(*Action, expr.State) float64 { return 0.5 }}}},
	}})
	u := NewUtilityPlanner(d)
	assert.InDelta(t, math.Pow(0.928, 5), u.Score(d.Action("many"), d.NewState()), 1e-12)
	assert.Equal(t, "many", u.SelectBestAction(d.NewState()).Name)
}

func TestMultiplyZeroVetoes(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", UtilityMode: UtilityMultiply, Actions: []ActionSpec{{Name: "a", Utility: UtilitySpec{Value: 100}}}})
	u := utilityWith(d, ValueConsideration(1), hasTagConsideration("missing"))
	assert.Equal(t, 0.0, u.Score(d.Actions[0], d.NewState()), "one zero makes the product zero")
}

func TestCommitment(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"x", expr.NumberValue(0.5)}, {"ok", expr.BoolValue(true)}}, Actions: []ActionSpec{
		{Name: "hold", Pre: "ok"},
		{Name: "switch"},
	}})
	x := d.Schema.Names()
	_ = x
	slot, _ := d.Schema.Lookup("x")
	score := func(a *Action, st expr.State) float64 {
		if a.Name == "hold" {
			return 0.5
		}
		v, _ := st[slot].AsNumber()
		return v
	}
	tests := []struct {
		name    string
		reason  string
		x       float64
		ok      bool
		running string
		margin  float64
		pick    string
		kept    bool
	}{
		{"no running", "the best wins", 0.55, true, "", 0.1, "switch", false},
		{"close lead", "0.55 leads 0.5 by less than 0.1: keep", 0.55, true, "hold", 0.1, "hold", true},
		{"exact margin", "a lead of exactly the margin is not enough", 0.625, true, "hold", 0.125, "hold", true},
		{"clear lead", "0.65 leads by more than 0.1: switch", 0.65, true, "hold", 0.1, "switch", false},
		{"running is best", "nothing to keep", 0.3, true, "hold", 0.1, "hold", false},
		{"running no longer applies", "a running action whose precondition fails gives way", 0.2, false, "hold", 0.1, "switch", false},
		{"default margin", "commitment 0 is the default 0.1: keep", 0.55, true, "hold", 0, "hold", true},
		{"off", "a negative commitment turns it off: the best wins", 0.55, true, "hold", -1, "switch", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := utilityWith(d, FuncConsideration("s", 1, score))
			u.Commitment = tc.margin
			st := stateOf(t, d, map[string]expr.Value{"x": expr.NumberValue(tc.x), "ok": expr.BoolValue(tc.ok)})
			pick, e := u.Pick(st, d.Action(tc.running))
			require.NotNil(t, pick)
			assert.Nil(t, e, "no explanation unless asked")
			assert.Equal(t, tc.pick, pick.Name, tc.reason)
			u.Explain = true
			pick, e = u.Pick(st, d.Action(tc.running))
			require.NotNil(t, e)
			assert.Equal(t, tc.pick, pick.Name, tc.reason)
			assert.Equal(t, tc.kept, e.Kept, tc.reason)
		})
	}
	assert.Equal(t, 0.0, NewUtilityPlanner(d).Commitment, "zero, which stands for DefaultCommitment")
}

func TestExplanation(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R",
		State: []Var{{"health", expr.NumberValue(40)}, {"ammo", expr.NumberValue(0)}},
		Considerations: []ConsiderationSpec{
			{Input: "health", Min: 0, Max: 100, Weight: 2},
			{Kind: ConsiderCost},
		},
		Actions: []ActionSpec{
			{Name: "rest", Utility: UtilitySpec{Cost: 20}},
			{Name: "shoot", Pre: "ammo > 0"},
			{Name: "flee", Considerations: []ConsiderationSpec{
				{Name: "danger", Input: "health", Min: 100, Max: 0, Curve: &curve.Curve{Kind: curve.Polynomial, Exponent: 2}},
			}},
		},
	})
	u := NewUtilityPlanner(d)
	u.Explain = true
	pick, e := u.Pick(d.NewState(), nil)
	require.NotNil(t, e)
	assert.Equal(t, d.Action("rest"), pick)
	assert.Equal(t, UtilityAverage, e.Mode)
	assert.Equal(t, 0.1, e.Commitment)
	assert.Equal(t, pick, e.picked)
	require.Len(t, e.Actions, 2, "shoot does not apply")
	rest, flee := e.Actions[0], e.Actions[1]
	assert.Equal(t, "rest", rest.Action.Name)
	assert.InDelta(t, (0.4*2+0.8)/3, rest.Score, 1e-12)
	assert.Equal(t, []ConsiderationExplanation{
		{Name: "health", Input: 40, Output: 0.4, Weight: 2},
		{Name: "cost", Input: 20, Output: 0.8, Weight: 1},
	}, rest.Considerations)
	assert.Equal(t, "flee", flee.Action.Name)
	assert.InDelta(t, 0.36, flee.Score, 1e-12, "reversed range 100..0: 40 is 0.6, squared 0.36")
	require.Len(t, flee.Considerations, 1)
	assert.Equal(t, "danger", flee.Considerations[0].Name)
	assert.Equal(t, 40.0, flee.Considerations[0].Input)
	assert.InDelta(t, 0.36, flee.Considerations[0].Output, 1e-12)
}

func TestInputConsiderationValues(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"v", expr.NumberValue(0)}}, Actions: []ActionSpec{{Name: "a"}}})
	c, err := CompileConsideration(ConsiderationSpec{Input: "v", Min: 0, Max: 1}, d.Schema)
	require.NoError(t, err)
	tests := []struct {
		name   string
		reason string
		v      expr.Value
		out    float64
	}{
		{"number", "read as is", expr.NumberValue(0.25), 0.25},
		{"true", "true is 1", expr.BoolValue(true), 1},
		{"false", "false is 0", expr.BoolValue(false), 0},
		{"string", "not a number: 0", expr.StringValue("x"), 0},
		{"unknown", "missing: 0", expr.Value{}, 0},
		{"NaN", "NaN: 0", expr.NumberValue(math.NaN()), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := d.NewState()
			st[c.Slot] = tc.v
			_, out, err := c.eval(d.Actions[0], st, d.Schema)
			require.NoError(t, err)
			assert.Equal(t, tc.out, out, tc.reason)
		})
	}
}

func TestFuncErrorScoresZeroAndIsRecorded(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "broken"}, {Name: "fine"}}})
	boom := errors.New("boom")
	u := utilityWith(d, Consideration{Name: "f", Weight: 1, Func: func(a *Action, _ expr.State, _ *expr.Schema) (float64, error) {
		if a.Name == "broken" {
			return 1, boom
		}
		return 0.5, nil
	}})
	assert.Equal(t, "fine", u.SelectBestAction(d.NewState()).Name, "the failing consideration scores 0")
	n, err := u.LastError()
	assert.Equal(t, boom, err)
	assert.Equal(t, 1, n)
	u.Explain = true
	_, e := u.Pick(d.NewState(), nil)
	require.Len(t, e.Actions, 2)
	assert.Equal(t, boom, e.Actions[1].Considerations[0].Err)
	assert.Equal(t, 0.0, e.Actions[1].Considerations[0].Output)
}

func TestRoleAndActionConsiderations(t *testing.T) {
	base := RoleSpec{Name: "Base", State: []Var{{"hunger", expr.NumberValue(80)}},
		Considerations: []ConsiderationSpec{{Kind: ConsiderValue}},
		Actions: []ActionSpec{
			{Name: "eat", Utility: UtilitySpec{Value: 30}, Considerations: []ConsiderationSpec{{Input: "hunger", Min: 0, Max: 100}}},
			{Name: "play", Utility: UtilitySpec{Value: 60}},
		}}
	d := compileRoles(t, base)
	u := NewUtilityPlanner(d)
	got := scoreOf(t, u.ActionsByUtility(d.NewState()))
	assert.InDelta(t, 0.8, got["eat"], 1e-12, "eat's own list: hunger 80 of 100")
	assert.InDelta(t, 0.6, got["play"], 1e-12, "the role's list: value 60")

	child := RoleSpec{Name: "Child", Considerations: []ConsiderationSpec{{Kind: ConsiderCost}}}
	d = compileRoles(t, base, child)
	require.Len(t, d.Considerations, 1)
	assert.Equal(t, ConsiderCost, d.Considerations[0].Kind, "the later role's list replaces the earlier one")
	assert.Len(t, utilityWith(d, DefaultConsiderations()...).Considerations, 3, "explicit considerations win over the role's")
	assert.Len(t, NewUtilityPlanner(compileRoles(t, RoleSpec{Name: "X"})).Considerations, 3, "no role list: the seed's defaults")
}

func TestCompileConsiderationErrors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		role   RoleSpec
		msg    string
	}{
		{"unknown input", "a typo gets a suggestion",
			RoleSpec{Name: "R", State: []Var{{"health", expr.NumberValue(1)}}, Considerations: []ConsiderationSpec{{Input: "helth", Max: 1, Pos: Pos{File: "r.lua", Line: 3, Col: 5}}}},
			`r.lua:3:5: role consideration "helth": input "helth" is no state variable (did you mean "health"?)`},
		{"empty range", "min and max must differ",
			RoleSpec{Name: "R", State: []Var{{"h", expr.NumberValue(1)}}, Considerations: []ConsiderationSpec{{Input: "h", Min: 5, Max: 5}}},
			`role consideration "h": min and max must differ (both are 5)`},
		{"bad curve", "curves are validated",
			RoleSpec{Name: "R", State: []Var{{"h", expr.NumberValue(1)}}, Actions: []ActionSpec{{Name: "a", Considerations: []ConsiderationSpec{{Input: "h", Max: 1, Curve: &curve.Curve{Kind: "sigmoid"}}}}}},
			`action "a" consideration "h": unknown curve "sigmoid"; want linear, polynomial, logistic, logit or step`},
		{"negative weight", "weights are >= 0",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Kind: ConsiderCost, Weight: -1}}},
			`role consideration "cost": weight must be a finite number >= 0, not -1`},
		{"unknown kind", "a typo gets a suggestion",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Kind: "vaule"}}},
			`role consideration "vaule": unknown kind "vaule" (did you mean "value"?)`},
		{"no function", "func needs a function",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Name: "f"}}},
			`role consideration "f": func needs a function`},
		{"empty combine", "combine needs considerations",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Kind: ConsiderCombine}}},
			`role consideration "combine": combine needs the considerations it averages`},
		{"bad mode", "average or multiply",
			RoleSpec{Name: "R", UtilityMode: "multipy"},
			`utility mode must be "average" or "multiply", not "multipy" (did you mean "multiply"?)`},
		{"hasTag without a tag", "a tag to look for",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Kind: ConsiderHasTag}}},
			`role consideration "hasTag()": hasTag needs a tag`},
		{"combine of a broken one", "the parts are compiled too",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Kind: ConsiderCombine, Of: []ConsiderationSpec{{Kind: ConsiderValue}, {Kind: ConsiderCost, Weight: -2}}}}},
			`role consideration "cost": weight must be a finite number >= 0, not -2`},
		{"input without a name", "input names a state variable",
			RoleSpec{Name: "R", Considerations: []ConsiderationSpec{{Kind: ConsiderInput, Max: 1}}},
			`role consideration "input": input needs a state variable name`},
		{"infinite max", "the range is finite",
			RoleSpec{Name: "R", State: []Var{{"h", expr.NumberValue(1)}}, Considerations: []ConsiderationSpec{{Input: "h", Max: math.Inf(1)}}},
			`role consideration "h": min and max must be finite numbers, not +Inf`},
		{"NaN min", "the range is finite",
			RoleSpec{Name: "R", State: []Var{{"h", expr.NumberValue(1)}}, Considerations: []ConsiderationSpec{{Input: "h", Min: math.NaN(), Max: 1}}},
			`role consideration "h": min and max must be finite numbers, not NaN`},
		{"negative utility weight", "a negative weight would rank by badness",
			RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a", Utility: UtilitySpec{Weight: -0.5}}}},
			`action "a" utility weight must be >= 0 (a negative weight would rank the action by how bad it is), not -0.5`},
		{"NaN utility", "utility data must be finite",
			RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a", Utility: UtilitySpec{Value: math.NaN()}}}},
			`action "a" utility value must be a finite number, not NaN`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.role)
			var ce *CompileError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.msg, ce.Error(), tc.reason)
		})
	}
}

func TestUtilityHotPathsDoNotAllocate(t *testing.T) {
	role := utilitySoldier()
	role.Considerations = []ConsiderationSpec{
		{Input: "health", Min: 0, Max: 100, Curve: &curve.Curve{Kind: curve.Logistic, Slope: 10, Offset: 0.5}},
		{Kind: ConsiderCost, Weight: 0.3},
		{Kind: ConsiderCombine, Of: []ConsiderationSpec{{Kind: ConsiderValue}, {Tag: "combat"}}},
	}
	for _, mode := range []string{UtilityAverage, UtilityMultiply} {
		role.UtilityMode = mode
		d := compileRoles(t, role)
		u := NewUtilityPlanner(d)
		st := stateOf(t, d, map[string]expr.Value{"ammo": expr.NumberValue(30), "enemy_visible": expr.BoolValue(true), "magazines": expr.NumberValue(1)})
		running := d.Action("reload")
		tests := []struct {
			name string
			fn   func()
		}{
			{"SelectBestAction", func() { u.SelectBestAction(st) }},
			{"ActionsByUtility", func() { u.ActionsByUtility(st) }},
			{"Plan", func() { u.Plan(st) }},
			{"Pick", func() { u.Explain = false; u.Pick(st, running) }},
			{"Pick explained", func() { u.Explain = true; u.Pick(st, running) }},
		}
		for _, tc := range tests {
			t.Run(mode+" "+tc.name, func(t *testing.T) {
				tc.fn() // grow the buffers
				assert.Equal(t, 0.0, testing.AllocsPerRun(100, tc.fn))
			})
		}
	}
}

func TestSeedFormulasInTheScore(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{
		{Name: "feast", Utility: UtilitySpec{Value: 300, Set: UtilityCost}},
		{Name: "snack", Utility: UtilitySpec{Value: 80, Cost: 20}},
	}})
	tests := []struct {
		name, reason string
		mode         string
		clamp        bool
		feast, snack float64
	}{
		{name: "seed", reason: "utility() as the seed writes it: (300 - 0 + 100)/200 = 2 and (80 - 20 + 100)/200 = 0.8",
			feast: 2, snack: 0.8},
		{name: "clamp option", reason: "Clamp bounds each output to [0, 1]: 1 and 0.8", clamp: true,
			feast: 1, snack: 0.8},
		{name: "multiply", reason: "multiply mode always clamps; one consideration, no compensation", mode: UtilityMultiply,
			feast: 1, snack: 0.8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := utilityWith(d, utilityConsideration(1))
			u.Mode, u.Clamp = tc.mode, tc.clamp
			st := d.NewState()
			assert.InDelta(t, tc.feast, u.Score(d.Action("feast"), st), 1e-12, tc.reason)
			assert.InDelta(t, tc.snack, u.Score(d.Action("snack"), st), 1e-12, tc.reason)
			best := u.ActionsByUtility(st)
			require.Len(t, best, 2)
			assert.Equal(t, "feast", best[0].Action.Name)
		})
	}
}

// utilityWith is NewUtilityPlanner with its Considerations replaced by cs.
func utilityWith(d *Domain, cs ...Consideration) *UtilityPlanner {
	u := NewUtilityPlanner(d)
	u.Considerations = cs
	return u
}

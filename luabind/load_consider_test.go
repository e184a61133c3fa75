package luabind

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func loadUtility(t *testing.T, rt *Runtime, file string) *engine.Domain {
	t.Helper()
	d, err := rt.LoadDomain(filepath.Join("testdata", file))
	require.NoError(t, err)
	return d
}

func setState(t *testing.T, d *engine.Domain, st expr.State, kv map[string]float64) {
	t.Helper()
	for k, v := range kv {
		require.True(t, st.Set(d.Schema, k, expr.NumberValue(v)), "no variable %q", k)
	}
}

func TestConsiderationsFromLua(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d := loadUtility(t, rt, "utility_animal.lua")
	assert.Equal(t, engine.UtilityMultiply, d.UtilityMode)
	require.Len(t, d.Considerations, 2)
	assert.Equal(t, engine.ConsiderValue, d.Considerations[0].Kind)
	assert.Equal(t, 0.5, d.Considerations[0].Weight, `"value(0.5)" is the seed's value(0.5)`)
	assert.Equal(t, engine.ConsiderCost, d.Considerations[1].Kind)
	assert.Equal(t, &curve.Curve{Kind: curve.Polynomial, Slope: 1, Exponent: 2}, d.Considerations[1].Curve)
	eat := d.Action("eat")
	require.Len(t, eat.Considerations, 3)
	assert.Equal(t, "hunger", eat.Considerations[0].Name)
	assert.Equal(t, &curve.Curve{Kind: curve.Logistic, Slope: 10, Offset: 0.5}, eat.Considerations[0].Curve)
	assert.Equal(t, [2]float64{1, 0}, [2]float64{eat.Considerations[1].Min, eat.Considerations[1].Max})
	assert.Equal(t, "hasTag(food)", eat.Considerations[2].Name)
	assert.Equal(t, 0.0, eat.Utility.Cost, "utility cost = 0 stays 0")
	assert.Equal(t, 1.0, d.Action("flee").Utility.Cost, "no utility table: the seed's default 1")

	logistic := func(x float64) float64 { return 1 / (1 + math.Exp(-10*(x-0.5))) }
	comp := func(o float64, n int) float64 { return o + (1-o)*(1-1/float64(n))*o }
	tests := []struct {
		name   string
		reason string
		state  map[string]float64
		pick   string
		scores map[string]float64
	}{
		{"calm", "hunger 40: rest's value beats eat's logistic", map[string]float64{"hunger": 40},
			"rest", map[string]float64{"eat": comp(logistic(0.4), 3), "flee": 0, "rest": math.Sqrt(comp(0.2, 2))}},
		{"hungry", "hunger 80: the logistic is near 1", map[string]float64{"hunger": 80},
			"eat", map[string]float64{"eat": comp(logistic(0.8), 3), "flee": 0, "rest": math.Sqrt(comp(0.2, 2))}},
		{"danger", "danger 0.5 passes flee's step at 0.3", map[string]float64{"hunger": 80, "danger": 0.5},
			"flee", map[string]float64{"eat": comp(logistic(0.8), 3) * comp(0.5, 3), "flee": 1, "rest": math.Sqrt(comp(0.2, 2))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := d.NewState()
			setState(t, d, st, tc.state)
			u := engine.NewUtilityPlanner(d)
			assert.Equal(t, tc.pick, u.SelectBestAction(st).Name, tc.reason)
			for _, sa := range u.ActionsByUtility(st) {
				assert.InDelta(t, tc.scores[sa.Action.Name], sa.Score, 1e-9, sa.Action.Name)
			}
		})
	}
}

// gunnerScore is utility_same.lua's consideration written in Go.
func gunnerScore(d *engine.Domain) func(a *engine.Action, st expr.State) float64 {
	num := func(st expr.State, name string) float64 {
		v, _ := st.Get(d.Schema, name).AsNumber()
		return v
	}
	return func(a *engine.Action, st expr.State) float64 {
		switch a.Name {
		case "attack":
			return (num(st, "ammo") / 30) * (num(st, "health") / 100) * (1 - num(st, "distance")/50)
		case "cover":
			return 1 - num(st, "health")/100
		}
		return 0.25
	}
}

func TestLuaAndGoConsiderationsPickAlike(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d := loadUtility(t, rt, "utility_same.lua")
	lua := engine.NewUtilityPlanner(d)
	require.Len(t, lua.Considerations, 1)
	require.NotNil(t, lua.Considerations[0].Func, "a Lua function is a Func consideration")
	goPlanner := engine.NewUtilityPlanner(d)
	goPlanner.Considerations = []engine.Consideration{engine.FuncConsideration("go", 1, gunnerScore(d))}
	picks := map[string]int{}
	for _, ammo := range []float64{0, 5, 15, 30} {
		for _, health := range []float64{5, 30, 60, 100} {
			for _, dist := range []float64{0, 10, 40, 60} {
				st := d.NewState()
				setState(t, d, st, map[string]float64{"ammo": ammo, "health": health, "distance": dist})
				lp, gp := lua.SelectBestAction(st), goPlanner.SelectBestAction(st)
				require.NotNil(t, lp)
				assert.Equal(t, gp.Name, lp.Name, "ammo %v health %v distance %v", ammo, health, dist)
				for _, a := range d.Actions {
					assert.InDelta(t, goPlanner.Score(a, st), lua.Score(a, st), 1e-12, a.Name)
				}
				picks[lp.Name]++
			}
		}
	}
	n, err := lua.LastError()
	assert.NoError(t, err)
	assert.Zero(t, n)
	assert.Len(t, picks, 3, "the states exercise every action: %v", picks)
}

func TestLuaConsiderationErrorsScoreZero(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 100_000})
	defer rt.Close()
	d := loadUtility(t, rt, "utility_errors.lua")
	u := engine.NewUtilityPlanner(d)
	u.Explain = true
	pick, e := u.Pick(d.NewState(), nil)
	require.NotNil(t, pick)
	assert.Equal(t, "fine", pick.Name, "every other consideration failed and scored 0")
	errs := map[string]string{}
	for _, ax := range e.Actions {
		require.Len(t, ax.Considerations, 1)
		c := ax.Considerations[0]
		if c.Err != nil {
			errs[ax.Action.Name] = c.Err.Error()
			assert.Equal(t, 0.0, c.Output, ax.Action.Name)
		}
	}
	file := filepath.Join("testdata", "utility_errors.lua")
	tests := []struct {
		action string
		want   string
	}{
		{"raises", `luabind: consideration "function@7": ` + file + `:7: no luck`},
		{"string", `luabind: consideration "words" must return a number, not string`},
		{"writes", `state.x: the state is read-only in a consideration`},
		{"loops", `instruction budget exceeded`},
	}
	for _, tc := range tests {
		t.Run(tc.action, func(t *testing.T) {
			assert.Contains(t, errs[tc.action], tc.want)
		})
	}
	n, _ := u.LastError()
	assert.Equal(t, 4, n, "four failures recorded")
	assert.Equal(t, 1.0, d.NewState()[0].Interface(), "the state is unchanged")
}

func TestConsiderationReadErrors(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	file := filepath.Join("testdata", "utility_bad.lua")
	_, err := rt.LoadDomain(file)
	require.Error(t, err)
	var ce *engine.CompileError
	require.ErrorAs(t, err, &ce)
	got := strings.Split(ce.Error(), "\n")
	want := []string{
		file + `:8:6: role consideration #2: unknown consideration "costs"; by name: cost, value, utility, preconditionSatisfied, hasTag (did you mean "cost"?)`,
		file + `:15:40: action "a" consideration #2: unknown key "slop" (did you mean "slope"?)`,
		file + `:7:7: role consideration "helth": input "helth" is no state variable (did you mean "health"?)`,
		file + `:14:11: action "a" consideration "health": unknown curve "sigmoid"; want linear, polynomial, logistic, logit or step`,
		file + `:5:3: role: utility_mode must be "average" or "multiply", not "multipy" (did you mean "multiply"?)`,
	}
	assert.ElementsMatch(t, want, got)
}

func TestUtilityZeroIsExplicit(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d := loadUtility(t, rt, "utility_animal.lua")
	assert.Equal(t, engine.UtilitySpec{Cost: 0, Value: 50, Weight: 1, Tags: []string{"food"},
		Set: engine.UtilityCost | engine.UtilityValue}, d.Action("eat").Utility)
}

func TestSoldierCombatChoice(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d := loadUtility(t, rt, "utility_soldier.lua")
	tests := []struct {
		name   string
		reason string
		state  map[string]float64
		pick   string
	}{
		{"fresh", "full health, full magazine, enemy at 200", map[string]float64{}, "attack"},
		{"low ammo", "3 rounds left: still shoot", map[string]float64{"ammo": 3}, "attack"},
		{"far", "an enemy at 550 is barely worth shooting, but nothing else is", map[string]float64{"enemy_distance": 550}, "attack"},
		{"hurt", "health 40 with the enemy near: cover", map[string]float64{"health": 40}, "takeCover"},
		{"hurt and close", "health 40, enemy at 50", map[string]float64{"health": 40, "enemy_distance": 50}, "takeCover"},
		{"badly hurt", "health 15: retreat", map[string]float64{"health": 15}, "retreat"},
		{"dry", "no ammo: attack does not apply; hurt a little, cover", map[string]float64{"ammo": 0, "health": 60}, "takeCover"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := d.NewState()
			setState(t, d, st, tc.state)
			u := engine.NewUtilityPlanner(d)
			u.Explain = true
			pick, e := u.Pick(st, nil)
			require.NotNil(t, pick)
			var why []string
			for _, ax := range e.Actions {
				why = append(why, ax.Action.Name+"="+strconv.FormatFloat(ax.Score, 'f', 3, 64))
			}
			assert.Equal(t, tc.pick, pick.Name, "%s: %v", tc.reason, why)
		})
	}
}

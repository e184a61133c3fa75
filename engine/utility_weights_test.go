package engine

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// fixed is a consideration of that weight whose output is always out
// (the weight set after FuncConsideration, which reads 0 as 1).
func fixed(name string, weight, out float64) Consideration {
	c := FuncConsideration(name, 1, func(*Action, expr.State) float64 { return out })
	c.Weight = weight
	return c
}

// In multiply mode a weight is an exponent (2 squares, 0.5 takes the
// square root, any other a power) and a weight of 0 or NaN leaves the
// consideration out of the product and out of the compensation's count.
func TestMultiplyWeightsAreExponents(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", UtilityMode: UtilityMultiply, Actions: []ActionSpec{{Name: "a"}}})
	a := d.Actions[0]
	u := utilityWith(d,
		fixed("squared", 2, 0.5), fixed("root", 0.5, 0.64), fixed("plain", 1, 0.9), fixed("cubed", 3, 0.8),
		fixed("off", 0, 0), fixed("nan", math.NaN(), 0), fixed("negative", -1, 0))
	// Four considerations count: each output o becomes o + (1-o)·(3/4)·o.
	comp := func(o float64) float64 { return o + (1-o)*0.75*o }
	want := math.Pow(comp(0.5), 2) * math.Sqrt(comp(0.64)) * comp(0.9) * math.Pow(comp(0.8), 3)
	assert.InDelta(t, want, u.Score(a, d.NewState()), 1e-12)
	assert.InDelta(t, 0.47265625*0.9015542135*0.9675*0.778688, want, 1e-9, "the same by hand")

	none := utilityWith(d, fixed("off", 0, 1), fixed("negative", -2, 1))
	assert.Equal(t, 0.0, none.Score(a, d.NewState()), "no consideration counts: nothing to multiply")
}

// In average mode a weight is a share of the weighted mean, and a weight
// of 0, below 0 or NaN leaves the consideration out.
func TestAverageWeightsAreShares(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a"}}})
	a := d.Actions[0]
	u := utilityWith(d, fixed("three", 3, 0.2), fixed("one", 1, 1), fixed("off", 0, 1), fixed("nan", math.NaN(), 1),
		fixed("negative", -1, 1))
	assert.InDelta(t, (3*0.2+1)/4, u.Score(a, d.NewState()), 1e-12)

	none := utilityWith(d, fixed("off", 0, 1), fixed("negative", -2, 1))
	assert.Equal(t, 0.0, none.Score(a, d.NewState()), "no consideration counts: 0, not NaN")
}

// combine averages its parts by weight, leaves out those of weight 0 (or
// below, or NaN), keeps the first error of a part, and scores 0 with no
// part left.
func TestCombineAveragesItsWeightedParts(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a"}}})
	a := d.Actions[0]
	failing := func(msg string) Consideration {
		return Consideration{Name: msg, Kind: ConsiderFunc, Weight: 1,
			Func: func(*Action, expr.State, *expr.Schema) (float64, error) { return 1, errors.New(msg) }}
	}
	c := combineConsideration(fixed("three", 3, 0.2), fixed("one", 1, 1), fixed("off", 0, 1), fixed("nan", math.NaN(), 1),
		failing("first"), failing("second"))
	in, out, err := c.eval(a, d.NewState(), d.Schema)
	assert.InDelta(t, (3*0.2+1)/6, in, 1e-12, "a failing part scores 0")
	assert.InDelta(t, (3*0.2+1)/6, out, 1e-12)
	assert.EqualError(t, err, "first")

	// A part of weight 0 is not evaluated: neither its error nor its
	// infinite output (∞ × 0 is NaN) reaches the combine.
	offFailing := failing("left out")
	offFailing.Weight = 0
	parts := combineConsideration(offFailing, fixed("infinite", 0, math.Inf(1)), fixed("half", 1, 0.5))
	in, out, err = parts.eval(a, d.NewState(), d.Schema)
	require.NoError(t, err)
	assert.Equal(t, 0.5, in)
	assert.Equal(t, 0.5, out)

	none := combineConsideration(fixed("off", 0, 1), fixed("negative", -1, 1))
	in, out, err = none.eval(a, d.NewState(), d.Schema)
	require.NoError(t, err)
	assert.Equal(t, 0.0, in)
	assert.Equal(t, 0.0, out)

	empty := Consideration{Name: "empty", Kind: ConsiderFunc, Weight: 1}
	in, out, err = empty.eval(a, d.NewState(), d.Schema)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(in), "a custom consideration without a function has no input")
	assert.Equal(t, 0.0, out, "NaN scores 0")
}

// An input consideration reads its variable's slot; a slot past the 64 a
// mask holds reads every slot, and no slot (an input out of range, NaN)
// reads none.
func TestAnInputConsiderationReadsItsSlot(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a"}}})
	a := d.Actions[0]
	for _, tc := range []struct {
		slot int
		want uint64
	}{{-1, 0}, {0, 1}, {3, 8}, {63, 1 << 63}, {64, ^uint64(0)}, {100, ^uint64(0)}} {
		got, ok := considerationReads(&Consideration{Kind: ConsiderInput, Slot: tc.slot}, a)
		assert.True(t, ok)
		assert.Equal(t, tc.want, got, "slot %d", tc.slot)
	}
	// A slot the state does not have (a consideration of a longer schema)
	// reads no value: its input is NaN and it scores 0.
	st := expr.State{expr.NumberValue(1)}
	for _, slot := range []int{-1, 1, 2} {
		in, out, err := (&Consideration{Kind: ConsiderInput, Slot: slot, Max: 1}).eval(a, st, d.Schema)
		require.NoError(t, err)
		assert.True(t, math.IsNaN(in), "slot %d: %v", slot, in)
		assert.Equal(t, 0.0, out, "slot %d", slot)
	}
	in, out, err := (&Consideration{Kind: ConsiderInput, Slot: 0, Max: 1}).eval(a, st, d.Schema)
	require.NoError(t, err)
	assert.Equal(t, 1.0, in)
	assert.Equal(t, 1.0, out, "slot 0 is read")
}

// A function consideration is given the planner's domain's schema, to
// read the state by name, in both modes; a planner without a domain
// (Score alone needs none) gives it none.
func TestAFunctionConsiderationReadsThroughTheDomainsSchema(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"hunger", expr.NumberValue(0.25)}}, Actions: []ActionSpec{{Name: "a"}}})
	var schemas []*expr.Schema
	byName := Consideration{Name: "hunger", Kind: ConsiderFunc, Weight: 1,
		Func: func(_ *Action, st expr.State, s *expr.Schema) (float64, error) {
			schemas = append(schemas, s)
			if s == nil {
				return 0.5, nil
			}
			n, _ := st.Get(s, "hunger").AsNumber()
			return n, nil
		}}
	u := utilityWith(d, byName)
	assert.Equal(t, 0.25, u.Score(d.Actions[0], d.NewState()))
	u.Mode = UtilityMultiply
	assert.Equal(t, 0.25, u.Score(d.Actions[0], d.NewState()))
	alone := &UtilityPlanner{Considerations: []Consideration{byName}}
	assert.Equal(t, 0.5, alone.Score(d.Actions[0], d.NewState()))
	assert.Equal(t, []*expr.Schema{d.Schema, d.Schema, nil}, schemas)
}

// A consideration of weight 0 is left out in both modes: it is not
// called (its error is not recorded) and the explanation has no row for
// it.
func TestAConsiderationOfWeightZeroIsNotCalled(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "a"}}})
	for _, mode := range []string{UtilityAverage, UtilityMultiply} {
		calls := 0
		off := Consideration{Name: "off", Kind: ConsiderFunc, Weight: 0,
			Func: func(*Action, expr.State, *expr.Schema) (float64, error) { calls++; return 1, errors.New("left out") }}
		u := utilityWith(d, fixed("half", 1, 0.5), off)
		u.Mode, u.Explain = mode, true
		picked, e := u.Pick(d.NewState(), nil)
		require.NotNil(t, picked, mode)
		require.Len(t, e.Actions, 1, mode)
		assert.Equal(t, 0.5, e.Actions[0].Score, mode)
		require.Len(t, e.Actions[0].Considerations, 1, mode)
		assert.Equal(t, "half", e.Actions[0].Considerations[0].Name, mode)
		assert.Equal(t, 0.5, u.Score(d.Actions[0], d.NewState()), mode)
		assert.Zero(t, calls, mode)
		n, err := u.LastError()
		assert.Zero(t, n, mode)
		assert.NoError(t, err, mode)
	}
}

// The action's weight scales its score in both modes.
func TestTheActionsWeightScalesItsScore(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Actions: []ActionSpec{{Name: "heavy", Utility: UtilitySpec{Weight: 4}}, {Name: "light", Utility: UtilitySpec{Weight: 0.5}}}})
	for _, mode := range []string{UtilityAverage, UtilityMultiply} {
		u := utilityWith(d, fixed("half", 1, 0.5))
		u.Mode = mode
		assert.Equal(t, 2.0, u.Score(d.Actions[0], d.NewState()), mode)
		assert.Equal(t, 0.25, u.Score(d.Actions[1], d.NewState()), mode)
	}
}

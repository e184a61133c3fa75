package engine

import (
	"bytes"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// identicalValue reports whether two Values are the same: kind, a number's
// float64 bits (so -0 is not 0; every NaN is NaN: a snapshot
// keeps no NaN's sign or payload), a bool, a string's text.
func identicalValue(x, y expr.Value) bool {
	if x.Kind() != y.Kind() {
		return false
	}
	switch x.Kind() {
	case expr.Number:
		a, _ := x.AsNumber()
		b, _ := y.AsNumber()
		return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
	case expr.Bool:
		return x.Truthy() == y.Truthy()
	case expr.String:
		a, _ := x.AsString()
		b, _ := y.AsString()
		return a == b
	}
	return true
}

// oddStateValues are values whose storage is unusual: NaN and its sign,
// -0, ±Inf, the smallest subnormal, the empty string, strings of the
// bytes 0 to 3 (which a tag byte might hold), a string of NULs, a long
// string, and Unknown and nil.
func oddStateValues() []expr.Value {
	return []expr.Value{expr.NumberValue(math.NaN()), expr.NumberValue(math.Copysign(math.NaN(), -1)),
		expr.NumberValue(math.Copysign(0, -1)), expr.NumberValue(0), expr.NumberValue(math.Inf(1)), expr.NumberValue(math.Inf(-1)),
		expr.NumberValue(math.SmallestNonzeroFloat64), expr.StringValue(""), expr.StringValue("\x00"), expr.StringValue("\x01"),
		expr.StringValue("\x02"), expr.StringValue("\x03"), expr.StringValue("\x00\x00\x00\x00\x00\x00\x00\x00\x00"),
		expr.StringValue(strings.Repeat("é", 300)), expr.NilValue(), expr.BoolValue(false), expr.BoolValue(true), {}}
}

// TestOddValuesSurviveSnapshot: odd values in an agent's state come back
// from a snapshot exactly (the sign of -0, NaN, every string's bytes,
// Unknown apart from nil), and a restored agent's clone holds them too.
func TestOddValuesSurviveSnapshot(t *testing.T) {
	vals := oddStateValues()
	var vars []Var
	for i := range vals {
		vars = append(vars, Var{string(rune('a' + i)), expr.NumberValue(1)})
	}
	d, err := Compile(RoleSpec{Name: "Vals", State: vars, Actions: []ActionSpec{NewAction("x").Spec()}})
	require.NoError(t, err)
	w := NewWorld(1)
	a := NewAgent("v", d)
	w.Add(a)
	copy(a.State, vals)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := Restore(&buf, RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	require.Len(t, r.Agents, 1)
	got := r.Agents[0].State.Clone()
	for i, v := range vals {
		assert.True(t, identicalValue(v, got[i]), "slot %d: saved %v (%v), restored %v (%v)", i, v, v.Kind(), got[i], got[i].Kind())
	}
}

// TestOddValuesSurviveLiteral: every odd value but NaN and Unknown reads
// back from its String form as itself (ParseLiteral), and Equal holds
// between a value and its copy (Unknown too) except for NaN; -0 is Equal to 0 but is
// stored apart from it (changedSlots).
func TestOddValuesSurviveLiteral(t *testing.T) {
	for i, v := range oddStateValues() {
		c := v
		if n, ok := v.AsNumber(); ok && n != n {
			assert.False(t, v.Equal(c), "value %d: NaN is not Equal to itself", i)
			continue
		}
		assert.True(t, v.Equal(c), "value %d (%v): Equal to its copy", i, v)
		if !v.IsKnown() {
			continue
		}
		p, err := expr.ParseLiteral(v.String())
		if n, ok := v.AsNumber(); ok && math.IsInf(n, 0) {
			if err != nil {
				continue // no literal for an infinity
			}
		}
		require.NoError(t, err, "value %d: %s", i, v.String())
		assert.True(t, identicalValue(v, p), "value %d: %s read back as %v", i, v.String(), p)
	}
	st := expr.State{expr.NumberValue(0), expr.NumberValue(math.Copysign(0, -1))}
	assert.True(t, st[0].Equal(st[1]))
	assert.Equal(t, uint64(0b01), changedSlots(expr.State{st[1], st[1]}, expr.State{st[0], st[1]}), "-0 is stored apart from 0")
}

// TestSubstringValueOutlivesItsString: a Value holding a small substring
// of a large string the program has dropped keeps the text readable
// through collections that return memory to the system; a state's clone
// and changedSlots read it too.
func TestSubstringValueOutlivesItsString(t *testing.T) {
	st := make(expr.State, 3)
	func() {
		big := strings.Repeat("abcdefgh", 1<<17) // 1 MiB
		st[0] = expr.StringValue(big[4096+3 : 4096+3+5])
		st[1] = expr.StringValue(big[len(big)-1:])
		st[2] = expr.StringValue(big[7:7])
	}()
	for range 3 {
		runtime.GC()
		debug.FreeOSMemory()
		_ = make([]byte, 2<<20) // memory the collector may hand out where big was
	}
	c := st.Clone()
	for i, want := range []string{"defgh", "h", ""} {
		s, ok := c[i].AsString()
		require.True(t, ok, "slot %d is a string", i)
		assert.Equal(t, want, s, "slot %d", i)
	}
	assert.Equal(t, uint64(0), changedSlots(st, c))
	assert.True(t, st[2].Equal(expr.StringValue("")))
}

// nanPlanDomain is a GOAP role whose start state holds x and y equal to
// xv; copy and copy2 assign one to the other (changing nothing), step
// applies while x is NaN (xv NaN) or equals itself (a number), and three
// steps lead to the goal.
func nanPlanDomain(t *testing.T, xv float64) *Domain {
	t.Helper()
	pre := "x == x"
	if xv != xv {
		pre = "x != x"
	}
	d, err := Compile(RoleSpec{Name: "NaNPlan",
		State: []Var{{"x", expr.NumberValue(xv)}, {"y", expr.NumberValue(xv)}, {"k", expr.NumberValue(0)}, {"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("g", "done", High)},
		Actions: []ActionSpec{NewAction("copy").Effects("x = y").Cost(1).Spec(), NewAction("copy2").Effects("y = x").Cost(1).Spec(),
			NewAction("step").Pre(pre).Effects("k = k + 1").Cost(1).Spec(),
			NewAction("finish").Pre("k > 2").Effects("done = true").Cost(1).Spec()}})
	require.NoError(t, err)
	return d
}

// TestNaNStateSearchesAsANumber: a NaN in the start state (which no
// effect here changes) makes the planner search as a number there does:
// the same plan, cost and expansions. Before the 16-byte Value the
// planner's duplicate test compared NaN fields with != and found states
// holding one NaN different from themselves, and copying NaN to NaN a
// change: 40 expansions instead of 4 for this domain.
func TestNaNStateSearchesAsANumber(t *testing.T) {
	plan := func(xv float64) ([]string, float64, int) {
		a := NewAgent("n", nanPlanDomain(t, xv))
		p, err := a.Planner().Plan(a.State)
		require.NoError(t, err)
		var names []string
		for _, s := range p.Steps {
			names = append(names, s.Name)
		}
		return names, p.Cost, p.Expansions
	}
	steps, cost, exp := plan(math.NaN())
	wantSteps, wantCost, wantExp := plan(7)
	assert.Equal(t, []string{"step", "step", "step", "finish"}, wantSteps)
	assert.Equal(t, wantSteps, steps)
	assert.Equal(t, wantCost, cost)
	assert.Equal(t, wantExp, exp, "expansions with NaN in the state, against a number")
}

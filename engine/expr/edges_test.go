package expr_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestACmpPastTheOperatorsPrintsAsUnknown: an operator value past the six
// comparisons prints "?", as the zero value does.
func TestACmpPastTheOperatorsPrintsAsUnknown(t *testing.T) {
	assert.Equal(t, ">=", expr.Ge.String())
	assert.Equal(t, "?", expr.Cmp(0).String())
	assert.Equal(t, "?", (expr.Ge + 1).String())
	assert.Equal(t, "?", expr.Cmp(200).String())
}

// TestSlotMaskNeverLeavesASlotOut: slots 0 to 63 are one bit each; slot
// 64 or more (or a negative one) gives every bit.
func TestSlotMaskNeverLeavesASlotOut(t *testing.T) {
	assert.Equal(t, uint64(0), expr.SlotMask(nil))
	assert.Equal(t, uint64(1)|1<<5|1<<63, expr.SlotMask([]int{0, 5, 63}))
	assert.Equal(t, ^uint64(0), expr.SlotMask([]int{3, 64}))
	assert.Equal(t, ^uint64(0), expr.SlotMask([]int{-1}))
}

// TestInfinityMinusItselfIsNoErrorInAnyApply: ∞ − ∞ leaves the target
// unknown, without an error, through Apply and ApplyInPlace alike (the
// in-place form that computes every value first included).
func TestInfinityMinusItselfIsNoErrorInAnyApply(t *testing.T) {
	s := expr.NewSchema("y", "x")
	for _, src := range []string{"x = y - y", "x = y - y, y = x"} {
		e, err := expr.CompileEffect(src, s)
		require.NoError(t, err)
		st := expr.State{expr.NumberValue(math.Inf(1)), expr.NumberValue(0)}
		dst := st.Clone()
		require.NoError(t, e.Apply(dst, st), src)
		assert.Equal(t, expr.Unknown, dst[1].Kind(), src)
		require.NoError(t, e.ApplyInPlace(st), src)
		assert.Equal(t, expr.Unknown, st[1].Kind(), src)
	}
}

// TestApplyInPlaceChecksEveryOperand: an effect whose right-hand sides
// read what an earlier assignment writes fails on an operand that is not
// a number, the first one included, and then changes nothing.
func TestApplyInPlaceChecksEveryOperand(t *testing.T) {
	s := expr.NewSchema("a", "b")
	e, err := expr.CompileEffect("a = b + 1, b = a", s)
	require.NoError(t, err)
	st := expr.State{expr.NumberValue(1), expr.StringValue("two")}
	err = e.ApplyInPlace(st)
	var ee *expr.EffectError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, "b", ee.Variable)
	assert.Equal(t, "a", ee.Target)
	assert.Equal(t, expr.State{expr.NumberValue(1), expr.StringValue("two")}, st)
}

// TestApplyInPlaceAllocatesOnlyPastEightAssignments: an effect that must
// compute every value first does so in a scratch array on the stack for
// up to 8 assignments.
func TestApplyInPlaceAllocatesOnlyPastEightAssignments(t *testing.T) {
	for _, n := range []int{2, 8} {
		s := expr.NewSchema()
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf("v%d = v%d", i, (i+1)%n)) // a rotation: each reads the next
		}
		e, err := expr.CompileEffect(strings.Join(parts, ", "), s)
		require.NoError(t, err)
		st := s.NewState()
		for i := range n {
			st[i] = expr.NumberValue(float64(i))
		}
		require.NoError(t, e.ApplyInPlace(st))
		assert.Equal(t, expr.NumberValue(1), st[0], "v0 took v1")
		assert.Zero(t, testing.AllocsPerRun(100, func() { _ = e.ApplyInPlace(st) }), "%d assignments", n)
	}
}

// TestAnEffectNeedsASlotForEveryVariableItReads: a state too short for a
// variable the effect only reads is refused, as one too short for a
// variable it writes.
func TestAnEffectNeedsASlotForEveryVariableItReads(t *testing.T) {
	s := expr.NewSchema("x", "y")
	e, err := expr.CompileEffect("x = y", s)
	require.NoError(t, err)
	short := expr.State{expr.NumberValue(1)}
	assert.EqualError(t, e.Apply(short.Clone(), short), `expr: effect "x = y": the state has 1 variables, the effect needs 2 (a state of another schema?)`)
	assert.EqualError(t, e.ApplyInPlace(short), `expr: effect "x = y": the state has 1 variables, the effect needs 2 (a state of another schema?)`)
}

// TestANumberEndingInItsExponentIsAnError: "1e" or "1e+" at the end of
// the text is a malformed number, reported at its start.
func TestANumberEndingInItsExponentIsAnError(t *testing.T) {
	for _, src := range []string{"x > 1e", "x > 1e+", "x > 1e-"} {
		_, err := expr.CompileCondition(src, expr.NewSchema())
		assert.EqualError(t, err, "expr: col 5: expected a number, found \"1e\"\n\t"+src+"\n\t    ^", src)
	}
}

// TestNamesTakeEveryLetter: a name may begin with and hold any ASCII
// letter, Z and z included.
func TestNamesTakeEveryLetter(t *testing.T) {
	s := expr.NewSchema()
	c, err := expr.CompileCondition("Zed > 1 && aZ < 3 && zone == 'A'", s)
	require.NoError(t, err)
	st := s.NewState()
	for name, v := range map[string]expr.Value{"Zed": expr.NumberValue(2), "aZ": expr.NumberValue(2), "zone": expr.StringValue("A")} {
		slot, ok := s.Lookup(name)
		require.True(t, ok, name)
		st[slot] = v
	}
	assert.True(t, c.Eval(st))
}

// TestExcerptsAndCaretsAtTheirEdges: a one-line excerpt keeps 60
// characters around the column, with "..." only where text was cut; the
// caret line blanks control characters (C0, DEL and C1, U+0080 to
// U+009F) and nothing else.
func TestExcerptsAndCaretsAtTheirEdges(t *testing.T) {
	long := strings.Repeat("abcdefghij", 20) // 200 characters
	excerpt := func(col int) string { return (&expr.ParseError{Source: long, Col: col}).Excerpt() }
	assert.Equal(t, long[:60]+"...", excerpt(1), "at the start: cut at the end only")
	assert.Equal(t, "..."+long[69:129]+"...", excerpt(100), "30 characters either side of column 100")
	assert.Equal(t, "..."+long[140:], excerpt(200), "at the end: cut at the start only")
	assert.Equal(t, "..."+long[140:], excerpt(190))

	caret := (&expr.ParseError{Source: "a\u0080b\u009fc\u00a0d e\x7ff", Col: 3}).Caret()
	assert.Equal(t, "a b c\u00a0d e f\n  ^", caret)
}

// TestStateByNameInAShortState: a state shorter than its schema has no
// value for the names past its end: Get gives unknown and Set refuses.
func TestStateByNameInAShortState(t *testing.T) {
	s := expr.NewSchema("a", "b")
	st := expr.State{expr.NumberValue(1)}
	assert.Equal(t, expr.NumberValue(1), st.Get(s, "a"))
	assert.Equal(t, expr.Unknown, st.Get(s, "b").Kind())
	assert.False(t, st.Set(s, "b", expr.NumberValue(2)))
	assert.True(t, st.Set(s, "a", expr.NumberValue(2)))
	assert.Equal(t, expr.State{expr.NumberValue(2)}, st)
}

// TestAFamilyTakesItsPrefixAlone: a name that is a family's prefix and
// nothing more belongs to the family.
func TestAFamilyTakesItsPrefixAlone(t *testing.T) {
	s := expr.NewSchema()
	s.AddFamily(expr.Family{Prefix: "has_"})
	f, ok := s.FamilyOf("has_")
	require.True(t, ok)
	assert.Equal(t, "has_", f.Prefix)
	_, ok = s.FamilyOf("has")
	assert.False(t, ok)
}

// TestAKindPastTheFivePrintsItsNumber: a Kind value past string prints as
// kind(N).
func TestAKindPastTheFivePrintsItsNumber(t *testing.T) {
	assert.Equal(t, "string", expr.String.String())
	assert.Equal(t, "kind(5)", expr.Kind(5).String())
}

// TestTryApplyReportsAFailingFirstAssignment: TryApply is false when an
// operand is not a number, in the first assignment as in a later one.
func TestTryApplyReportsAFailingFirstAssignment(t *testing.T) {
	s := expr.NewSchema("x", "y")
	for _, src := range []string{"x = y + 1", "x = 1, y = y + 1"} {
		e, err := expr.CompileEffect(src, s)
		require.NoError(t, err)
		st := expr.State{expr.NumberValue(0), expr.StringValue("no")}
		assert.False(t, e.TryApply(st.Clone(), st), src)
	}
	e, err := expr.CompileEffect("x = y + 1", s)
	require.NoError(t, err)
	st := expr.State{expr.NumberValue(0), expr.NumberValue(2)}
	dst := st.Clone()
	require.True(t, e.TryApply(dst, st))
	assert.Equal(t, expr.NumberValue(3), dst[0])
}

// TestOperatorWords: and, or and not are a condition's operator words;
// other names, those that begin with one included, are not.
func TestOperatorWords(t *testing.T) {
	for _, w := range []string{"and", "or", "not"} {
		assert.True(t, expr.IsOperatorWord(w), w)
	}
	for _, w := range []string{"andy", "order", "knot", "AND", ""} {
		assert.False(t, expr.IsOperatorWord(w), w)
	}
}

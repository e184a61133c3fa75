package expr_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestConditionView(t *testing.T) {
	sc := expr.NewSchema()
	c, err := expr.CompileCondition(`ammo > 10 && 5 >= health && !ready && (a == b || mode == "x")`, sc)
	require.NoError(t, err)
	ammo, _ := sc.Lookup("ammo")
	health, _ := sc.Lookup("health")
	ready, _ := sc.Lookup("ready")
	a, _ := sc.Lookup("a")
	b, _ := sc.Lookup("b")
	mode, _ := sc.Lookup("mode")

	root := c.Root()
	require.Equal(t, expr.OpAnd, root.Op())
	require.Equal(t, 4, root.NumKids(), "one flat conjunction")

	k := root.Kid(0)
	assert.Equal(t, expr.OpVarLit, k.Op(), "a variable against a literal is one node")
	assert.Equal(t, ammo, k.Slot())
	assert.Equal(t, expr.Gt, k.Cmp())
	assert.Equal(t, expr.NumberValue(10), k.Lit())

	k = root.Kid(1)
	assert.Equal(t, expr.OpVarLit, k.Op())
	assert.Equal(t, health, k.Slot(), "the variable is put on the left")
	assert.Equal(t, expr.Le, k.Cmp(), "5 >= health reads health <= 5")

	k = root.Kid(2)
	require.Equal(t, expr.OpNot, k.Op())
	require.Equal(t, 1, k.NumKids())
	assert.Equal(t, expr.OpVar, k.Kid(0).Op())
	assert.Equal(t, ready, k.Kid(0).Slot())

	k = root.Kid(3)
	require.Equal(t, expr.OpOr, k.Op())
	assert.Equal(t, expr.OpVarVar, k.Kid(0).Op())
	assert.Equal(t, [2]int{a, b}, [2]int{k.Kid(0).Slot(), k.Kid(0).Slot2()})
	assert.Equal(t, []int{a, b, mode}, k.Reads(nil))
	assert.Equal(t, []int{mode, a, b}, k.Reads([]int{mode}), "slots already in out are not repeated")

	sub := k.Condition(c)
	assert.Equal(t, c.Source(), sub.Source())
	assert.Equal(t, []int{a, b, mode}, sub.Reads())
	st := sc.NewState()
	st[a], st[b], st[mode] = expr.NumberValue(1), expr.NumberValue(2), expr.StringValue("x")
	assert.True(t, sub.Eval(st), "mode == x")
	st[a] = expr.Value{}
	assert.False(t, sub.Eval(st), "the part's own Unknown rule: a is missing")

	var empty *expr.Condition
	assert.True(t, empty.Root().IsZero())
	assert.Equal(t, expr.Op(0), empty.Root().Op())
	assert.Equal(t, 0, empty.Root().NumKids())
}

func TestCmp(t *testing.T) {
	assert.Equal(t, "<=", expr.Le.String())
	assert.Equal(t, "?", expr.Cmp(0).String())
	assert.Equal(t, expr.Gt, expr.Lt.Flip())
	assert.Equal(t, expr.Eq, expr.Eq.Flip())
	assert.True(t, expr.Ne.Compare(expr.NumberValue(1), expr.StringValue("1")), "different kinds are unequal")
	assert.False(t, expr.Lt.Compare(expr.BoolValue(false), expr.BoolValue(true)), "bools do not order")
	assert.True(t, expr.Lt.Compare(expr.StringValue("B"), expr.StringValue("a")), "strings order by bytes")
}

func TestEffectView(t *testing.T) {
	sc := expr.NewSchema("ammo", "magazines")
	e, err := expr.CompileEffect("ammo = 30, magazines = magazines - 1, mode = ATTACK, x = -magazines", sc)
	require.NoError(t, err)
	require.Equal(t, 4, e.NumAssigns())
	mags, _ := sc.Lookup("magazines")
	mode, _ := sc.Lookup("mode")

	assert.Equal(t, 0, e.Target(0))
	assert.False(t, e.IsArithmetic(0))
	assert.Equal(t, termForm(expr.Term{Lit: expr.NumberValue(30)}), termForm(e.Term(0, 0)))

	assert.Equal(t, mags, e.Target(1))
	assert.True(t, e.IsArithmetic(1))
	require.Equal(t, 2, e.NumTerms(1))
	assert.Equal(t, termForm(expr.Term{IsVar: true, Slot: mags}), termForm(e.Term(1, 0)))
	assert.Equal(t, termForm(expr.Term{Sub: true, Lit: expr.NumberValue(1)}), termForm(e.Term(1, 1)))

	assert.Equal(t, mode, e.Target(2))
	assert.Equal(t, termForm(expr.Term{Lit: expr.StringValue("ATTACK")}), termForm(e.Term(2, 0)), "a word naming no variable is a string")

	assert.True(t, e.IsArithmetic(3), "x = -magazines negates")
	assert.Equal(t, termForm(expr.Term{Sub: true, IsVar: true, Slot: mags}), termForm(e.Term(3, 0)))

	st := sc.NewState()
	st[0], st[mags] = expr.NumberValue(0), expr.NumberValue(2)
	dst := st.Clone()
	require.True(t, e.TryApply(dst, st))
	assert.Equal(t, expr.NumberValue(1), dst[mags])
	assert.Equal(t, expr.NumberValue(-2), dst[e.Target(3)])
	st[mags] = expr.StringValue("two")
	assert.False(t, e.TryApply(st.Clone(), st), "an operand that is not a number")
	assert.Equal(t, sc.Len(), e.Need())

	var none *expr.Effect
	assert.Equal(t, 0, none.NumAssigns())
	assert.True(t, none.TryApply(nil, nil), "a nil effect changes nothing")
}

// termText is a Term with its literal as text, to compare Terms by
// meaning (assert.Equal on a Value compares where a string's text lies,
// see Value).
type termText struct {
	Sub, IsVar bool
	Slot       int
	Lit        string
}

func termForm(t expr.Term) termText { return termText{t.Sub, t.IsVar, t.Slot, t.Lit.String()} }

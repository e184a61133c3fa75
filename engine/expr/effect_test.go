package expr_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestEffectApply(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		before exprVars
		want   exprVars // every known variable after the effect
	}{
		{"number", "", "ammo = 30", exprVars{"ammo": xn(0)}, exprVars{"ammo": xn(30)}},
		{"decimal", "", "speed = 2.75", nil, exprVars{"speed": xn(2.75)}},
		{"negative", "", "temp = -4.5", nil, exprVars{"temp": xn(-4.5)}},
		{"exponent", "", "big = 1e6", nil, exprVars{"big": xn(1e6)}},
		{"double quoted", "a quoted string is text", `mode = "patrol"`, nil, exprVars{"mode": xs("patrol")}},
		{"single quoted", "", `mode = 'it\'s'`, nil, exprVars{"mode": xs("it's")}},
		{"escapes", "", `msg = "a\tb\nc\\d\"e"`, nil, exprVars{"msg": xs("a\tb\nc\\d\"e")}},
		{"quoted number", "quotes make text, not a number", `code = "42"`, nil, exprVars{"code": xs("42")}},
		{"true", "", "ready = true", nil, exprVars{"ready": xb(true)}},
		{"false", "", "ready = false", exprVars{"ready": xb(true)}, exprVars{"ready": xb(false)}},
		{"nil", "nil is a known value", "target = nil", exprVars{"target": xs("bob")}, exprVars{"target": expr.NilValue()}},
		{"null", "null is nil", "target = null", nil, exprVars{"target": expr.NilValue()}},
		{"bare word", "a word naming no variable is a string, for enum state", "mode = ATTACK", nil, exprVars{"mode": xs("ATTACK")}},
		{"dotted word", "", "mode = Mode.ATTACK", nil, exprVars{"mode": xs("Mode.ATTACK")}},
		{"word reads variable", "a word naming a variable copies it", "target = enemy", exprVars{"enemy": xs("bob")}, exprVars{"enemy": xs("bob"), "target": xs("bob")}},
		{"copy missing", "copying a missing variable makes the target missing", "target = enemy", exprVars{"enemy": {}, "target": xs("x")}, exprVars{}},
		{"add", "", "ammo = ammo + 1", exprVars{"ammo": xn(29)}, exprVars{"ammo": xn(30)}},
		{"subtract", "", "magazines = magazines - 1", exprVars{"magazines": xn(2)}, exprVars{"magazines": xn(1)}},
		{"fraction", "the published library truncated this to 15", "x = x + 15.1", exprVars{"x": xn(0)}, exprVars{"x": xn(15.1)}},
		{"fraction chain", "left to right", "x = x + 0.5 - 0.25", exprVars{"x": xn(1)}, exprVars{"x": xn(1.25)}},
		{"literal minus var", "", "x = 10 - x", exprVars{"x": xn(3)}, exprVars{"x": xn(7)}},
		{"negated var", "", "x = -y", exprVars{"y": xn(3)}, exprVars{"x": xn(-3), "y": xn(3)}},
		{"negated var spaced", "", "x = - y", exprVars{"y": xn(3)}, exprVars{"x": xn(-3), "y": xn(3)}},
		{"plus negative", "", "x = x + -1", exprVars{"x": xn(5)}, exprVars{"x": xn(4)}},
		{"minus negative", "", "x = x - -1", exprVars{"x": xn(5)}, exprVars{"x": xn(6)}},
		{"minus negated var", "x - -y is x + y", "x = x - -y", exprVars{"x": xn(5), "y": xn(2)}, exprVars{"x": xn(7), "y": xn(2)}},
		{"two vars", "", "sum = a + b", exprVars{"a": xn(1.5), "b": xn(2)}, exprVars{"a": xn(1.5), "b": xn(2), "sum": xn(3.5)}},
		{"constant arithmetic", "", "x = 1 + 2", nil, exprVars{"x": xn(3)}},
		{"several", "", "ammo = 30, magazines = magazines - 1, mode = ATTACK",
			exprVars{"ammo": xn(0), "magazines": xn(2), "mode": xs("PATROL")},
			exprVars{"ammo": xn(30), "magazines": xn(1), "mode": xs("ATTACK")}},
		{"swap", "right-hand sides read the state before the effect", "a = b, b = a",
			exprVars{"a": xn(1), "b": xs("two")}, exprVars{"a": xs("two"), "b": xn(1)}},
		{"rotate", "", "a = b, b = c, c = a",
			exprVars{"a": xn(1), "b": xn(2), "c": xn(3)}, exprVars{"a": xn(2), "b": xn(3), "c": xn(1)}},
		{"old value", "y gets x before the increment", "x = x + 1, y = x",
			exprVars{"x": xn(1), "y": xn(0)}, exprVars{"x": xn(2), "y": xn(1)}},
		{"last wins", "a variable assigned twice keeps the last", "x = 1, x = 2", nil, exprVars{"x": xn(2)}},
		{"untouched", "unassigned variables keep their values", "a = 1",
			exprVars{"b": xs("keep"), "c": {}}, exprVars{"a": xn(1), "b": xs("keep")}},
		{"blanks", "", "  a\t=\n1 ,b=2  ", nil, exprVars{"a": xn(1), "b": xn(2)}},
		{"empty", "the empty effect changes nothing", "", exprVars{"a": xn(1)}, exprVars{"a": xn(1)}},
	}
	for _, tc := range tests {
		for _, inPlace := range []bool{false, true} {
			name := tc.name
			if inPlace {
				name += "/in place"
			}
			t.Run(name, func(t *testing.T) {
				sc := expr.NewSchema()
				before := exprState(sc, tc.before)
				e, err := expr.CompileEffect(tc.src, sc)
				require.NoError(t, err)
				before = append(before, make(expr.State, sc.Len()-len(before))...)
				orig := before.Clone()
				var after expr.State
				if inPlace {
					after = before
					require.NoError(t, e.ApplyInPlace(after))
				} else {
					after = before.Clone()
					require.NoError(t, e.Apply(after, before))
					assert.Equal(t, orig, before, "Apply leaves src alone")
				}
				got := exprVars{}
				for i, name := range sc.Names() {
					if after[i].IsKnown() {
						got[name] = after[i]
					}
				}
				want := exprVars{}
				for k, v := range tc.want {
					if v.IsKnown() {
						want[k] = v
					}
				}
				assert.Equal(t, want, got, tc.reason)
			})
		}
	}
}

func TestEffectFractionExact(t *testing.T) {
	sc := expr.NewSchema("x")
	e, err := expr.CompileEffect("x = x + 15.1", sc)
	require.NoError(t, err)
	st := expr.State{xn(0)}
	require.NoError(t, e.ApplyInPlace(st))
	f, ok := st[0].AsNumber()
	require.True(t, ok)
	assert.Equal(t, 15.1, f, "exactly the float64 15.1, not 15")
	require.NoError(t, e.ApplyInPlace(st))
	f, _ = st[0].AsNumber()
	assert.Equal(t, 15.1+15.1, f)
	assert.Equal(t, `{"x":30.2}`, string(st.JSON(sc)))
}

func TestEffectNoNegativeZero(t *testing.T) {
	sc := expr.NewSchema("x", "y")
	e, err := expr.CompileEffect("x = -y", sc)
	require.NoError(t, err)
	st := expr.State{xn(1), xn(0)}
	require.NoError(t, e.ApplyInPlace(st))
	f, _ := st[0].AsNumber()
	assert.False(t, math.Signbit(f), "-0 is stored as 0, so it prints as 0")
}

func TestEffectBadOperand(t *testing.T) {
	src := "ammo = ammo + bonus, mode = ATTACK"
	tests := []struct {
		name   string
		reason string
		bonus  expr.Value
		got    expr.Kind
	}{
		{"string", "a variable holding text is no operand", xs("lots"), expr.String},
		{"bool", "", xb(true), expr.Bool},
		{"nil", "", expr.NilValue(), expr.Nil},
		{"missing", "a missing variable is no number either", expr.Value{}, expr.Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := expr.NewSchema("ammo", "bonus", "mode")
			e, err := expr.CompileEffect(src, sc)
			require.NoError(t, err)
			st := expr.State{xn(1), tc.bonus, xs("PATROL")}
			orig := st.Clone()

			err = e.Apply(st.Clone(), st)
			var ee *expr.EffectError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, expr.EffectError{Effect: src, Variable: "bonus", Target: "ammo", Got: tc.got}, *ee, tc.reason)
			assert.Equal(t, `expr: effect "ammo = ammo + bonus, mode = ATTACK": in ammo = ..., operand bonus is `+
				tc.got.String()+", not a number", err.Error(), "the message names the effect and the variable")

			err = e.ApplyInPlace(st)
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, "bonus", ee.Variable)
			assert.Equal(t, orig, st, "ApplyInPlace changes nothing when it fails")
		})
	}
}

func TestEffectInPlaceComputesFirst(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		before expr.State
		want   expr.State
	}{
		{"failure after a write", "y reads x, which the effect writes first, and then bonus fails: nothing changes",
			"x = 1, y = x + bonus", expr.State{xn(0), xn(0), xs("lots")}, nil},
		{"many assignments", "more than 8 assignments take the allocating path and still swap",
			"a = j, b = a, c = b, d = c, e = d, f = e, g = f, h = g, i = h, j = i",
			expr.State{xn(1), xn(2), xn(3), xn(4), xn(5), xn(6), xn(7), xn(8), xn(9), xn(10)},
			expr.State{xn(10), xn(1), xn(2), xn(3), xn(4), xn(5), xn(6), xn(7), xn(8), xn(9)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := expr.NewSchema("x", "y", "bonus")
			if len(tc.before) == 10 {
				sc = expr.NewSchema("a", "b", "c", "d", "e", "f", "g", "h", "i", "j")
			}
			e, err := expr.CompileEffect(tc.src, sc)
			require.NoError(t, err)
			st := tc.before.Clone()
			err = e.ApplyInPlace(st)
			if tc.want == nil {
				var ee *expr.EffectError
				require.ErrorAs(t, err, &ee, tc.reason)
				assert.Equal(t, "bonus", ee.Variable)
				assert.Equal(t, "y", ee.Target)
				assert.Equal(t, tc.before, st, tc.reason)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, st, tc.reason)
		})
	}
}

func TestEffectShortState(t *testing.T) {
	e, err := expr.CompileEffect("a = b + 1", expr.NewSchema("b"))
	require.NoError(t, err)
	err = e.Apply(expr.State{xn(1)}, expr.State{xn(1)})
	require.Error(t, err)
	assert.Equal(t, `expr: effect "a = b + 1": the state has 1 variables, the effect needs 2 (a state of another schema?)`, err.Error())
	assert.Error(t, e.ApplyInPlace(nil), "no panic on a nil state")
}

func TestEffectCompileErrors(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		src      string
		col      int
		expected string
		found    string
	}{
		{"string operand", "arithmetic needs numbers", `x = x + "a"`, 9, `a number or a numeric variable for "x"`, `"a"`},
		{"bool operand", "", "x = x + true", 9, `a number or a numeric variable for "x"`, "true"},
		{"nil operand", "", "x = 1 - nil", 9, `a number or a numeric variable for "x"`, "nil"},
		{"word operand", "a word naming no variable is no number", "x = x + ghost", 9, `a number or a numeric variable for "x"`, `"ghost", which is not a variable`},
		{"string first", "", `x = "a" + 1`, 5, `a number or a numeric variable for "x"`, `"a"`},
		{"negated word", "", "x = -ghost", 6, `a number or a numeric variable for "x"`, `"ghost", which is not a variable`},
		{"negated word spaced", "the column is the word's, not the minus's", "x = - ghost", 7, `a number or a numeric variable for "x"`, `"ghost", which is not a variable`},
		{"compare", "== compares, = assigns", "x == 1", 3, `"=" (an effect assigns; "==" compares)`, `"=="`},
		{"no target", "", "= 1", 1, "a variable name to assign", `"="`},
		{"keyword target", "", "true = 1", 1, "a variable name to assign", `"true"`},
		{"no value", "", "x = ", 5, "a value (a number, a string, true, false, nil or a name)", "end of text"},
		{"trailing comma", "", "x = 1,", 7, "a variable name to assign", "end of text"},
		{"missing comma", "", "x = 1 y = 2", 7, `",", "+", "-" or end of text`, `"y"`},
		{"dangling plus", "", "x = 1 +", 8, "a value (a number, a string, true, false, nil or a name)", "end of text"},
		{"minus string", "", `x = - "a"`, 7, `a number or a variable after "-"`, `"\"a\""`},
		{"unterminated", "", "x = 'abc", 9, "a closing quote", "end of text"},
		{"parens", "effects have no parentheses", "x = (1)", 5, "a value (a number, a string, true, false, nil or a name)", `"("`},
		{"multiply", "", "x = x * 2", 7, `"+" or "-" (conditions and effects have no "*", "/" or "%"; compute such values in a run body or a sensor)`, `"*"`},
		{"columns count characters", "", `a = "é", b = é`, 14, "an operator, a name, a number or a string", `"é"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := expr.CompileEffect(tc.src, expr.NewSchema())
			assert.Nil(t, e)
			var pe *expr.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.src, pe.Source)
			assert.Equal(t, tc.col, pe.Col, tc.reason)
			assert.Equal(t, tc.expected, pe.Expected, tc.reason)
			assert.Equal(t, tc.found, pe.Found, tc.reason)
		})
	}
}

func TestEffectSyntax(t *testing.T) {
	es, err := expr.ParseEffect("a = b + c, d = ATTACK, a = -e")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "d", "a"}, es.Targets())
	assert.Equal(t, []string{"b", "c", "ATTACK", "e"}, es.Words())

	sc := expr.NewSchema("b", "c", "e")
	e, err := es.Compile(sc)
	require.NoError(t, err)
	a, _ := sc.Lookup("a")
	d, _ := sc.Lookup("d")
	assert.Equal(t, []int{a, d}, e.Writes(), "targets once each, in order")
	assert.Equal(t, []int{0, 1, 2}, e.Reads(), "ATTACK names no variable, so it is a string")
	assert.Equal(t, "a = b + c, d = ATTACK, a = -e", e.Source())
	assert.False(t, e.IsEmpty())

	// Targets are interned before any right-hand side binds, so a word
	// naming a later target reads it.
	sc = expr.NewSchema()
	es, err = expr.ParseEffect("a = b, b = 1")
	require.NoError(t, err)
	e, err = es.Compile(sc)
	require.NoError(t, err)
	st := expr.State{xn(0), xn(7)}
	require.NoError(t, e.ApplyInPlace(st))
	assert.Equal(t, expr.State{xn(7), xn(1)}, st)

	var none *expr.Effect
	assert.True(t, none.IsEmpty())
	assert.NoError(t, none.Apply(nil, nil))
	assert.NoError(t, none.ApplyInPlace(nil))
	assert.Nil(t, none.Writes())
	assert.Nil(t, none.Reads())
	assert.Zero(t, none.ReadMask())
	assert.Equal(t, "", none.Source())
}

// TestEffectReadsAndWritesOfLongEffects: past 16 slots the lists of reads
// and writes keep their order and hold no repeats.
func TestEffectReadsAndWritesOfLongEffects(t *testing.T) {
	var parts, names []string
	for i := range 20 {
		names = append(names, "v"+strconv.Itoa(i))
	}
	for i := range 20 {
		// v0 = v19 + v0, v1 = v18 + v1, ...: each slot read twice.
		parts = append(parts, names[i]+" = "+names[19-i]+" + "+names[i])
	}
	parts = append(parts, "v3 = 1", "v19 = v2")
	sc := expr.NewSchema(names...)
	e, err := expr.CompileEffect(strings.Join(parts, ", "), sc)
	require.NoError(t, err)
	var wantReads, wantWrites []int
	for i := range 10 {
		wantReads = append(wantReads, 19-i, i)
	}
	for i := range 20 {
		wantWrites = append(wantWrites, i)
	}
	assert.Equal(t, wantReads, e.Reads())
	assert.Equal(t, wantWrites, e.Writes())
	assert.Equal(t, uint64(1<<20-1), e.ReadMask())
}

func TestEvalApplyAllocs(t *testing.T) {
	sc := expr.NewSchema()
	c, err := expr.CompileCondition(`ammo > 10 && magazines >= 1 && mode == "patrol" && !enemy_visible || health < 25.5`, sc)
	require.NoError(t, err)
	e, err := expr.CompileEffect("ammo = ammo + 30, magazines = magazines - 1, mode = ATTACK", sc)
	require.NoError(t, err)
	st := exprState(sc, exprVars{"ammo": xn(20), "magazines": xn(2), "mode": xs("patrol"), "enemy_visible": xb(false), "health": xn(80)})
	require.True(t, c.Eval(st))
	dst := st.Clone()

	assert.Zero(t, testing.AllocsPerRun(1000, func() { c.Eval(st) }), "Eval of a 5-clause condition")
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		copy(dst, st)
		_ = e.Apply(dst, st)
	}), "Apply of a 3-assignment effect")
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		copy(dst, st)
		_ = e.ApplyInPlace(dst)
	}), "ApplyInPlace of a 3-assignment effect")
}

func TestInfinityMinusItselfLeavesTheTargetUnknown(t *testing.T) {
	s := expr.NewSchema("y", "x")
	e, err := expr.CompileEffect("x = y - y", s)
	require.NoError(t, err)
	st := expr.State{expr.NumberValue(math.Inf(1)), expr.NumberValue(0)}
	require.NoError(t, e.ApplyInPlace(st))
	assert.Equal(t, expr.Unknown, st[1].Kind())
	c, err := expr.CompileCondition("x != x", s)
	require.NoError(t, err)
	assert.False(t, c.Eval(st), "no plan may rest on NaN != NaN")
}

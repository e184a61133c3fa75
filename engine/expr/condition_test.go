package expr_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// exprVars is a world state written by name, for tests.
type exprVars map[string]expr.Value

var (
	xn = expr.NumberValue
	xs = expr.StringValue
	xb = expr.BoolValue
)

// exprState interns the names of vs into sc (sorted, so slots are stable)
// and returns a state holding vs; names of sc not in vs are Unknown.
func exprState(sc *expr.Schema, vs exprVars) expr.State {
	names := make([]string, 0, len(vs))
	for k := range vs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		sc.Intern(k)
	}
	st := sc.NewState()
	for k, v := range vs {
		st.Set(sc, k, v)
	}
	return st
}

func TestConditionEval(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		state  exprVars
		want   bool
	}{
		// == and != on numbers
		{"eq", "", "ammo == 10", exprVars{"ammo": xn(10)}, true},
		{"eq false", "", "ammo == 10", exprVars{"ammo": xn(11)}, false},
		{"eq int decimal", "1 == 1.0: numbers compare as float64", "ammo == 10.0", exprVars{"ammo": xn(10)}, true},
		{"eq literals", "1 == 1.0 between literals too", "1 == 1.0", nil, true},
		{"ne", "", "ammo != 10", exprVars{"ammo": xn(11)}, true},
		{"ne false", "", "ammo != 10", exprVars{"ammo": xn(10)}, false},
		// ordering on numbers, at the boundary
		{"gt", "", "ammo > 10", exprVars{"ammo": xn(11)}, true},
		{"gt boundary", "", "ammo > 10", exprVars{"ammo": xn(10)}, false},
		{"ge boundary", "", "ammo >= 10", exprVars{"ammo": xn(10)}, true},
		{"ge below", "", "ammo >= 10", exprVars{"ammo": xn(9.99)}, false},
		{"lt", "", "ammo < 10", exprVars{"ammo": xn(9)}, true},
		{"lt boundary", "", "ammo < 10", exprVars{"ammo": xn(10)}, false},
		{"le boundary", "", "ammo <= 10", exprVars{"ammo": xn(10)}, true},
		{"le above", "", "ammo <= 10", exprVars{"ammo": xn(10.5)}, false},
		{"literal first", "10 < ammo is ammo > 10", "10 < ammo", exprVars{"ammo": xn(11)}, true},
		{"literal first ge", "10 >= ammo is ammo <= 10", "10 >= ammo", exprVars{"ammo": xn(10)}, true},
		{"literal first gt false", "", "10 > ammo", exprVars{"ammo": xn(10)}, false},
		{"var var", "", "a < b", exprVars{"a": xn(1), "b": xn(2)}, true},
		{"var var eq", "", "a == b", exprVars{"a": xn(1), "b": xn(1.0)}, true},
		// number literals
		{"negative", "", "temp > -5", exprVars{"temp": xn(-4)}, true},
		{"negative decimal", "", "temp == -2.5", exprVars{"temp": xn(-2.5)}, true},
		{"spaced minus", "a blank may follow the minus", "temp == - 2", exprVars{"temp": xn(-2)}, true},
		{"leading dot", "", "x == .5", exprVars{"x": xn(0.5)}, true},
		{"trailing dot", "", "x == 5.", exprVars{"x": xn(5)}, true},
		{"exponent", "", "x == 1e3", exprVars{"x": xn(1000)}, true},
		{"signed exponent", "", "x == 25E-1", exprVars{"x": xn(2.5)}, true},
		{"no space", "operators need no blanks", "x>=-1&&y<2", exprVars{"x": xn(-1), "y": xn(1)}, true},
		// strings
		{"string eq", "", `mode == "patrol"`, exprVars{"mode": xs("patrol")}, true},
		{"single quotes", "", `mode == 'patrol'`, exprVars{"mode": xs("patrol")}, true},
		{"string ne", "", `mode != "patrol"`, exprVars{"mode": xs("attack")}, true},
		{"string case", "strings compare by bytes, case included", `mode == "Patrol"`, exprVars{"mode": xs("patrol")}, false},
		{"string lt", "", `name < "b"`, exprVars{"name": xs("a")}, true},
		{"string bytes", "'B' (0x42) sorts before 'a' (0x61)", `"B" < name`, exprVars{"name": xs("a")}, true},
		{"string utf8 bytes", "é is 0xC3 0xA9, above z", `name > "z"`, exprVars{"name": xs("é")}, true},
		{"string prefix", "a prefix sorts first", `name >= "ab"`, exprVars{"name": xs("abc")}, true},
		{"string le", "", `name <= "b"`, exprVars{"name": xs("a")}, true},
		{"string le false", "", `name <= "b"`, exprVars{"name": xs("c")}, false},
		{"string ge false", "", `name >= "b"`, exprVars{"name": xs("a")}, false},
		{"string gt false", "", `name > "b"`, exprVars{"name": xs("a")}, false},
		{"string lt false", "", `name < "b"`, exprVars{"name": xs("c")}, false},
		{"string le equal", "equal strings are <= each other", `name <= "bob"`, exprVars{"name": xs("bob")}, true},
		{"string ge equal", "and >= each other", `name >= "bob"`, exprVars{"name": xs("bob")}, true},
		{"string lt equal", "but not < each other", `name < "bob"`, exprVars{"name": xs("bob")}, false},
		{"string gt equal", "nor >", `name > "bob"`, exprVars{"name": xs("bob")}, false},
		{"string var var ge equal", "two variables holding the same text", `a >= b && a <= b`, exprVars{"a": xs("north gate"), "b": xs("north gate")}, true},
		{"empty strings le", "", `name <= ""`, exprVars{"name": xs("")}, true},
		{"nil le nil", "ordering nil is false, even against nil", "x <= nil", exprVars{"x": expr.NilValue()}, false},
		{"empty string", "", `name == ""`, exprVars{"name": xs("")}, true},
		{"escape quote", "", `s == "a\"b"`, exprVars{"s": xs(`a"b`)}, true},
		{"escape single", "", `s == 'it\'s'`, exprVars{"s": xs("it's")}, true},
		{"other quote unescaped", "", `s == "it's" && t == 'say "hi"'`, exprVars{"s": xs("it's"), "t": xs(`say "hi"`)}, true},
		{"escape tab", "", `s == "a\tb"`, exprVars{"s": xs("a\tb")}, true},
		{"escape newline", "", `s == 'a\nb'`, exprVars{"s": xs("a\nb")}, true},
		{"escape return", "", `s == "a\rb"`, exprVars{"s": xs("a\rb")}, true},
		{"escape backslash", "", `s == "a\\b"`, exprVars{"s": xs(`a\b`)}, true},
		{"string keyword", "quoted true is text", `s == "true"`, exprVars{"s": xb(true)}, false},
		// bools and bare variables
		{"bare true", "a bare variable holds when it is true", "ready", exprVars{"ready": xb(true)}, true},
		{"bare false", "", "ready", exprVars{"ready": xb(false)}, false},
		{"bare number", "only the bool true counts, not 1", "ready", exprVars{"ready": xn(1)}, false},
		{"bare string", "not the string true either", "ready", exprVars{"ready": xs("true")}, false},
		{"bare nil", "", "ready", exprVars{"ready": expr.NilValue()}, false},
		{"bool eq", "", "ready == true", exprVars{"ready": xb(true)}, true},
		{"bool ne", "", "ready != false", exprVars{"ready": xb(true)}, true},
		{"bool order", "ordering two bools is false, not an error", "ready > false", exprVars{"ready": xb(true)}, false},
		{"bool order le", "", "ready <= true", exprVars{"ready": xb(true)}, false},
		{"literal true", "", "true", nil, true},
		{"literal false", "", "false", nil, false},
		{"literal number", "a number is not true", "1", nil, false},
		// nil
		{"nil eq", "a variable holding nil is known", "x == nil", exprVars{"x": expr.NilValue()}, true},
		{"null eq", "null is nil", "x == null", exprVars{"x": expr.NilValue()}, true},
		{"nil ne", "", "x != nil", exprVars{"x": xn(0)}, true},
		{"nil order", "", "x < nil", exprVars{"x": expr.NilValue()}, false},
		// mixed kinds
		{"number string eq", "different kinds are never equal", `ammo == "10"`, exprVars{"ammo": xn(10)}, false},
		{"number string ne", "and always unequal", `ammo != "10"`, exprVars{"ammo": xn(10)}, true},
		{"number string lt", "ordering mixed kinds is false", `ammo < "z"`, exprVars{"ammo": xn(10)}, false},
		{"number string gt", "in both directions", `ammo > "a"`, exprVars{"ammo": xn(10)}, false},
		{"string number ge", "", `name >= 0`, exprVars{"name": xs("x")}, false},
		{"bool number", "true is not 1", "flag == 1", exprVars{"flag": xb(true)}, false},
		{"nil number", "", "x == 0", exprVars{"x": expr.NilValue()}, false},
		{"nil false", "nil is not false", "x == false", exprVars{"x": expr.NilValue()}, false},
		// logic
		{"and", "", "a && b", exprVars{"a": xb(true), "b": xb(true)}, true},
		{"and false", "", "a && b", exprVars{"a": xb(true), "b": xb(false)}, false},
		{"or", "", "a || b", exprVars{"a": xb(false), "b": xb(true)}, true},
		{"or false", "", "a || b", exprVars{"a": xb(false), "b": xb(false)}, false},
		{"not", "", "!a", exprVars{"a": xb(false)}, true},
		{"not true", "", "!a", exprVars{"a": xb(true)}, false},
		{"not number", "!x holds when x is not the bool true", "!x", exprVars{"x": xn(5)}, true},
		{"double not", "", "!!a", exprVars{"a": xb(true)}, true},
		{"and chain", "", "a && b && c && d", exprVars{"a": xb(true), "b": xb(true), "c": xb(true), "d": xb(false)}, false},
		{"or chain", "", "a || b || c || d", exprVars{"a": xb(false), "b": xb(false), "c": xb(false), "d": xb(true)}, true},
		// precedence
		{"and binds tighter", "a || b && c is a || (b && c)", "a || b && c", exprVars{"a": xb(true), "b": xb(false), "c": xb(false)}, true},
		{"and binds tighter left", "a && b || c is (a && b) || c", "a && b || c", exprVars{"a": xb(false), "b": xb(false), "c": xb(true)}, true},
		{"parens override", "", "(a || b) && c", exprVars{"a": xb(true), "b": xb(false), "c": xb(false)}, false},
		{"not binds tighter than and", "!a && b is (!a) && b", "!a && b", exprVars{"a": xb(true), "b": xb(false)}, false},
		{"not over and by parens", "", "!(a && b)", exprVars{"a": xb(true), "b": xb(false)}, true},
		{"not looser than compare", "!x > 5 is !(x > 5)", "!x > 5", exprVars{"x": xn(3)}, true},
		{"compare tighter than and", "", "x > 1 && y < 2", exprVars{"x": xn(2), "y": xn(1)}, true},
		{"compare of compares", "a comparison is a bool operand", "(a > 1) == (b > 1)", exprVars{"a": xn(0), "b": xn(0)}, true},
		{"compare of logic", "", "(a && b) == false", exprVars{"a": xb(true), "b": xb(false)}, true},
		{"parens group only", "(x) is x's value", "(x) == 5", exprVars{"x": xn(5)}, true},
		{"nested parens", "", "((a)) && (((b)))", exprVars{"a": xb(true), "b": xb(true)}, true},
		{"blanks", "tabs and newlines are blanks", "a\t&&\n b", exprVars{"a": xb(true), "b": xb(true)}, true},
		{"names", "names take letters, digits, _ and .", "enemy.visible && hp_2 > 0", exprVars{"enemy.visible": xb(true), "hp_2": xn(1)}, true},
		// unknown variables
		{"unknown bare", "a missing variable is not satisfied", "missing", nil, false},
		{"unknown not", "also under !", "!ready", nil, false},
		{"unknown not parens", "", "!(ready)", nil, false},
		{"unknown or left", "also inside ||: the whole condition fails", "missing || true", nil, false},
		{"unknown or right", "", "ready || missing", exprVars{"ready": xb(true)}, false},
		{"unknown or not", "", "ammo > 1 || !missing", exprVars{"ammo": xn(5)}, false},
		{"unknown and", "", "ready && missing", exprVars{"ready": xb(true)}, false},
		{"unknown eq nil", "missing is not nil", "missing == nil", nil, false},
		{"unknown ne", "", "missing != 1", nil, false},
		{"unknown not and", "", "!(missing && ready)", exprVars{"ready": xb(false)}, false},
		// empty
		{"empty", "the empty condition always holds", "", nil, true},
		{"blank", "", " \t\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := expr.NewSchema()
			st := exprState(sc, tc.state)
			c, err := expr.CompileCondition(tc.src, sc)
			require.NoError(t, err)
			st = append(st, make(expr.State, sc.Len()-len(st))...) // names the condition interned
			assert.Equal(t, tc.want, c.Eval(st), tc.reason)
			assert.Equal(t, tc.src, c.Source())
		})
	}
}

func TestConditionReads(t *testing.T) {
	sc := expr.NewSchema("c", "b", "a")
	c, err := expr.CompileCondition("a > 1 && b || a == c && !d", sc)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 1, 0, 3}, c.Reads(), "slots in first-use order, once each; d is interned")
	assert.Equal(t, 4, sc.Len())
	assert.False(t, c.IsEmpty())

	empty, err := expr.CompileCondition("", sc)
	require.NoError(t, err)
	assert.True(t, empty.IsEmpty())
	assert.Empty(t, empty.Reads())

	var none *expr.Condition
	assert.True(t, none.Eval(nil), "a nil condition always holds")
	assert.True(t, none.IsEmpty())
	assert.Equal(t, "", none.Source())
	assert.Nil(t, none.Reads())
	assert.Zero(t, none.ReadMask())

	lits, err := expr.CompileCondition(`true && 1 == 1.0`, sc)
	require.NoError(t, err)
	assert.Empty(t, lits.Reads(), "literals read nothing")
}

// TestConditionLuaSpellings checks that and, or, not and ~= are the same
// operators as &&, ||, ! and !=: same truth on every state, same
// precedence, and mixed freely.
func TestConditionLuaSpellings(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		lua    string
		c      string
	}{
		{"and", "", "a and b", "a && b"},
		{"or", "", "a or b", "a || b"},
		{"not", "", "not a", "!a"},
		{"ne", "", "n ~= 1", "n != 1"},
		{"or binds looser than and", "a or (b and c)", "a or b and c", "a || b && c"},
		{"not binds tighter than and", "(not a) and b", "not a and b", "!a && b"},
		{"not over a comparison", "not (n > 1)", "not n > 1", "!(n > 1)"},
		{"not not", "", "not not a", "!!a"},
		{"mixed", "the spellings mix", "n > 0 and !a || not b", "n > 0 && !a || !b"},
		{"glued to parentheses", "", "not(a)and(b)or(n~=2)", "!a && b || n != 2"},
		{"help example", "", "ammo > 0 and not hasWeapon", "ammo > 0 && !hasWeapon"},
		{"names holding the words", "android, order and nothing are variables", "android and order or nothing", "android && order || nothing"},
	}
	vals := []expr.Value{xb(true), xb(false), xn(1), xn(2)}
	names := []string{"a", "b", "c", "n", "ammo", "hasWeapon", "android", "order", "nothing"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := expr.NewSchema(names...)
			lua, err := expr.CompileCondition(tc.lua, sc)
			require.NoError(t, err)
			c, err := expr.CompileCondition(tc.c, sc)
			require.NoError(t, err)
			assert.Equal(t, c.Reads(), lua.Reads(), tc.reason)
			// Every state of the first four variables over vals, the rest true.
			for i := 0; i < len(vals)*len(vals)*len(vals)*len(vals); i++ {
				st := sc.NewState()
				for k := range names {
					st[k] = xb(true)
				}
				st[0], st[1], st[2], st[3] = vals[i%4], vals[i/4%4], vals[i/16%4], vals[i/64%4]
				assert.Equal(t, c.Eval(st), lua.Eval(st), "%s on %v", tc.lua, st)
			}
		})
	}
}

func TestConditionShortState(t *testing.T) {
	sc := expr.NewSchema("a")
	st := sc.NewState()
	st[0] = xb(true)
	c, err := expr.CompileCondition("a || later", sc)
	require.NoError(t, err)
	require.Len(t, st, 1, "the state was made before the condition interned later")
	assert.False(t, c.Eval(st), "a slot past the end of the state is Unknown")
	assert.False(t, c.Eval(nil))
}

func TestConditionParseErrors(t *testing.T) {
	deep := strings.Repeat("(", 201) + "a" + strings.Repeat(")", 201)
	tests := []struct {
		name     string
		reason   string
		src      string
		col      int
		expected string
		found    string
	}{
		{"missing operand", "", "ammo >", 7, `a value (a name, a number, a string, true, false, nil or "(")`, "end of text"},
		{"double and", "", "ammo > 10 && && ready", 14, `a value (a name, a number, a string, true, false, nil or "(")`, `"&&"`},
		{"chained compare", "comparisons do not chain", "a == b == c", 8, `"&&", "||" or end of text (comparisons do not chain; use parentheses)`, `"=="`},
		{"assign", "= is for effects", "a = 1", 3, `"==" (a condition compares; "=" assigns in effects)`, `"="`},
		{"unclosed paren", "", "(a > 1", 7, `")"`, "end of text"},
		{"extra paren", "", "a > 1)", 6, `"&&", "||" or end of text (this ")" has no "(")`, `")"`},
		{"two names", "", "a b", 3, "an operator (&& || == != < <= > >=) or end of text", `"b"`},
		{"a name ending in not", "knot is a name, not Lua's not", "knot open", 6, "an operator (&& || == != < <= > >=) or end of text", `"open"`},
		{"not between names", "not negates what follows; it joins nothing", "a not b", 3, `an operator (&& || == != < <= > >=) or end of text ("not" negates what follows it; write "a && !b", not "a not b")`, `"not"`},
		{"variable named and", "and is an operator, never a variable", "and > 3", 1, `a value (a name, a number, a string, true, false, nil or "("); "and" is an operator in a condition, so no variable can be named and`, `"and"`},
		{"variable named or", "", "ready && or", 10, `a value (a name, a number, a string, true, false, nil or "("); "or" is an operator in a condition, so no variable can be named or`, `"or"`},
		{"variable named not", "the caret points at the not, not at what follows", "x > 1 && not == 2", 10, `a value (a name, a number, a string, true, false, nil or "(") after "not"; "not" is an operator in a condition, so no variable can be named not`, `"not"`},
		{"lone not word", "", "not", 1, `a value (a name, a number, a string, true, false, nil or "(") after "not"; "not" is an operator in a condition, so no variable can be named not`, `"not"`},
		{"and at the end", "", "x and", 6, `a value (a name, a number, a string, true, false, nil or "(")`, "end of text"},
		{"single tilde", "", "a ~ b", 3, `"~=" or "!="`, `"~"`},
		{"unterminated string", "the caret points past the end", `s == "abc`, 10, "a closing quote", "end of text"},
		{"trailing backslash", "", `s == "abc\`, 11, "a closing quote", "end of text"},
		{"bad escape", "the caret points at the backslash", `s == "a\qb"`, 8, `an escape (\n \t \r \\ \" \')`, `"\\q"`},
		{"single ampersand", "", "a & b", 3, `"&&"`, `"&"`},
		{"single bar", "", "a | b", 3, `"||"`, `"|"`},
		{"number glued to word", "", "a > 1x", 5, "a number", `"1x"`},
		{"number out of range", "", "a > 1e999", 5, "a number in range", `"1e999"`},
		{"minus name", "only numbers are negated", "-x > 1", 2, `a number after "-"`, `"x"`},
		{"lone not", "", "!", 2, `a value (a name, a number, a string, true, false, nil or "(")`, "end of text"},
		{"empty parens", "", "()", 2, `a value (a name, a number, a string, true, false, nil or "(")`, `")"`},
		{"symbol", "", "a > 1 && #", 10, "an operator, a name, a number or a string", `"#"`},
		{"columns count characters", "é is one column", `x == "é" && é`, 13, "an operator, a name, a number or a string", `"é"`},
		{"deep parens", "nesting is bounded so nothing overflows the stack", deep, 201, `less nesting (at most 200 levels of "!" and "(")`, `"("`},
		{"deep not", "", strings.Repeat("!", 300) + "a", 201, `less nesting (at most 200 levels of "!" and "(")`, `"!"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := expr.NewSchema()
			c, err := expr.CompileCondition(tc.src, sc)
			assert.Nil(t, c)
			var pe *expr.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.src, pe.Source)
			assert.Equal(t, tc.col, pe.Col, tc.reason)
			assert.Equal(t, tc.expected, pe.Expected, tc.reason)
			assert.Equal(t, tc.found, pe.Found, tc.reason)
		})
	}
}

func TestConditionMaxNesting(t *testing.T) {
	src := strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200)
	sc := expr.NewSchema("a")
	c, err := expr.CompileCondition(src, sc)
	require.NoError(t, err, "200 levels are allowed")
	assert.True(t, c.Eval(expr.State{xb(true)}))

	long := "a" + strings.Repeat(" && a", 100000)
	c, err = expr.CompileCondition(long, sc)
	require.NoError(t, err, "a long chain is flat, not nested")
	assert.True(t, c.Eval(expr.State{xb(true)}))
}

func TestParseErrorRendering(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		err    *expr.ParseError
		want   string
	}{
		{
			"caret under column", "the caret sits under column 14",
			&expr.ParseError{Source: "ammo > 10 && && ready", Col: 14, Expected: "a value", Found: `"&&"`},
			"expr: col 14: expected a value, found \"&&\"\n\tammo > 10 && && ready\n\t             ^",
		},
		{
			"past the end", "column len+1 points just past the text",
			&expr.ParseError{Source: "ammo >", Col: 7, Expected: "a value", Found: "end of text"},
			"expr: col 7: expected a value, found end of text\n\tammo >\n\t      ^",
		},
		{
			"control characters", "newlines and tabs show as one blank so the caret stays aligned",
			&expr.ParseError{Source: "a\n&&\tb c", Col: 8, Expected: "x", Found: "y"},
			"expr: col 8: expected x, found y\n\ta && b c\n\t       ^",
		},
		{
			"multibyte", "columns count characters, not bytes",
			&expr.ParseError{Source: `"héé" ?`, Col: 7, Expected: "x", Found: "y"},
			"expr: col 7: expected x, found y\n\t\"héé\" ?\n\t      ^",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.err.Error(), tc.reason)
		})
	}
}

func TestParseErrorFromCompile(t *testing.T) {
	_, err := expr.CompileCondition("ammo > 10 && && ready", expr.NewSchema())
	require.Error(t, err)
	assert.Equal(t, "expr: col 14: expected a value (a name, a number, a string, true, false, nil or \"(\"), found \"&&\"\n"+
		"\tammo > 10 && && ready\n"+
		"\t             ^", err.Error())
	var pe *expr.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "ammo > 10 && && ready\n             ^", pe.Caret())
	assert.Equal(t, `col 14: expected a value (a name, a number, a string, true, false, nil or "("), found "&&"`, pe.Message())
}

func TestLongSourcesAreCutAroundTheColumn(t *testing.T) {
	src := strings.Repeat("a && ", 100) + ")" + strings.Repeat(" && b", 100)
	_, err := expr.CompileCondition(src, expr.NewSchema())
	var pe *expr.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 501, pe.Col)
	lines := strings.Split(pe.Caret(), "\n")
	require.Len(t, lines, 2)
	assert.LessOrEqual(t, len(lines[0]), 106)
	assert.Equal(t, ")", string(lines[0][len(lines[1])-1]), "the caret stays under the column")
	assert.LessOrEqual(t, len(pe.Excerpt()), 66)
	assert.Contains(t, pe.Excerpt(), ")")
}

func TestHelpfulOperatorMistakes(t *testing.T) {
	tests := []struct {
		name, src, expected string
		col                 int
	}{
		{"arrow", "a => 3", `">=" or "<=" (the "=" comes last)`, 3},
		{"reversed less", "a =< 3", `">=" or "<=" (the "=" comes last)`, 3},
		{"division", "a / 2 > 1", `"+" or "-" (conditions and effects have no "*", "/" or "%"; compute such values in a run body or a sensor)`, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := expr.CompileCondition(tc.src, expr.NewSchema())
			var pe *expr.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.col, pe.Col)
			assert.Equal(t, tc.expected, pe.Expected)
		})
	}
}

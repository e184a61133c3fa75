package engine_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/moonmind-ai/moonmind/engine"
)

// fuzzConditions and fuzzEffects seed the fuzz targets beside the
// expressions of the shipped scripts.
var fuzzConditions = []string{
	"", "ammo > 10", "magazines > 0", "enemy_visible && !in_cover", "health < 25.5 || ammo == 0",
	`mode == "patrol" && ammo >= 1`, `name == 'it\'s' || s != "a\"b\\c\n"`, "!(a && b) || c",
	"(a > 1) == (b <= -2.5)", "x == .5 && y == 5. && z == 1e3 && w < 25E-1", "!!!ready",
	"a || b && c", "1 == 1.0", "x == nil || x == null", "enemy.visible", "a == b == c", "a = 1",
	"(a > 1", "a > 1)", `s == "abc`, `s == "a\qb"`, "a & b", "a | b", "a > 1x", "a > 1e999",
	"-x > 1", "!", "()", "é && x", `"é" == x && é`, "a\n&&\tb", "\x00", "\xff\xfe", `"\`,
}

var fuzzEffects = []string{
	"", "ammo = 30", "ammo = 30, magazines = magazines - 1", "magazines = magazines + 1",
	"x = x + 15.1", "a = b, b = a", "mode = ATTACK", `mode = "patrol", ready = true, target = nil`,
	"x = -y", "x = x - -1 + 2.5e1", `msg = 'a\tb'`, "x = null", "x == 1", "= 1", "true = 1", "x = ",
	"x = 1,", "x = 1 y = 2", "x = 1 +", `x = - "a"`, "x = 'abc", "x = (1)", "x = x * 2",
	`x = x + "a"`, "x = x + ghost", "x = - ghost", `a = "é", b = é`, "3", "-2.5", "ATTACK", "a b",
}

// scriptExpressions returns the condition and effect strings of
// scripts/*.lua (the pre, condition and effects fields), if there are any.
func scriptExpressions(tb testing.TB) (conds, effects []string) {
	files, _ := filepath.Glob(filepath.Join("..", "scripts", "*.lua"))
	field := regexp.MustCompile(`\b(pre|condition|effects)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, m := range field.FindAllStringSubmatch(string(data), -1) {
			text := m[2] + m[3]
			if m[1] == "effects" {
				effects = append(effects, text)
			} else {
				conds = append(conds, text)
			}
		}
	}
	return conds, effects
}

// checkParseError fails unless err is a *ParseError on src with a column
// inside 1..len(runes)+1 that renders with a caret.
func checkParseError(t *testing.T, src string, err error) {
	t.Helper()
	var pe *engine.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%q: error %T %v is not a *ParseError", src, err, err)
	}
	if pe.Source != src {
		t.Fatalf("%q: ParseError.Source is %q", src, pe.Source)
	}
	if runes := utf8.RuneCountInString(src); pe.Col < 1 || pe.Col > runes+1 {
		t.Fatalf("%q: column %d outside 1..%d", src, pe.Col, runes+1)
	}
	if pe.Expected == "" || pe.Found == "" {
		t.Fatalf("%q: empty Expected or Found in %#v", src, pe)
	}
	lines := strings.Split(pe.Caret(), "\n")
	if len(lines) != 2 || utf8.RuneCountInString(lines[0]) != utf8.RuneCountInString(src) ||
		!strings.HasSuffix(lines[1], "^") || len(lines[1]) != pe.Col {
		t.Fatalf("%q: bad caret rendering %q", src, pe.Caret())
	}
}

// fuzzStates returns states of n slots: all missing, and every slot holding
// each kind of value.
func fuzzStates(n int) []engine.State {
	vals := []engine.Value{{}, engine.NilValue(), engine.BoolValue(true), engine.BoolValue(false),
		engine.NumberValue(0), engine.NumberValue(-1.5), engine.StringValue("x")}
	out := make([]engine.State, 0, len(vals))
	for _, v := range vals {
		st := make(engine.State, n)
		for i := range st {
			st[i] = v
		}
		out = append(out, st)
	}
	return out
}

func FuzzCondition(f *testing.F) {
	conds, _ := scriptExpressions(f)
	for _, src := range append(fuzzConditions, conds...) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sc := engine.NewSchema()
		c, err := engine.CompileCondition(src, sc)
		if err != nil {
			if c != nil {
				t.Fatalf("%q: a condition and an error", src)
			}
			checkParseError(t, src, err)
			return
		}
		for _, r := range c.Reads() {
			if r < 0 || r >= sc.Len() {
				t.Fatalf("%q: read slot %d outside the schema of %d", src, r, sc.Len())
			}
		}
		for _, st := range fuzzStates(sc.Len()) {
			got := c.Eval(st)
			if got && len(c.Reads()) > 0 && !st[0].IsKnown() {
				t.Fatalf("%q: holds with every variable missing", src)
			}
		}
		c.Eval(nil) // a short state is safe
	})
}

func FuzzEffect(f *testing.F) {
	_, effects := scriptExpressions(f)
	for _, src := range append(fuzzEffects, effects...) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sc := engine.NewSchema()
		e, err := engine.CompileEffect(src, sc)
		if err != nil {
			if e != nil {
				t.Fatalf("%q: an effect and an error", src)
			}
			checkParseError(t, src, err)
		} else {
			for _, st := range fuzzStates(sc.Len()) {
				dst := st.Clone()
				errA := e.Apply(dst, st)
				in := st.Clone()
				errB := e.ApplyInPlace(in)
				if (errA == nil) != (errB == nil) {
					t.Fatalf("%q: Apply says %v, ApplyInPlace says %v", src, errA, errB)
				}
				if errA != nil {
					var ee *engine.EffectError
					if !errors.As(errA, &ee) || ee.Effect != src || ee.Variable == "" {
						t.Fatalf("%q: bad effect error %v", src, errA)
					}
					continue
				}
				for i := range dst {
					if !dst[i].Equal(in[i]) && !(isNaN(dst[i]) && isNaN(in[i])) {
						t.Fatalf("%q: Apply and ApplyInPlace differ at slot %d: %v vs %v", src, i, dst[i], in[i])
					}
				}
			}
			e.Apply(nil, nil) // a short state is an error, not a panic
		}

		// The same text as one literal: parse, print, parse again.
		v, err := engine.ParseLiteral(src)
		if err != nil {
			checkParseError(t, src, err)
			return
		}
		back, err := engine.ParseLiteral(v.String())
		if err != nil || !back.Equal(v) {
			t.Fatalf("%q: literal %v printed as %q parses back as %v, %v", src, v, v.String(), back, err)
		}
	})
}

func isNaN(v engine.Value) bool {
	f, ok := v.AsNumber()
	return ok && math.IsNaN(f)
}

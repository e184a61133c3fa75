package expr_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
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
	"ammo > 0 and not hasWeapon", "a or b and c", "not not ready", "n ~= 1 and !a || not b",
	"not(a)and(b)or(n~=2)", "and > 3", "x > 1 && not == 2", "not", "a not b", "a ~ b", "x and",
	"android and order or nothing", "~=", "not ~= 1",
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
	files, _ := filepath.Glob(filepath.Join("..", "..", "scripts", "*.lua"))
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
// inside 1..len(runes)+1 whose Caret shows a window of the source with the
// caret under the character at that column (see checkCaret).
func checkParseError(t *testing.T, src string, err error) {
	t.Helper()
	var pe *expr.ParseError
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
	if msg := checkCaret(src, pe.Col, pe.Caret()); msg != "" {
		t.Fatalf("%q col %d: %s in caret rendering %q", src, pe.Col, msg, pe.Caret())
	}
}

// caretWindow is the most characters of the source that Caret shows.
const caretWindow = 100

// checkCaret returns "" when caret is a valid rendering of src with the
// column col (1-based, in characters), or what is wrong with it. A valid
// rendering is two lines. The first is a window of the source: the whole
// source when it has at most caretWindow characters, otherwise exactly
// caretWindow consecutive characters, with "..." before them when the
// window does not start at the first character and "..." after them when it
// does not end at the last; control characters and invalid bytes show as one
// blank each. The window holds the column (or ends just before it when the
// column is one past the end of the text). The second line is blanks and a
// caret under the column's character, or just past the window's last
// character for a column past the end of the text.
func checkCaret(src string, col int, caret string) string {
	lines := strings.Split(caret, "\n")
	if len(lines) != 2 {
		return fmt.Sprintf("%d lines, not 2", len(lines))
	}
	pad := strings.TrimLeft(lines[1], " ")
	if pad != "^" {
		return "second line is not blanks then one caret"
	}
	at := len(lines[1]) - 1 // the caret's character index in the first line
	shown := []rune(lines[0])
	shownSrc := []rune(src)
	for i, r := range shownSrc {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError {
			shownSrc[i] = ' '
		}
	}
	n := len(shownSrc)
	if n <= caretWindow {
		if string(shown) != string(shownSrc) {
			return "first line is not the whole source"
		}
		if at != col-1 {
			return fmt.Sprintf("caret at character %d, want %d", at+1, col)
		}
		return ""
	}
	// A long source: the window can start at any character that leaves
	// caretWindow characters; accept the rendering when one start explains
	// both the first line and the caret.
	for from := 0; from+caretWindow <= n; from++ {
		to := from + caretWindow
		want := string(shownSrc[from:to])
		prefix := 0
		if from > 0 {
			want = "..." + want
			prefix = 3
		}
		if to < n {
			want += "..."
		}
		if string(shown) != want {
			continue
		}
		inWindow := col-1 >= from && (col-1 < to || col-1 == n && to == n)
		if inWindow && at == prefix+col-1-from {
			return ""
		}
	}
	return "no window of the source shows the column under the caret"
}

// fuzzStates returns states of n slots: all missing, and every slot holding
// each kind of value.
func fuzzStates(n int) []expr.State {
	vals := []expr.Value{{}, expr.NilValue(), expr.BoolValue(true), expr.BoolValue(false),
		expr.NumberValue(0), expr.NumberValue(-1.5), expr.StringValue("x")}
	out := make([]expr.State, 0, len(vals))
	for _, v := range vals {
		st := make(expr.State, n)
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
		sc := expr.NewSchema()
		c, err := expr.CompileCondition(src, sc)
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
		sc := expr.NewSchema()
		e, err := expr.CompileEffect(src, sc)
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
					var ee *expr.EffectError
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
			_ = e.Apply(nil, nil) // a short state is an error, not a panic
		}

		// The same text as one literal: parse, print, parse again.
		v, err := expr.ParseLiteral(src)
		if err != nil {
			checkParseError(t, src, err)
			return
		}
		back, err := expr.ParseLiteral(v.String())
		if err != nil || !back.Equal(v) {
			t.Fatalf("%q: literal %v printed as %q parses back as %v, %v", src, v, v.String(), back, err)
		}
	})
}

func isNaN(v expr.Value) bool {
	f, ok := v.AsNumber()
	return ok && math.IsNaN(f)
}

// TestCheckCaret shows that the fuzz targets' caret check accepts what
// Caret renders and rejects a caret or a window that is off by one.
func TestCheckCaret(t *testing.T) {
	long := strings.Repeat("a", 150) + "&" + strings.Repeat("b", 49)
	render := func(src string, col int) string {
		return (&expr.ParseError{Source: src, Col: col, Expected: "x", Found: "y"}).Caret()
	}
	tests := []struct {
		name   string
		src    string
		col    int
		caret  string
		reason string
	}{
		{"short", "a && && b", 6, render("a && && b", 6), ""},
		{"short end", "a &&", 5, render("a &&", 5), ""},
		{"long middle", long, 151, render(long, 151), ""},
		{"long start", long, 1, render(long, 1), ""},
		{"long end", long, 201, render(long, 201), ""},
		{"short shifted", "a && && b", 6, "a && && b\n    ^", "caret at character 5, want 6"},
		{"short cut", "a && && b", 6, "a && &&\n     ^", "first line is not the whole source"},
		{"three lines", "a", 1, "a\n^\n", "3 lines, not 2"},
		{"long shifted", long, 151, strings.Replace(render(long, 151), " ^", "^", 1),
			"no window of the source shows the column under the caret"},
		{"long outside", long, 1, render(long, 151), "no window of the source shows the column under the caret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.reason, checkCaret(tt.src, tt.col, tt.caret))
		})
	}
}

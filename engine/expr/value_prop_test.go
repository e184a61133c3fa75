package expr_test

import (
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// refValue is the plain model a Value must agree with: a kind, a number
// and a text, as Value held them before it was packed into 16 bytes.
type refValue struct {
	kind expr.Kind
	b    bool
	f    float64
	s    string
}

// specialNumbers are the numbers whose bits or comparisons are unusual.
var specialNumbers = []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
	1, -1, 0.1, 1e300, -1e-300, 5e-324, math.MaxFloat64, expr.MaxSafeInteger, -expr.MaxSafeInteger}

// drawText draws a text and returns it stored in one of the ways a game
// makes strings: a literal, bytes converted at run time, a substring of a
// longer string (empty ones too), a clone, a concatenation.
func drawText(t *rapid.T, label string) string {
	s := rapid.SampledFrom([]string{"", "a", "ab", "ATTACK", "é", "a\"b\\c\n", "x y", "true", "3", "nil"}).Draw(t, label+"lit")
	if rapid.Bool().Draw(t, label+"random") {
		s = rapid.StringOf(rapid.RuneFrom([]rune("ab\"\\\n\t\r é0"))).Draw(t, label+"text")
	}
	switch rapid.IntRange(0, 4).Draw(t, label+"store") {
	case 1:
		return string([]byte(s)) // a new allocation
	case 2:
		long := "<<" + s + ">>"
		return long[2 : 2+len(s)] // inside another string's text
	case 3:
		return strings.Clone(s)
	case 4:
		b := make([]byte, 0, len(s)+8)
		b = append(b, s...)
		b = append(b, "tail"...)
		return string(b[:len(s)])
	}
	return s
}

// drawValue draws a model and the Value made from it.
func drawValue(t *rapid.T, label string) (refValue, expr.Value) {
	switch k := expr.Kind(rapid.IntRange(0, 4).Draw(t, label+"kind")); k {
	case expr.Nil:
		return refValue{kind: k}, expr.NilValue()
	case expr.Bool:
		b := rapid.Bool().Draw(t, label+"bool")
		return refValue{kind: k, b: b}, expr.BoolValue(b)
	case expr.Number:
		f := rapid.Float64().Draw(t, label+"float")
		if rapid.Bool().Draw(t, label+"special") {
			f = rapid.SampledFrom(specialNumbers).Draw(t, label+"number")
		}
		return refValue{kind: k, f: f}, expr.NumberValue(f)
	case expr.String:
		s := drawText(t, label)
		return refValue{kind: k, s: s}, expr.StringValue(s)
	}
	return refValue{}, expr.Value{}
}

// refString is what String gives for the model.
func refString(r refValue) string {
	switch r.kind {
	case expr.Nil:
		return "nil"
	case expr.Bool:
		if r.b {
			return "true"
		}
		return "false"
	case expr.Number:
		return expr.FormatNumber(r.f)
	case expr.String:
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(r.s) + `"`
	}
	return "unknown"
}

// refEqual is Equal on models: same kind, numbers as float64, texts by
// their bytes.
func refEqual(a, b refValue) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case expr.Bool:
		return a.b == b.b
	case expr.Number:
		return a.f == b.f
	case expr.String:
		return a.s == b.s
	}
	return true
}

// refAlike is "stored alike" on models: what Key compares.
func refAlike(a, b refValue) bool {
	return a.kind == b.kind && a.b == b.b && math.Float64bits(a.f) == math.Float64bits(b.f) && a.s == b.s
}

// TestValueAgreesWithItsModel: every accessor of a Value answers what the
// plain model (kind, bool, float64, string) answers, whatever the kind and
// however the string's text is stored.
func TestValueAgreesWithItsModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r, v := drawValue(t, "v")
		assert.Equal(t, r.kind, v.Kind(), "Kind")
		assert.Equal(t, r.kind != expr.Unknown, v.IsKnown(), "IsKnown")
		assert.Equal(t, r.kind == expr.Bool && r.b, v.Truthy(), "Truthy")

		b, ok := v.AsBool()
		assert.Equal(t, r.kind == expr.Bool, ok, "AsBool's ok")
		assert.Equal(t, r.b, b, "AsBool: the bool, false for another kind")
		f, ok := v.AsNumber()
		assert.Equal(t, r.kind == expr.Number, ok, "AsNumber's ok")
		assert.Equal(t, math.Float64bits(r.f), math.Float64bits(f), "AsNumber: the number's bits, 0 for another kind")
		s, ok := v.AsString()
		assert.Equal(t, r.kind == expr.String, ok, "AsString's ok")
		assert.Equal(t, r.s, s, "AsString: the text, \"\" for another kind")

		var want any
		switch r.kind {
		case expr.Bool:
			want = r.b
		case expr.Number:
			want = r.f
		case expr.String:
			want = r.s
		}
		if got := v.Interface(); r.kind == expr.Number && math.IsNaN(r.f) {
			g, isFloat := got.(float64)
			assert.True(t, isFloat && math.IsNaN(g), "Interface of NaN: %v", got)
		} else {
			assert.Equal(t, want, got, "Interface")
		}
		assert.Equal(t, refString(r), v.String(), "String")

		// ParseLiteral(v.String()) gives v back, for every value a literal
		// may write.
		if r.kind != expr.Unknown && (r.kind != expr.Number || math.Abs(r.f) <= expr.MaxSafeInteger) {
			back, err := expr.ParseLiteral(v.String())
			require.NoError(t, err, "%s", v)
			assert.True(t, back.Equal(v), "%s parses back as %s", v, back)
			assert.Equal(t, v.Kind(), back.Kind())
		}
	})
}

// TestValueEqualAndKeyAgreeWithTheModel: Equal is the model's equality
// (0 == -0, NaN != NaN, strings by their bytes wherever they lie), and
// Key is equal exactly when the values are stored alike.
func TestValueEqualAndKeyAgreeWithTheModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ra, a := drawValue(t, "a")
		rb, b := drawValue(t, "b")
		if rapid.Bool().Draw(t, "same") { // the same value, made again
			rb = ra
			switch ra.kind {
			case expr.String:
				b = expr.StringValue(strings.Clone(ra.s))
			case expr.Number:
				b = expr.NumberValue(ra.f)
			default:
				b = a
			}
		}
		assert.Equal(t, refEqual(ra, rb), a.Equal(b), "%s Equal %s", a, b)
		assert.Equal(t, refEqual(rb, ra), b.Equal(a), "%s Equal %s", b, a)
		assert.Equal(t, refAlike(ra, rb), a.Key() == b.Key(), "%s's and %s's keys", a, b)
		assert.Equal(t, ra.kind != expr.Number || !math.IsNaN(ra.f), a.Equal(a), "%s Equal itself", a)
	})
}

func TestValueSpecialCases(t *testing.T) {
	negZero := math.Copysign(0, -1)
	assert.True(t, expr.NumberValue(0).Equal(expr.NumberValue(negZero)), "0 == -0")
	assert.NotEqual(t, expr.NumberValue(0).Key(), expr.NumberValue(negZero).Key(), "0 and -0 are stored apart")
	nan := expr.NumberValue(math.NaN())
	assert.False(t, nan.Equal(nan), "NaN equals nothing")
	assert.Equal(t, nan.Key(), nan.Key(), "a NaN's key is itself")
	assert.True(t, expr.NumberValue(math.Inf(1)).Equal(expr.NumberValue(math.Inf(1))))
	assert.False(t, expr.NumberValue(math.Inf(1)).Equal(expr.NumberValue(math.Inf(-1))))

	long := "abcabc"
	x, y := expr.StringValue(long[0:3]), expr.StringValue(long[3:6])
	assert.True(t, x.Equal(y), "the same text at two places")
	assert.Equal(t, x.Key(), y.Key())
	assert.False(t, expr.StringValue(long[0:2]).Equal(expr.StringValue(long[0:3])), "a prefix is another text")
	empty := expr.StringValue(long[2:2])
	assert.True(t, empty.Equal(expr.StringValue("")), "every empty string is the empty string")
	assert.Equal(t, expr.String, empty.Kind())
	assert.False(t, empty.Equal(expr.NilValue()), "the empty string is not nil")
	assert.False(t, empty.Equal(expr.Value{}), "the empty string is not unknown")
	assert.False(t, expr.BoolValue(false).Equal(expr.NilValue()))
	assert.False(t, expr.BoolValue(true).Equal(expr.StringValue("\x01")), "true is not a one-byte text")
	assert.False(t, expr.NumberValue(0).Equal(expr.BoolValue(false)))

	m := map[expr.ValueKey]int{expr.StringValue("a").Key(): 1, expr.NumberValue(1).Key(): 2}
	assert.Equal(t, 1, m[expr.StringValue(string([]byte("a"))).Key()], "a map keyed by Key finds a text wherever it lies")
	assert.Equal(t, 2, m[expr.NumberValue(1.0).Key()])
	_, found := m[expr.BoolValue(true).Key()]
	assert.False(t, found, "true is not the number 1")

	if unsafe.Sizeof(uintptr(0)) == 8 {
		assert.Equal(t, uintptr(16), unsafe.Sizeof(expr.Value{}), "a Value is a pointer and a word")
	}
}

// TestStringValuesKeepTheirText: a Value holds the only reference to a
// text built at run time; collections free everything else, and the text
// is still there.
func TestStringValuesKeepTheirText(t *testing.T) {
	vals := make([]expr.Value, 200)
	for i := range vals {
		b := []byte(strings.Repeat(string(rune('a'+i%26)), 3+i%40))
		vals[i] = expr.StringValue(string(b)[i%3:])
	}
	for range 3 {
		runtime.GC()
		_ = make([]byte, 1<<20) // something to reuse freed memory
	}
	for i, v := range vals {
		s, ok := v.AsString()
		require.True(t, ok)
		assert.Equal(t, strings.Repeat(string(rune('a'+i%26)), 3+i%40)[i%3:], s, "value %d", i)
	}
}

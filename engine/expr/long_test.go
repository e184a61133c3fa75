package expr_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// longTerms is the size of the long texts: the size the parsers are
// benchmarked at in bench/parse_test.go (linear time, no timing here).
const longTerms = 200_000

func TestLongConditionCompiles(t *testing.T) {
	var b strings.Builder
	for i := range longTerms {
		if i > 0 {
			b.WriteString(" && ")
		}
		b.WriteString("x" + strconv.Itoa(i) + " >= " + strconv.Itoa(i))
	}
	sc := expr.NewSchema()
	c, err := expr.CompileCondition(b.String(), sc)
	require.NoError(t, err)
	require.Equal(t, longTerms, sc.Len(), "one variable per clause")
	assert.Len(t, c.Reads(), longTerms)
	assert.Equal(t, longTerms-1, c.Reads()[longTerms-1], "reads in first-use order")
	root := c.Root()
	require.Equal(t, expr.OpAnd, root.Op(), "one flat conjunction")
	assert.Equal(t, longTerms, root.NumKids())

	st := sc.NewState()
	for i := range st {
		st[i] = expr.NumberValue(float64(i))
	}
	assert.True(t, c.Eval(st), "every xi >= i")
	st[longTerms-1] = expr.NumberValue(0)
	assert.False(t, c.Eval(st), "the last clause fails")
}

func TestLongEffectCompiles(t *testing.T) {
	var b strings.Builder
	for i := range longTerms {
		if i > 0 {
			b.WriteString(", ")
		}
		v := "x" + strconv.Itoa(i)
		b.WriteString(v + " = " + v + " + 1")
	}
	sc := expr.NewSchema()
	e, err := expr.CompileEffect(b.String(), sc)
	require.NoError(t, err)
	require.Equal(t, longTerms, e.NumAssigns())
	assert.Len(t, e.Writes(), longTerms)
	assert.Len(t, e.Reads(), longTerms)
	st := sc.NewState()
	for i := range st {
		st[i] = expr.NumberValue(float64(i))
	}
	require.NoError(t, e.ApplyInPlace(st))
	assert.Equal(t, expr.NumberValue(1), st[0])
	assert.Equal(t, expr.NumberValue(longTerms), st[longTerms-1])

	sum, err := expr.CompileEffect("x0 = x0"+strings.Repeat(" + 1", longTerms-1), sc)
	require.NoError(t, err)
	require.Equal(t, longTerms, sum.NumTerms(0))
	require.NoError(t, sum.ApplyInPlace(st))
	assert.Equal(t, expr.NumberValue(longTerms), st[0], "x0 was 1: plus %d ones", longTerms-1)

	short := expr.NewSchema().NewState()
	err = sum.ApplyInPlace(short)
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 200, "the message shows an excerpt of a long effect, not all of it")
}

// TestColumnsOfLongTexts checks the columns of errors late in a long text,
// with multi-byte characters before them, as the parsers count columns
// incrementally.
func TestColumnsOfLongTexts(t *testing.T) {
	prefix := strings.Repeat(`s = "ü", `, 10_000)
	_, err := expr.CompileEffect(prefix+"x = x + 'a'", expr.NewSchema())
	var pe *expr.ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, utf8.RuneCountInString(prefix+"x = x + ")+1, pe.Col, "the column of 'a', counted in characters")
	assert.Equal(t, `"a"`, pe.Found)

	prefix = strings.Repeat(`s == "ü" && `, 10_000) + "s >"
	_, err = expr.CompileCondition(prefix, expr.NewSchema())
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, utf8.RuneCountInString(prefix)+1, pe.Col, "end of text, just past the last character")
	assert.Equal(t, "end of text", pe.Found)
}

package expr_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestAParseErrorPrintsTheColumnItHolds: Message prints Col as it is,
// whatever it holds: a ParseError is a plain struct that other packages
// build and whose column they shift (a wrapped text's error moved back
// into the text it came from), so a zero or negative column prints as
// such instead of being hidden.
func TestAParseErrorPrintsTheColumnItHolds(t *testing.T) {
	for _, tc := range []struct {
		col  int
		want string
	}{
		{1, "col 1: expected x, found y"},
		{0, "col 0: expected x, found y"},
		{-7, "col -7: expected x, found y"},
		{-1203, "col -1203: expected x, found y"},
		{2147483647, "col 2147483647: expected x, found y"},
	} {
		pe := &expr.ParseError{Source: "a b", Col: tc.col, Expected: "x", Found: "y"}
		assert.Equal(t, tc.want, pe.Message(), "col %d", tc.col)
	}
}

package expr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClausesFlattenConjunctions: a conjunction of bare, negated and
// compared variables gives one clause per conjunct, in order; any other
// shape gives none; a single conjunct is one clause.
func TestClausesFlattenConjunctions(t *testing.T) {
	s := NewSchema("a", "b", "c")
	tests := []struct {
		name, src string
		want      []Clause
		ok        bool
		reason    string
	}{
		{"conjunction", `a && !b && c >= 2 && c != "x"`, []Clause{
			{Op: OpVar, Slot: 0}, {Op: OpNot, Slot: 1}, {Op: OpVarLit, Cmp: Ge, Slot: 2, Lit: NumberValue(2)},
			{Op: OpVarLit, Cmp: Ne, Slot: 2, Lit: StringValue("x")}}, true, "every conjunct is a clause"},
		{"one", "!a", []Clause{{Op: OpNot, Slot: 0}}, true, "a negated variable alone"},
		{"empty", "", nil, true, "no conjunct"},
		{"or", "a || b", nil, false, "a disjunction is no clause"},
		{"not of a comparison", "a && !(c > 1)", nil, false, "only a bare variable may be negated"},
		{"two variables", "a && b == c", nil, false, "a comparison of two variables"},
	}
	for _, tc := range tests {
		c, err := CompileCondition(tc.src, s)
		require.NoError(t, err, tc.src)
		got, ok := c.Clauses()
		assert.Equal(t, tc.ok, ok, "%s: %s", tc.name, tc.reason)
		assert.Equal(t, tc.want, got, "%s: %s", tc.name, tc.reason)
	}
	c, err := CompileCondition("a && !b", s)
	require.NoError(t, err)
	cl, ok := c.Root().Kid(1).Clause()
	require.True(t, ok)
	assert.Equal(t, Clause{Op: OpNot, Slot: 1}, cl, "one conjunct as a clause")
	_, ok = Node{}.Clause()
	assert.False(t, ok, "the zero Node")
}

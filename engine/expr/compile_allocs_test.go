package expr_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestALongConditionCompilesInAFewAllocations: the parser carves a
// condition's nodes from chunks that grow to 1,024 nodes, so 4,000
// clauses (12,000 nodes: a variable, a literal and their comparison each)
// cost a few dozen allocations in all, not one or more per node.
func TestALongConditionCompilesInAFewAllocations(t *testing.T) {
	const clauses = 4000
	s := expr.NewSchema("x")
	for _, join := range []string{" && ", " || "} {
		src := strings.TrimSuffix(strings.Repeat("x > 1"+join, clauses), join)
		c, err := expr.CompileCondition(src, s)
		require.NoError(t, err)
		require.Equal(t, clauses, c.Root().NumKids(), "one flat node of %q", join)
		allocs := testing.AllocsPerRun(5, func() { _, _ = expr.CompileCondition(src, s) })
		assert.LessOrEqual(t, allocs, 60.0, "allocations for %d clauses joined by %q", clauses, join)
	}
}

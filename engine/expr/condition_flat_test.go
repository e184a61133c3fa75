package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// evalTree is Eval without the flat clauses: the reads check, then the
// tree.
func evalTree(c *Condition, st State) bool {
	if c == nil || c.root == nil {
		return true
	}
	for _, s := range c.reads {
		if s >= len(st) || !st[s].IsKnown() {
			return false
		}
	}
	return c.root.truth(st)
}

// TestFlatConditionsEvalAsTrees: a condition that is a conjunction of
// variables and variable-literal comparisons is evaluated from its flat
// clauses, and gives what walking its tree gives, for states of every
// kind of value (Unknown, bools, numbers, strings) and states too short
// for the slots read; conditions of another shape keep no clauses.
func TestFlatConditionsEvalAsTrees(t *testing.T) {
	s := NewSchema("a", "b", "c", "d")
	flat := []string{"a", "b > 1", "a && b > 1", "enemy && b > 0 && c <= 3", `d == "x" && a`, `b != 2 && c >= -1 && d < "m"`, "a && a && b == 1"}
	tree := []string{"a || b > 1", "!a", "a && !b", "b > c", "a && (b > 1 || c > 1)", "b + 1 > 2", ""}
	var conds []*Condition
	for _, src := range flat {
		c, err := CompileCondition(src, s)
		require.NoError(t, err, src)
		require.NotNil(t, c.flat, "%q should be flat", src)
		conds = append(conds, c)
	}
	for _, src := range tree {
		c, err := CompileCondition(src, s)
		if err != nil {
			continue // not every shape parses (b + 1): nothing to compare
		}
		assert.Nil(t, c.flat, "%q is no conjunction of clauses", src)
		conds = append(conds, c)
	}
	r := rand.New(rand.NewPCG(1, 2))
	values := []Value{{}, BoolValue(true), BoolValue(false), NumberValue(0), NumberValue(1), NumberValue(2),
		NumberValue(3.5), NumberValue(-1), StringValue("x"), StringValue("a"), StringValue("z")}
	held, failed := 0, 0
	for range 20000 {
		st := make(State, r.IntN(s.Len()+2))
		for i := range st {
			st[i] = values[r.IntN(len(values))]
		}
		for _, c := range conds {
			want := evalTree(c, st)
			require.Equal(t, want, c.Eval(st), "%q on %v", c.Source(), st)
			if want {
				held++
			} else {
				failed++
			}
		}
	}
	assert.Greater(t, held, 1000, "the states make the conditions hold often")
	assert.Greater(t, failed, 1000)
}

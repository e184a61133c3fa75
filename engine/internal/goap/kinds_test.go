package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestASumThatMakesAKindOnlyVariableANumberIsAStep: z is read only as an
// operand of "z = z + 1" (the search tells its states apart by its kind
// alone), and starts as a string, so that step cannot apply until
// "z = w + 1" makes z a number. That sum changes z's kind, so its child
// is searched: the plan is prime, then count twice.
func TestASumThatMakesAKindOnlyVariableANumberIsAStep(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}, {"z", Value(expr.StringValue("t"))}, {"w", num(4)}}, "n >= 2",
		tAct{name: "count", eff: "n = n + 1, z = z + 1"},
		tAct{name: "prime", eff: "z = w + 1"},
	)
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		gs := p.GoalSearch(pr.Goals[0])
		require.Equal(t, []int{1}, gs.kinds, "z is compared by kind")
		names, cost, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res, "general loop %v", general)
		assert.Equal(t, []string{"prime", "count", "count"}, names, "general loop %v", general)
		assert.Equal(t, 3.0, cost)
	}
}

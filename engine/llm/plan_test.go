package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func threeSteps() Plan {
	return Plan{Goal: "g", Reasoning: "r", Steps: []PlanStep{
		{Index: 0, Action: "a", Description: "first", Arguments: map[string]any{"n": 1.0, "k": "v"}},
		{Index: 1, Action: "b", Description: "second", Reasoning: "needed"},
		{Index: 2, Action: "c"},
	}}
}

func TestPlanOperationsRenumberAndCopy(t *testing.T) {
	p := threeSteps()
	r, err := p.WithReorderedSteps([]int{2, 0, 1})
	require.NoError(t, err)
	assert.Equal(t, []string{"c", "a", "b"}, r.Actions())
	assert.Equal(t, []int{0, 1, 2}, indexes(r))
	assert.Equal(t, []string{"a", "b", "c"}, p.Actions(), "the receiver is unchanged")
	assert.Equal(t, 0, p.Steps[0].Index)

	w, err := p.WithoutStep(1)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "c"}, w.Actions())
	assert.Equal(t, []int{0, 1}, indexes(w))

	rest := p.RemainingFrom(1)
	assert.Equal(t, []string{"b", "c"}, rest.Actions())
	assert.Equal(t, []int{0, 1}, indexes(rest))
	assert.True(t, p.RemainingFrom(3).IsEmpty())
	assert.Equal(t, 3, p.RemainingFrom(-1).Size())
	assert.Equal(t, "g", rest.Goal)

	_, err = p.WithReorderedSteps([]int{0, 0, 1})
	assert.EqualError(t, err, "llm: order names step 0 twice")
	_, err = p.WithReorderedSteps([]int{0, 1})
	assert.EqualError(t, err, "llm: an order of 2 indexes for a plan of 3 steps")
	_, err = p.WithReorderedSteps([]int{0, 1, 3})
	assert.EqualError(t, err, "llm: order[2] = 3 is not a step index (0..2)")
	_, err = p.WithoutStep(5)
	assert.EqualError(t, err, "llm: step 5 is not in a plan of 3 steps")
}

func TestDisplayString(t *testing.T) {
	assert.Equal(t, "Plan for: g\nReasoning: r\n1. a: first (k=\"v\", n=1)\n2. b: second\n   because needed\n3. c\n",
		threeSteps().DisplayString())
	assert.Equal(t, "Plan for: x\n(no steps)\n", Plan{Goal: "x"}.DisplayString())
}

func indexes(p Plan) []int {
	out := make([]int, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.Index
	}
	return out
}

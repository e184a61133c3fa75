package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApprovalDecisions(t *testing.T) {
	tests := []struct {
		name     string
		decision Decision
		approved bool
		actions  []string
		reason   string
	}{
		{"approve", Approve(), true, []string{"a", "b", "c"}, ""},
		{"reject", Reject("Too many steps"), false, []string{}, "Too many steps"},
		{"removeSteps", RemoveSteps(0, 2), true, []string{"b"}, ""},
		{"reorder", Reorder(1, 2, 0), true, []string{"b", "c", "a"}, ""},
		{"modify removes first, then reorders the rest", Modify([]int{1}, []int{1, 0}), true, []string{"c", "a"}, ""},
		{"replace", Replace(Plan{Steps: []PlanStep{{Action: "z", Index: 7}}}), true, []string{"z"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			g := NewPlanApprovalGate(func(p Plan) Decision { calls++; return tt.decision })
			v, err := g.Review(threeSteps())
			require.NoError(t, err)
			assert.Equal(t, 1, calls)
			assert.Equal(t, tt.approved, v.Approved)
			assert.Equal(t, tt.actions, v.Plan.Actions())
			assert.Equal(t, tt.reason, v.Reason)
			assert.Equal(t, "g", v.Plan.Goal)
			assert.Equal(t, indexesUpTo(len(tt.actions)), indexes(v.Plan))
		})
	}
}

func indexesUpTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestBadDecisionIsAnError(t *testing.T) {
	g := NewPlanApprovalGate(func(Plan) Decision { return Modify([]int{0}, []int{0, 1, 2}) })
	v, err := g.Review(threeSteps())
	require.Error(t, err)
	assert.EqualError(t, err, "llm: review decision modify([0], [0 1 2]): llm: an order of 3 indexes for a plan of 2 steps")
	assert.False(t, v.Approved)
}

func TestEmptyPlanApproval(t *testing.T) {
	calls := 0
	g := NewPlanApprovalGate(func(Plan) Decision { calls++; return Reject("no") })
	v, err := g.Review(Plan{Goal: "g", Steps: []PlanStep{}})
	require.NoError(t, err)
	assert.True(t, v.Approved, "an empty plan is approved without the callback")
	assert.Equal(t, 0, calls)

	v, err = g.AutoApproveEmpty(false).Review(Plan{Goal: "g", Steps: []PlanStep{}})
	require.NoError(t, err)
	assert.False(t, v.Approved)
	assert.Equal(t, 1, calls)

	v, err = AutoApprove().Review(threeSteps())
	require.NoError(t, err)
	assert.True(t, v.Approved)
	assert.Equal(t, []string{"a", "b", "c"}, v.Plan.Actions())
}

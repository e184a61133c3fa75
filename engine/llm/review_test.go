package llm_test

import (
	"context"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/internal/chattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The approval gate and the grounding rule over a plan from the model,
// through the SDK.

func TestGenerateAndReview(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: `[{"action": "a"}, {"action": "b"}]`})
	p := build(t, llm.NewDynamicPlanner(client(srv)))
	g := llm.NewPlanApprovalGate(func(p llm.Plan) llm.Decision {
		if p.Size() > 1 {
			return llm.RemoveSteps(1)
		}
		return llm.Approve()
	})
	v, err := g.GenerateAndReview(context.Background(), p, "goal")
	require.NoError(t, err)
	assert.True(t, v.Approved)
	assert.Equal(t, []string{"a"}, v.Plan.Actions())
	assert.Len(t, srv.Calls(), 1)
}

func TestGroundedPlanningEndToEnd(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "```json\n{\"steps\": [{\"action\": \"reload\"}]}\n```"})
	d := llm.SoldierForTest(t)
	p := build(t, llm.NewDynamicPlanner(client(srv)).Capabilities(llm.CapabilitiesOf(d)))
	rule := llm.GroundingRule{Domain: d, State: d.NewState(), Goal: d.Goal("armed"), OnInvalid: llm.FallBackToGOAP}
	v, err := llm.NewPlanApprovalGate(rule.Review).GenerateAndReview(context.Background(), p, "get armed")
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, v.Plan.Actions(), "the model forgot the magazine; the engine decided")
	assert.Contains(t, srv.Calls()[0].Messages[0].Content, "- reload: needs magazines > 0;")
}

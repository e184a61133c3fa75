package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/internal/chattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failing returns an executor that fails the named actions (each time)
// and records every step it runs.
func failing(ran *[]string, fail ...string) llm.StepExecutor {
	return func(_ context.Context, s llm.PlanStep) (string, error) {
		*ran = append(*ran, s.Action)
		for _, f := range fail {
			if s.Action == f {
				if f == "explode" {
					panic("boom")
				}
				return "", errors.New(s.Action + " failed: the door is locked")
			}
		}
		return "did " + s.Action, nil
	}
}

func engineFor(t *testing.T, srv *chattest.Server, exec llm.StepExecutor, maxReplans int) *llm.AdaptiveReplanEngine {
	t.Helper()
	c := client(srv)
	e, err := llm.NewAdaptiveReplanEngine().Client(c).Planner(build(t, llm.NewDynamicPlanner(c))).
		StepExecutor(exec).MaxReplanAttempts(maxReplans).Build()
	require.NoError(t, err)
	return e
}

func TestReplanPromptHoldsCompletedFailedAndRemaining(t *testing.T) {
	srv := chattest.New(t,
		chattest.Reply{Text: `[{"action": "walk", "description": "to the door"}, {"action": "open", "description": "the door", "arguments": {"door": "north"}}, {"action": "enter"}]`},
		chattest.Reply{Text: `[{"action": "pick", "description": "the lock"}, {"action": "enter"}]`})
	var ran []string
	e := engineFor(t, srv, failing(&ran, "open"), 3)
	res, err := e.Execute(context.Background(), "get inside")
	require.NoError(t, err)
	assert.Equal(t, []string{"walk", "open", "pick", "enter"}, ran)
	assert.Equal(t, 1, res.ReplanCount)
	assert.False(t, res.Success, "a replan happened: the seed's Success is false")
	assert.True(t, res.LastPlanCompleted(), "but the revised plan ran to its end")
	assert.Equal(t, []string{"pick", "enter"}, res.Plan.Actions())
	assert.Equal(t, 4, res.TotalSteps())
	assert.Equal(t, 3, res.CompletedCount())
	assert.Equal(t, 1, res.FailedCount())
	assert.Equal(t, "open failed: the door is locked", res.StepResults[1].Error)
	assert.Equal(t, []int{0, 0, 1, 1}, []int{res.StepResults[0].Attempt, res.StepResults[1].Attempt, res.StepResults[2].Attempt, res.StepResults[3].Attempt})
	assert.Equal(t, "did walk", res.StepResults[0].Output)

	calls := srv.Calls()
	require.Len(t, calls, 2)
	prompt := calls[1].Messages[1].Content
	assert.Equal(t, "Goal: get inside\nA step of the plan failed.\nSteps completed so far in this plan:\n1. walk: to the door\n"+
		"Failed step:\n2. open: the door (door=\"north\")\nError: open failed: the door is locked\n"+
		"Remaining steps, not run:\n3. enter\n", prompt[:strings.Index(prompt, "Write a revised plan")])
}

func TestReplanLimit(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: `[{"action": "open"}]`})
	var ran []string
	e := engineFor(t, srv, failing(&ran, "open"), 2)
	res, err := e.Execute(context.Background(), "get inside")
	require.NoError(t, err)
	assert.Equal(t, []string{"open", "open", "open"}, ran, "the first plan and two revised plans")
	assert.Equal(t, 2, res.ReplanCount)
	assert.Len(t, srv.Calls(), 3, "one plan, two replans, then it stops")
	assert.False(t, res.Success)
	assert.False(t, res.LastPlanCompleted())

	srv0 := chattest.New(t, chattest.Reply{Text: `[{"action": "open"}]`})
	ran = nil
	res, err = engineFor(t, srv0, failing(&ran, "open"), 0).Execute(context.Background(), "g")
	require.NoError(t, err)
	assert.Equal(t, 0, res.ReplanCount)
	assert.Len(t, srv0.Calls(), 1, "MaxReplanAttempts 0 never replans")

	_, err = llm.NewAdaptiveReplanEngine().Client(client(srv)).Planner(build(t, llm.NewDynamicPlanner(client(srv)))).
		StepExecutor(failing(&ran)).MaxReplanAttempts(-1).Build()
	assert.EqualError(t, err, "llm: maxReplanAttempts must be >= 0, not -1")
	_, err = llm.NewAdaptiveReplanEngine().Client(client(srv)).StepExecutor(failing(&ran)).Build()
	assert.EqualError(t, err, "llm: the replan engine needs a planner")
}

func TestEmptyRevisedPlanStops(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: `[{"action": "open"}, {"action": "enter"}]`}, chattest.Reply{Text: `{"reasoning": "cannot", "steps": []}`})
	var ran []string
	res, err := engineFor(t, srv, failing(&ran, "open"), 3).Execute(context.Background(), "g")
	require.NoError(t, err)
	assert.Equal(t, []string{"open"}, ran)
	assert.Equal(t, 1, res.ReplanCount)
	assert.Len(t, srv.Calls(), 2)
	assert.Equal(t, []string{"open", "enter"}, res.Plan.Actions(), "Plan is the last plan that ran")
	assert.False(t, res.Success)
}

func TestPanickingStepFailsAndSuccessfulPlan(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: `[{"action": "explode"}]`}, chattest.Reply{Text: `[]`})
	var ran []string
	res, err := engineFor(t, srv, failing(&ran, "explode"), 3).Execute(context.Background(), "g")
	require.NoError(t, err)
	assert.Equal(t, "the step executor panicked: boom", res.StepResults[0].Error)

	srv2 := chattest.New(t, chattest.Reply{Text: `[{"action": "a"}, {"action": "b"}]`})
	ran = nil
	res, err = engineFor(t, srv2, failing(&ran), 3).ExecutePlan(context.Background(), llm.ThreeStepsForTest())
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, ran, "ExecutePlan runs the given plan, no model call")
	assert.Empty(t, srv2.Calls())
	assert.True(t, res.Success)
	assert.True(t, res.LastPlanCompleted())
}

func TestReplanServerErrorIsReturned(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: `[{"action": "open"}]`}, chattest.Reply{Status: 500, Text: "down"})
	var ran []string
	res, err := engineFor(t, srv, failing(&ran, "open"), 3).Execute(context.Background(), "g")
	var se *llm.ServerError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 500, se.StatusCode)
	assert.Len(t, res.StepResults, 1)
	assert.False(t, res.Success)
}

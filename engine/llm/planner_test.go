package llm_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/internal/chattest"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func build(t *testing.T, b *llm.DynamicPlannerBuilder) *llm.DynamicPlanner {
	t.Helper()
	p, err := b.Build()
	require.NoError(t, err)
	return p
}

func TestGeneratePlanReadsEveryReplyShape(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		reply   string
		actions []string
		descs   []string
		reason2 string // the plan's reasoning
		args    map[string]any
	}{
		{name: "fenced JSON", reason: "models wrap JSON in a fence with prose around it",
			reply:   "Here is the plan:\n```json\n{\"reasoning\": \"crate first\", \"steps\": [{\"action\": \"fetchMagazine\", \"description\": \"get a magazine\", \"arguments\": {\"crate\": \"north\"}}, {\"action\": \"reload\", \"description\": \"load it\"}]}\n```\nGood luck.",
			actions: []string{"fetchMagazine", "reload"}, descs: []string{"get a magazine", "load it"}, reason2: "crate first",
			args: map[string]any{"crate": "north"}},
		{name: "raw JSON", reason: "the reply is the object alone",
			reply:   `{"reasoning": "r", "steps": [{"action": "reload", "description": "load", "arguments": {"rounds": 30}, "reasoning": "empty"}]}`,
			actions: []string{"reload"}, descs: []string{"load"}, reason2: "r", args: map[string]any{"rounds": float64(30)}},
		{name: "bare list", reason: "a list of steps without the object is accepted",
			reply:   `[{"action": "takeCover", "description": "hide"}, {"action": "attack", "description": "shoot"}]`,
			actions: []string{"takeCover", "attack"}, descs: []string{"hide", "shoot"}},
		{name: "numbered list", reason: "no JSON: one step per numbered item, a leading name is the action",
			reply:   "Plan:\n1. fetchMagazine: run to the crate\n2) reload - load the magazine\n3. Wait for the enemy\n",
			actions: []string{"fetchMagazine", "reload", llm.UnknownAction}, descs: []string{"run to the crate", "load the magazine", "Wait for the enemy"}},
		{name: "step without action", reason: "a step with no action name gets unknown",
			reply:   `{"steps": [{"description": "look around"}, {"action": "  ", "description": "blank"}]}`,
			actions: []string{llm.UnknownAction, llm.UnknownAction}, descs: []string{"look around", "blank"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := chattest.New(t, chattest.Reply{Text: tt.reply})
			p := build(t, llm.NewDynamicPlanner(client(srv)).Capability("reload", "load a magazine"))
			plan, err := p.GeneratePlan(context.Background(), "get armed")
			require.NoError(t, err)
			assert.Equal(t, "get armed", plan.Goal)
			assert.Equal(t, tt.actions, plan.Actions(), tt.reason)
			for i, s := range plan.Steps {
				assert.Equal(t, i, s.Index)
				assert.Equal(t, tt.descs[i], s.Description, tt.reason)
			}
			assert.Equal(t, tt.reason2, plan.Reasoning)
			if tt.args != nil {
				assert.Equal(t, tt.args, plan.Steps[0].Arguments)
			}
			assert.Len(t, srv.Calls(), 1, "exactly one chat call per GeneratePlan")
		})
	}
}

func TestGarbageReplyGivesEmptyPlanAndWarning(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "I am sorry, I cannot help with that {not json"})
	var logs bytes.Buffer
	p := build(t, llm.NewDynamicPlanner(client(srv)).Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	plan, err := p.GeneratePlan(context.Background(), "win")
	require.NoError(t, err, "an unreadable reply is no error")
	assert.True(t, plan.IsEmpty())
	assert.NotNil(t, plan.Steps, "steps is an empty list, not nil")
	assert.Contains(t, logs.String(), "level=WARN")
	assert.Contains(t, logs.String(), "holds no plan")
	assert.Len(t, srv.Calls(), 1)
}

func TestTemperatureIsValidatedAtBuild(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "[]"})
	for _, bad := range []float64{-0.1, 2.01, 10} {
		_, err := llm.NewDynamicPlanner(client(srv)).Temperature(bad).Build()
		require.Error(t, err, "temperature %v", bad)
		assert.Contains(t, err.Error(), "llm: temperature must be in 0..2")
	}
	for _, good := range []float64{0, 1.5, 2} {
		p, err := llm.NewDynamicPlanner(client(srv)).Temperature(good).Build()
		require.NoError(t, err)
		_, err = p.GeneratePlan(context.Background(), "g")
		require.NoError(t, err)
	}
	calls := srv.Calls()
	require.Len(t, calls, 3)
	for i, want := range []float64{0, 1.5, 2} {
		require.NotNil(t, calls[i].Temperature)
		assert.Equal(t, want, *calls[i].Temperature, "the temperature reaches the server")
	}
	_, err := llm.NewDynamicPlanner(nil).Build()
	assert.EqualError(t, err, "llm: the planner needs a client")
	d := build(t, llm.NewDynamicPlanner(client(srv)))
	assert.Equal(t, llm.DefaultTemperature, d.Temperature())
}

func TestPromptNamesCapabilitiesContextAndState(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "[]"})
	p := build(t, llm.NewDynamicPlanner(client(srv)).
		Capabilities([]llm.Capability{{Name: "old", Description: "replaced"}}).
		Capabilities([]llm.Capability{{Name: "search_web", Description: "Search the web"}}).
		Capability("summarize", "Summarize a text").
		AdditionalContext("the squad is pinned down"))
	_, err := p.GeneratePlanWithState(context.Background(), "write a brief", map[string]any{"ammo": 3.0, "alert": true})
	require.NoError(t, err)
	calls := srv.Calls()
	require.Len(t, calls, 1)
	req := calls[0]
	assert.Equal(t, "test-model", req.Model)
	require.Len(t, req.Messages, 2)
	sys, user := req.Messages[0], req.Messages[1]
	assert.Equal(t, "system", sys.Role)
	assert.Contains(t, sys.Content, "- search_web: Search the web\n- summarize: Summarize a text\n")
	assert.NotContains(t, sys.Content, "old")
	assert.Contains(t, sys.Content, "Context: the squad is pinned down")
	assert.Contains(t, sys.Content, `"steps": [{"action"`)
	assert.Equal(t, "user", user.Role)
	assert.Equal(t, "Goal: write a brief\nCurrent state (JSON): {\"alert\":true,\"ammo\":3}", user.Content)

	// Without capabilities the model is told to write generic steps.
	srv2 := chattest.New(t, chattest.Reply{Text: "[]"})
	_, err = build(t, llm.NewDynamicPlanner(client(srv2))).GeneratePlan(context.Background(), "g")
	require.NoError(t, err)
	assert.Contains(t, srv2.Calls()[0].Messages[0].Content, "No specific actions are given: write generic")
}

func TestStepNamesAreNotCheckedAgainstCapabilities(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: `[{"action": "fly", "description": "take off"}]`})
	p := build(t, llm.NewDynamicPlanner(client(srv)).Capability("walk", "walk somewhere"))
	plan, err := p.GeneratePlan(context.Background(), "cross the river")
	require.NoError(t, err)
	assert.Equal(t, []string{"fly"}, plan.Actions(), "the planner proposes; grounding decides")
}

func TestServerErrorsAreErrors(t *testing.T) {
	for _, status := range []int{500, 503, 429} {
		srv := chattest.New(t, chattest.Reply{Status: status, Text: "overloaded"})
		c := openaichat.New(openaichat.Options{BaseURL: srv.BaseURL(), Model: "m", MaxRetries: 0})
		p := build(t, llm.NewDynamicPlanner(c))
		plan, err := p.GeneratePlan(context.Background(), "g")
		require.Error(t, err, "status %d", status)
		var se *llm.ServerError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, status, se.StatusCode)
		assert.True(t, strings.HasPrefix(err.Error(), "llm: chat completion: the server answered "), err.Error())
		assert.True(t, plan.IsEmpty())
		assert.Len(t, srv.Calls(), 1, "MaxRetries 0: the SDK does not retry")
	}
}

func TestSDKRetriesAreConfigured(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Status: 503, Text: "busy"}, chattest.Reply{Status: 503, Text: "busy"}, chattest.Reply{Text: `[{"action": "a"}]`})
	// Retry-After-Ms 0 would still wait the SDK's back-off; the test only
	// counts calls, never times them.
	c := openaichat.New(openaichat.Options{BaseURL: srv.BaseURL(), Model: "m", MaxRetries: 2})
	plan, err := build(t, llm.NewDynamicPlanner(c)).GeneratePlan(context.Background(), "g")
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, plan.Actions())
	assert.Len(t, srv.Calls(), 3, "two retries after two 503s")
}

func TestGuardRailsRefuseWithoutACall(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "[]"})
	p := build(t, llm.NewDynamicPlanner(client(srv)).GuardRails(
		llm.MaxLength(20),
		llm.DenyWords("kill", "drop table"),
		llm.GuardRailFunc("no-shouting", func(g string) error {
			if g != "" && g == strings.ToUpper(g) && strings.ToLower(g) != g {
				return errRail("the goal is all capitals")
			}
			return nil
		}),
	))
	tests := []struct {
		goal, want string
	}{
		{strings.Repeat("x", 21), "llm: goal refused by guard rail max-length: the goal is 21 characters long, more than 20"},
		{"Kill the medic", `llm: goal refused by guard rail deny-words: the goal contains the denied word "kill"`},
		{"then DROP  table x", `llm: goal refused by guard rail deny-words: the goal contains the denied word "drop table"`},
		{"HOLD THE LINE", "llm: goal refused by guard rail no-shouting: the goal is all capitals"},
	}
	for _, tt := range tests {
		_, err := p.GeneratePlan(context.Background(), tt.goal)
		require.Error(t, err, tt.goal)
		assert.EqualError(t, err, tt.want)
		assert.ErrorIs(t, err, llm.ErrRefused)
	}
	assert.Empty(t, srv.Calls(), "no model call for a refused goal")
	_, err := p.GeneratePlan(context.Background(), "improve skills")
	require.NoError(t, err, "whole words only: skill is not kill")
	assert.Len(t, srv.Calls(), 1)
}

type errRail string

func (e errRail) Error() string { return string(e) }

func TestSlowServerAgainstTheTimeout(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	srv := chattest.New(t, chattest.Reply{Text: "[]"})
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select { // sleeps until the client gives up (or the test ends)
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := build(t, llm.NewDynamicPlanner(client(srv))).GeneratePlan(ctx, "g")
		done <- err
	}()
	<-arrived // the request is at the server, which sleeps
	cancel()  // the caller's deadline passes
	err := <-done
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)

	// A request timeout set on the client ends the call the same way.
	c := openaichat.New(openaichat.Options{BaseURL: srv.BaseURL(), Model: "m", Timeout: 1})
	_, err = build(t, llm.NewDynamicPlanner(c)).GeneratePlan(context.Background(), "g")
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// A model that answers with a plan of thousands of steps (a loop it never
// leaves, testdata/endless_plan.json) gets an error, not a plan to copy
// into Lua and into the trace; MaxPlanSteps steps are still a plan.
func TestAPlanLongerThanMaxPlanStepsIsAnError(t *testing.T) {
	endless, err := os.ReadFile(filepath.Join("testdata", "endless_plan.json"))
	require.NoError(t, err)
	reply := string(endless)
	p := build(t, llm.NewDynamicPlanner(llm.ClientFunc(func(context.Context, llm.ChatRequest) (string, error) { return reply, nil })))
	plan, err := p.GeneratePlan(context.Background(), "get armed")
	require.Error(t, err)
	assert.Equal(t, "llm: the model's plan has 500 steps, more than MaxPlanSteps (100)", err.Error())
	assert.True(t, plan.IsEmpty())
	assert.Equal(t, "get armed", plan.Goal)

	reply = "[" + strings.Repeat(`{"action": "reload"},`, llm.MaxPlanSteps-1) + `{"action": "reload"}]`
	plan, err = p.GeneratePlan(context.Background(), "get armed")
	require.NoError(t, err)
	assert.Equal(t, llm.MaxPlanSteps, plan.Size())
}

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatServer answers every chat completions request with reply (or with
// an error status) and counts the requests.
func chatServer(t *testing.T, status int, reply string) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Temperature float64 `json:"temperature"`
			Messages    []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error": {"message": "down"}}`))
			return
		}
		// The reply echoes what the prompt held, so tests see the flags arrive.
		text := reply
		if text == "echo" {
			b, _ := json.Marshal(map[string]any{"reasoning": req.Messages[0].Content, "steps": []any{
				map[string]any{"action": "echo", "arguments": map[string]any{"temperature": req.Temperature}}}})
			text = string(b)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestLLMPlanJSON(t *testing.T) {
	srv, calls := chatServer(t, 0, "```json\n{\"reasoning\": \"supply first\", \"steps\": [{\"action\": \"fetchMagazine\", \"description\": \"run to the crate\", \"arguments\": {\"crate\": 2}}, {\"action\": \"reload\"}]}\n```")
	out, errOut, code := runMain("llm-plan", "--base-url", srv.URL+"/v1", "--json", "get", "armed")
	require.Equal(t, 0, code, errOut)
	assert.JSONEq(t, `{"goal": "get armed", "reasoning": "supply first", "steps": [
		{"index": 0, "action": "fetchMagazine", "description": "run to the crate", "arguments": {"crate": 2}},
		{"index": 1, "action": "reload", "description": "", "arguments": {}}]}`, out)
	assert.Equal(t, int32(1), calls.Load())

	out, errOut, code = runMain("llm-plan", "--base-url", srv.URL+"/v1", "get armed")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "Plan for: get armed\nReasoning: supply first\n1. fetchMagazine: run to the crate (crate=2)\n2. reload\n", out)
}

func TestLLMPlanFlagsReachThePrompt(t *testing.T) {
	srv, _ := chatServer(t, 0, "echo")
	out, errOut, code := runMain("llm-plan", "--base-url", srv.URL+"/v1", "--model", "local",
		"--capability", "scout=look around", "--capability", "hold", "--temperature", "0.7",
		"--context", "night mission", "--json", "take the hill")
	require.Equal(t, 0, code, errOut)
	var got llmPlanJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Contains(t, got.Reasoning, "- scout: look around\n- hold\n")
	assert.Contains(t, got.Reasoning, "Context: night mission")
	require.Len(t, got.Steps, 1)
	assert.Equal(t, 0.7, got.Steps[0].Arguments["temperature"])
}

func TestLLMPlanExitCodes(t *testing.T) {
	garbage, _ := chatServer(t, 0, "no plan here")
	failing, _ := chatServer(t, 503, "")
	refusing, refusedCalls := chatServer(t, 0, "[]")
	tests := []struct {
		name   string
		args   []string
		code   int
		out    string
		errOut string
	}{
		{"unreadable reply: an empty plan is still a reply", []string{"--base-url", garbage.URL + "/v1", "--json", "g"}, 0,
			`{"goal":"g","steps":[],"reasoning":""}` + "\n", "holds no plan"},
		{"server error", []string{"--base-url", failing.URL + "/v1", "g"}, 1, "",
			"moonmind llm-plan: llm: chat completion: the server answered 503 Service Unavailable"},
		{"too long", []string{"--base-url", refusing.URL + "/v1", "--max-goal-chars", "5", "storm the gate"}, 2, "",
			"moonmind llm-plan: llm: goal refused by guard rail max-length: the goal is 14 characters long, more than 5"},
		{"denied word", []string{"--base-url", refusing.URL + "/v1", "--deny", "gate", "storm the gate"}, 2, "",
			`guard rail deny-words: the goal contains the denied word "gate"`},
		{"bad temperature", []string{"--base-url", refusing.URL + "/v1", "--temperature", "3", "g"}, 2, "",
			"moonmind llm-plan: llm: temperature must be in 0..2, not 3"},
		{"no goal", []string{"--base-url", refusing.URL + "/v1"}, 2, "", "moonmind llm-plan: expected a goal"},
		{"bad capability", []string{"--base-url", refusing.URL + "/v1", "--capability", "=x", "g"}, 2, "", "expected name=description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"llm-plan"}, tt.args...)...)
			assert.Equal(t, tt.code, code, errOut)
			assert.Equal(t, tt.out, out)
			assert.Contains(t, errOut, tt.errOut)
		})
	}
	assert.Equal(t, int32(0), refusedCalls.Load(), "no call for a refused goal or bad input")
}

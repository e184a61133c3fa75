package openaichat_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/internal/chattest"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChatSendsMessagesModelTemperatureAndKey(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "the reply"})
	c := openaichat.New(openaichat.Options{BaseURL: srv.BaseURL(), Model: "local", APIKey: "k1"})
	assert.Equal(t, "local", c.Model())
	got, err := c.Chat(context.Background(), llm.ChatRequest{Temperature: 0.7, Messages: []llm.Message{
		{Role: "system", Content: "be brief"},
		{Role: "user", Content: "plan"},
		{Role: "assistant", Content: "[]"},
		{Role: "narrator", Content: "other roles are the user's"},
	}})
	require.NoError(t, err)
	assert.Equal(t, "the reply", got)
	calls := srv.Calls()
	require.Len(t, calls, 1)
	assert.Equal(t, "local", calls[0].Model)
	require.NotNil(t, calls[0].Temperature)
	assert.Equal(t, 0.7, *calls[0].Temperature)
	assert.Equal(t, "Bearer k1", calls[0].Authorization)
	assert.Equal(t, []chattest.Message{
		{Role: "system", Content: "be brief"},
		{Role: "user", Content: "plan"},
		{Role: "assistant", Content: "[]"},
		{Role: "user", Content: "other roles are the user's"},
	}, calls[0].Messages)
}

func TestEmptyOptionsAskTheEnvironment(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Text: "ok"})
	t.Setenv(llm.EnvBaseURL, srv.BaseURL())
	t.Setenv(llm.EnvModel, "env-model")
	t.Setenv(llm.EnvAPIKey, "env-key")
	c := openaichat.New(openaichat.Options{})
	assert.Equal(t, "env-model", c.Model())
	_, err := c.Chat(context.Background(), llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	require.NoError(t, err)
	calls := srv.Calls()
	require.Len(t, calls, 1, "the request went to $"+llm.EnvBaseURL)
	assert.Equal(t, "env-model", calls[0].Model)
	assert.Equal(t, "Bearer env-key", calls[0].Authorization)

	t.Setenv(llm.EnvModel, "")
	assert.Equal(t, openaichat.DefaultModel, openaichat.New(openaichat.Options{}).Model())
	assert.Equal(t, "mine", openaichat.New(openaichat.Options{Model: "mine"}).Model(), "an option beats the environment")
}

func TestErrorStatusIsAServerError(t *testing.T) {
	srv := chattest.New(t, chattest.Reply{Status: http.StatusTooManyRequests, Text: "slow down"})
	c := openaichat.New(openaichat.Options{BaseURL: srv.BaseURL(), Model: "m"})
	_, err := c.Chat(context.Background(), llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	var se *llm.ServerError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, http.StatusTooManyRequests, se.StatusCode)
	assert.EqualError(t, err, "llm: chat completion: the server answered 429 Too Many Requests")
	require.Error(t, errors.Unwrap(err), "the SDK's error is kept")
	assert.Contains(t, errors.Unwrap(err).Error(), "429")
	assert.Len(t, srv.Calls(), 1, "no retry by default")
}

func TestReplyWithoutChoicesIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "m", "choices": []any{}})
	}))
	defer srv.Close()
	c := openaichat.New(openaichat.Options{BaseURL: srv.URL + "/v1", Model: "m"})
	_, err := c.Chat(context.Background(), llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	assert.EqualError(t, err, "openaichat: chat completion: the server answered with no choices")
}

func TestBrokenConnectionIsNotAServerError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/v1"
	srv.Close() // nothing listens there any more
	c := openaichat.New(openaichat.Options{BaseURL: base, Model: "m"})
	_, err := c.Chat(context.Background(), llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	require.Error(t, err)
	var se *llm.ServerError
	assert.False(t, errors.As(err, &se))
	assert.True(t, strings.HasPrefix(err.Error(), "openaichat: chat completion: "), err.Error())
}

// A server that answers with more than MaxReplyBytes fails the request
// with the bound named, instead of filling the game's memory; a reply
// within the bound reads as before.
func TestAHugeReplyIsRefused(t *testing.T) {
	reply := func(content string) []byte {
		b, err := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}}})
		require.NoError(t, err)
		return b
	}
	huge := reply(strings.Repeat("step ", 20_000))
	small := reply("ok")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "small") {
			_, _ = w.Write(small)
			return
		}
		_, _ = w.Write(huge)
	}))
	defer srv.Close()
	ask := func(base string) (string, error) {
		c := openaichat.New(openaichat.Options{BaseURL: srv.URL + base, Model: "m", APIKey: "k", MaxReplyBytes: 10_000})
		return c.Chat(context.Background(), llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "plan"}}})
	}
	_, err := ask("/v1")
	require.Error(t, err)
	assert.Equal(t, "openaichat: chat completion: error reading response body: openaichat: the reply is larger than 10000 bytes (Options.MaxReplyBytes)", err.Error())
	got, err := ask("/small/v1")
	require.NoError(t, err)
	assert.Equal(t, "ok", got)
}

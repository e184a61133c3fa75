package llm

import (
	"context"
	"fmt"
	"net/http"
	"os"
)

// Message is one chat message: Role is "system", "user" or "assistant".
type Message struct {
	Role    string
	Content string
}

// ChatRequest is one chat call: the messages in order and the sampling
// temperature (0..2).
type ChatRequest struct {
	Messages    []Message
	Temperature float64
}

// Client is a chat model: messages in, the reply's text out. Chat must be
// safe for concurrent use, since npc:llm_plan runs requests off the game
// loop. An error means no reply (the server failed or ctx ended). The
// shipped implementation, over the OpenAI-compatible chat completions API,
// is package engine/llm/openaichat; this package does not import it, so
// the SDK is linked only into programs that do.
type Client interface {
	Chat(ctx context.Context, req ChatRequest) (string, error)
}

// ClientFunc adapts a function to Client.
type ClientFunc func(ctx context.Context, req ChatRequest) (string, error)

// Chat calls f.
func (f ClientFunc) Chat(ctx context.Context, req ChatRequest) (string, error) { return f(ctx, req) }

// Environment variables a Client reads for the options left empty
// (openaichat.New does).
const (
	EnvBaseURL = "MOONMIND_LLM_BASE_URL" // e.g. http://127.0.0.1:8080/v1 for llama.cpp's server
	EnvModel   = "MOONMIND_LLM_MODEL"
	EnvAPIKey  = "OPENAI_API_KEY"
)

// EnvConfigured reports whether MOONMIND_LLM_BASE_URL is set: a game can
// offer LLM planning only then and run unchanged without it.
func EnvConfigured() bool { return os.Getenv(EnvBaseURL) != "" }

// ServerError is a chat server's HTTP error status (429 Too Many Requests,
// a 5xx), after any retries. A Client returns it so that callers can tell
// an overloaded or failing server (errors.As) from a cancelled call;
// Err is the client's own error.
type ServerError struct {
	StatusCode int
	Err        error
}

// Error says "llm: chat completion: the server answered " and the status.
func (e *ServerError) Error() string {
	return fmt.Sprintf("llm: chat completion: the server answered %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

// Unwrap returns Err.
func (e *ServerError) Unwrap() error { return e.Err }

package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
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
// loop. An error means no reply (the server failed or ctx ended).
type Client interface {
	Chat(ctx context.Context, req ChatRequest) (string, error)
}

// ClientFunc adapts a function to Client.
type ClientFunc func(ctx context.Context, req ChatRequest) (string, error)

// Chat calls f.
func (f ClientFunc) Chat(ctx context.Context, req ChatRequest) (string, error) { return f(ctx, req) }

// Environment variables read by NewOpenAIClient for the options left empty.
const (
	EnvBaseURL = "MOONMIND_LLM_BASE_URL" // e.g. http://127.0.0.1:8080/v1 for llama.cpp's server
	EnvModel   = "MOONMIND_LLM_MODEL"
	EnvAPIKey  = "OPENAI_API_KEY"
)

// EnvConfigured reports whether MOONMIND_LLM_BASE_URL is set: a game can
// offer LLM planning only then and run unchanged without it.
func EnvConfigured() bool { return os.Getenv(EnvBaseURL) != "" }

// DefaultModel is the model asked for when neither OpenAIOptions.Model nor
// MOONMIND_LLM_MODEL names one. Local servers that serve one model
// (llama.cpp's server) ignore the name; Ollama and vLLM need a real one.
const DefaultModel = "gpt-4o-mini"

// OpenAIOptions configures an OpenAIClient. The zero value asks the
// environment: MOONMIND_LLM_BASE_URL, MOONMIND_LLM_MODEL and
// OPENAI_API_KEY, else the SDK's defaults (OPENAI_BASE_URL or OpenAI's
// own API) and DefaultModel; no retries and no request timeout.
type OpenAIOptions struct {
	// BaseURL is the server's API root, ending in /v1 for most servers
	// (http://127.0.0.1:11434/v1 for Ollama).
	BaseURL string
	Model   string
	// APIKey is sent as a bearer token; local servers need none.
	APIKey string
	// MaxRetries is how many times the SDK retries a request that failed
	// with 408, 409, 429, a 5xx status or a broken connection, waiting
	// between tries. Zero means no retry: a game would rather replan than
	// wait.
	MaxRetries int
	// Timeout bounds each request in wall-clock time; zero means only the
	// caller's context bounds it.
	Timeout time.Duration
	// HTTPClient replaces the SDK's HTTP client (a proxy, a test
	// transport); nil keeps the SDK's.
	HTTPClient *http.Client
}

// OpenAIClient is a Client that speaks the OpenAI-compatible chat
// completions API (POST {BaseURL}/chat/completions) through the official
// Go SDK, so llama.cpp's server, Ollama, vLLM and OpenAI itself all work.
// It is safe for concurrent use.
type OpenAIClient struct {
	client  openai.Client
	model   string
	baseURL string
}

// NewOpenAIClient returns a client for the options; see OpenAIOptions for
// what an empty option means.
func NewOpenAIClient(o OpenAIOptions) *OpenAIClient {
	if o.BaseURL == "" {
		o.BaseURL = os.Getenv(EnvBaseURL)
	}
	if o.Model == "" {
		o.Model = os.Getenv(EnvModel)
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.APIKey == "" {
		o.APIKey = os.Getenv(EnvAPIKey)
	}
	opts := []option.RequestOption{option.WithMaxRetries(max(o.MaxRetries, 0))}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	if o.Timeout > 0 {
		opts = append(opts, option.WithRequestTimeout(o.Timeout))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	return &OpenAIClient{client: openai.NewClient(opts...), model: o.Model, baseURL: o.BaseURL}
}

// Model returns the model name the client asks for.
func (c *OpenAIClient) Model() string { return c.model }

// Chat sends one chat completion request and returns the first choice's
// text. A server error is a *ServerError carrying the HTTP status.
func (c *OpenAIClient) Chat(ctx context.Context, req ChatRequest) (string, error) {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages))
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			msgs = append(msgs, openai.SystemMessage(m.Content))
		case "assistant":
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		default:
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	res, err := c.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:       c.model,
		Messages:    msgs,
		Temperature: openai.Float(req.Temperature),
	})
	if err != nil {
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			return "", &ServerError{StatusCode: apiErr.StatusCode, Err: err}
		}
		return "", fmt.Errorf("llm: chat completion: %w", err)
	}
	if len(res.Choices) == 0 {
		return "", errors.New("llm: chat completion: the server answered with no choices")
	}
	return res.Choices[0].Message.Content, nil
}

// ServerError is a chat server's error status (429 Too Many Requests, a
// 5xx), after the SDK's retries.
type ServerError struct {
	StatusCode int
	Err        error
}

func (e *ServerError) Error() string {
	return fmt.Sprintf("llm: chat completion: the server answered %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

func (e *ServerError) Unwrap() error { return e.Err }

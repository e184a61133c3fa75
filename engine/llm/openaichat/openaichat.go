// Package openaichat is the llm.Client that speaks the OpenAI-compatible
// chat completions API (POST {BaseURL}/chat/completions) through the
// official Go SDK (github.com/openai/openai-go/v3), so llama.cpp's server,
// Ollama, vLLM and OpenAI itself all work.
//
// It lives apart from package llm so that a program that only needs the
// planner's types (luabind, a WebAssembly build of a game) does not link
// the SDK; only a program that imports this package does:
//
//	client := openaichat.New(openaichat.Options{BaseURL: "http://127.0.0.1:8080/v1"})
//	planner, err := llm.NewDynamicPlanner(client).Build()
package openaichat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// DefaultModel is the model asked for when neither Options.Model nor
// MOONMIND_LLM_MODEL names one. Local servers that serve one model
// (llama.cpp's server) ignore the name; Ollama and vLLM need a real one.
const DefaultModel = "gpt-4o-mini"

// Options configures a Client. The zero value asks the environment:
// llm.EnvBaseURL (MOONMIND_LLM_BASE_URL), llm.EnvModel
// (MOONMIND_LLM_MODEL) and llm.EnvAPIKey (OPENAI_API_KEY), else the SDK's
// defaults (OPENAI_BASE_URL or OpenAI's own API) and DefaultModel; no
// retries and no request timeout.
type Options struct {
	// BaseURL is the server's API root, ending in /v1 for most servers
	// (http://127.0.0.1:11434/v1 for Ollama).
	BaseURL string
	// Model is the model name sent with every request.
	Model string
	// APIKey is sent as a bearer token; local servers need none.
	APIKey string
	// MaxRetries is how many times the SDK retries a request that failed
	// with 408, 409, 429, a 5xx status or a broken connection, waiting
	// between tries. Zero (or less) means no retry: a game would rather
	// replan than wait.
	MaxRetries int
	// Timeout bounds each request in wall-clock time; zero means only the
	// caller's context bounds it.
	Timeout time.Duration
	// HTTPClient replaces the SDK's HTTP client (a proxy, a test
	// transport); nil keeps the SDK's.
	HTTPClient *http.Client
	// MaxReplyBytes bounds the size of a response body in bytes; a larger
	// one fails the request with an error naming the bound, read no
	// further (a broken or hostile server cannot fill the game's memory).
	// Zero (or less) means DefaultMaxReplyBytes.
	MaxReplyBytes int64
}

// DefaultMaxReplyBytes is the response size bound when
// Options.MaxReplyBytes is zero: 4 MiB, far above any plan's reply.
const DefaultMaxReplyBytes = 4 << 20

// Client is an llm.Client over the OpenAI Go SDK. It is safe for
// concurrent use.
type Client struct {
	client openai.Client
	model  string
}

var _ llm.Client = (*Client)(nil)

// New returns a client for the options; see Options for what an empty
// option means. It makes no request.
func New(o Options) *Client {
	if o.BaseURL == "" {
		o.BaseURL = os.Getenv(llm.EnvBaseURL)
	}
	if o.Model == "" {
		o.Model = os.Getenv(llm.EnvModel)
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.APIKey == "" {
		o.APIKey = os.Getenv(llm.EnvAPIKey)
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
	limit := o.MaxReplyBytes
	if limit <= 0 {
		limit = DefaultMaxReplyBytes
	}
	opts = append(opts, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(r)
		if err == nil && res != nil && res.Body != nil {
			res.Body = &limitedBody{rc: res.Body, left: limit, limit: limit}
		}
		return res, err
	}))
	return &Client{client: openai.NewClient(opts...), model: o.Model}
}

// limitedBody is a response body that fails once more than limit bytes
// were read from it.
type limitedBody struct {
	rc          io.ReadCloser
	left, limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("openaichat: the reply is larger than %d bytes (Options.MaxReplyBytes)", b.limit)
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more than allowed tells "too large" from "exactly the bound"
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n - 1, fmt.Errorf("openaichat: the reply is larger than %d bytes (Options.MaxReplyBytes)", b.limit)
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// Model returns the model name the client asks for.
func (c *Client) Model() string { return c.model }

// Chat sends one chat completion request and returns the first choice's
// text. A message whose Role is neither "system" nor "assistant" is sent
// as the user's. An HTTP error status (after the SDK's retries) is an
// *llm.ServerError carrying the status; any other failure (a broken
// connection, ctx ended, a reply with no choices) is an error beginning
// "openaichat: chat completion: " that wraps the cause.
func (c *Client) Chat(ctx context.Context, req llm.ChatRequest) (string, error) {
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
			return "", &llm.ServerError{StatusCode: apiErr.StatusCode, Err: err}
		}
		return "", fmt.Errorf("openaichat: chat completion: %w", err)
	}
	if len(res.Choices) == 0 {
		return "", errors.New("openaichat: chat completion: the server answered with no choices")
	}
	return res.Choices[0].Message.Content, nil
}

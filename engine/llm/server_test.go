package llm_test

import (
	"github.com/moonmind-ai/moonmind/engine/llm/internal/chattest"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
)

// The tests of this package that ask a model go through the real OpenAI
// SDK (package openaichat) against a fake chat completions server. They
// are external tests (package llm_test) because package llm cannot import
// openaichat, which imports it.

// client returns an SDK client aimed at the server, without retries.
func client(s *chattest.Server) *openaichat.Client {
	return openaichat.New(openaichat.Options{BaseURL: s.BaseURL(), Model: "test-model", APIKey: "test-key"})
}

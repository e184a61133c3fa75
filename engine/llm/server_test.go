package llm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// chatRequest is what the fake server reads of a chat completions request.
type chatRequest struct {
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature"`
	Messages    []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// chatServer is an httptest server speaking the chat completions protocol
// with scripted replies, one per request, in order (the last repeats).
// A reply whose status is not 200 is an error answer.
type chatServer struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []reply
	requests []chatRequest
}

type reply struct {
	status int // 0 means 200
	text   string
}

func newChatServer(t *testing.T, replies ...reply) *chatServer {
	s := &chatServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	rep := s.replies[min(n, len(s.replies)-1)]
	s.mu.Unlock()
	writeReply(w, rep)
}

func writeReply(w http.ResponseWriter, rep reply) {
	w.Header().Set("Content-Type", "application/json")
	if rep.status != 0 && rep.status != http.StatusOK {
		w.WriteHeader(rep.status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": rep.text, "type": "server_error"}})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": rep.text}}},
	})
}

func (s *chatServer) calls() []chatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatRequest(nil), s.requests...)
}

// client returns an OpenAIClient aimed at the server, without retries.
func (s *chatServer) client() *OpenAIClient {
	return NewOpenAIClient(OpenAIOptions{BaseURL: s.URL + "/v1", Model: "test-model", APIKey: "test-key"})
}

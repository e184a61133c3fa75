// Package chattest is a fake chat completions server for the tests of
// package llm and its clients: an httptest server that answers
// POST /v1/chat/completions with scripted replies and records what it was
// asked, so a test can go through the real OpenAI SDK without a model.
package chattest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Request is what the server reads of one chat completions request.
// Authorization is the request's Authorization header.
type Request struct {
	Model         string    `json:"model"`
	Temperature   *float64  `json:"temperature"`
	Messages      []Message `json:"messages"`
	Authorization string    `json:"-"`
}

// Message is one message of a Request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Reply is one scripted answer: Text is the assistant's message, or with
// a Status other than 0 and 200, the error message of an error answer.
type Reply struct {
	Status int
	Text   string
}

// Server answers the n-th request with the n-th Reply (the last one
// repeats) and records every request. It is safe for concurrent use.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
}

// New starts a server with the replies (at least one) and closes it when
// the test ends.
func New(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	if len(replies) == 0 {
		t.Fatal("chattest: New needs at least one reply")
	}
	s := &Server{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the API root to give a client: the server's URL and "/v1".
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Calls returns a copy of the requests received so far, in order.
func (s *Server) Calls() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Authorization = r.Header.Get("Authorization")
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	rep := s.replies[min(n, len(s.replies)-1)]
	s.mu.Unlock()
	write(w, rep)
}

// write writes rep as a chat completions answer: a completion with one
// choice, or an OpenAI-style error object with rep.Status.
func write(w http.ResponseWriter, rep Reply) {
	w.Header().Set("Content-Type", "application/json")
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.WriteHeader(rep.Status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": rep.Text, "type": "server_error"}})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": rep.Text}}},
	})
}

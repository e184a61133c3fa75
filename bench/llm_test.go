package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
	"github.com/moonmind-ai/moonmind/luabind"
)

// BenchmarkLLMWaitingTick is one World.Tick of 100 agents whose bodies
// wait in npc:llm_plan on a model server that sleeps through the whole
// benchmark: what asking a model costs the game loop while the answers
// are out (budget: under 1 ms).
func BenchmarkLLMWaitingTick(b *testing.B) {
	w, done := llmWaitingWorld(b)
	defer done()
	b.ReportAllocs()
	for b.Loop() {
		w.Tick(1.0 / 60)
	}
	b.StopTimer()
	for _, a := range w.Agents {
		if v, _ := a.Get("done").AsBool(); v {
			b.Fatal("an agent got an answer from a server that never answers")
		}
	}
}

// llmWaitingWorld is BenchmarkLLMWaitingTick's world: 100 agents whose
// bodies wait in npc:llm_plan on a server that never answers, after the
// tick where they all asked. done closes the server, the planner and the
// runtime.
func llmWaitingWorld(tb testing.TB) (*engine.World, func()) {
	const agents = 100
	gate := make(chan struct{})
	arrived := make(chan struct{}, agents)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-gate:
		case <-r.Context().Done():
		}
	}))
	var closers []func()
	done := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	closers = append(closers, srv.Close, func() { close(gate) })
	planner, err := llm.NewDynamicPlanner(openaichat.New(openaichat.Options{BaseURL: srv.URL + "/v1", Model: "m"})).Build()
	if err != nil {
		done()
		tb.Fatal(err)
	}
	rt := luabind.NewRuntime(luabind.Options{})
	closers = append(closers, rt.Close)
	l, err := rt.EnableLLM(luabind.LLMOptions{Planner: planner})
	if err != nil {
		done()
		tb.Fatal(err)
	}
	closers = append(closers, func() { l.Close() })
	d, err := rt.LoadDomain(filepath.Join("testdata", "llm_waiter.lua"))
	if err != nil {
		done()
		tb.Fatal(err)
	}
	w := engine.NewWorld(1)
	for i := range agents {
		w.Add(engine.NewAgent(fmt.Sprintf("c%d", i), d))
	}
	w.Tick(1.0 / 60) // every agent asks
	for range agents {
		<-arrived // every request sleeps at the server
	}
	return w, done
}

package luabind

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// fakeModel is an httptest server that speaks chat completions with one
// scripted reply. With a gate, each request reports its arrival and then
// sleeps until the gate opens (or the client gives up).
type fakeModel struct {
	*httptest.Server
	status   int
	reply    string
	gate     chan struct{}
	arrived  chan struct{}
	answered atomic.Int32
	mu       sync.Mutex
	systems  []string
}

func newFakeModel(t *testing.T, reply string, gated bool) *fakeModel {
	m := &fakeModel{reply: reply, arrived: make(chan struct{}, 1000)}
	if gated {
		m.gate = make(chan struct{})
	}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		m.mu.Lock()
		if len(req.Messages) > 0 {
			m.systems = append(m.systems, req.Messages[0].Content)
		}
		m.mu.Unlock()
		m.arrived <- struct{}{}
		if m.gate != nil {
			select {
			case <-m.gate:
			case <-r.Context().Done():
				return
			}
		}
		defer m.answered.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if m.status != 0 {
			w.WriteHeader(m.status)
			_, _ = w.Write([]byte(`{"error": {"message": "down"}}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": m.reply}}}})
	}))
	t.Cleanup(func() {
		if m.gate != nil {
			select {
			case <-m.gate:
			default:
				close(m.gate)
			}
		}
		m.Close()
	})
	return m
}

func (m *fakeModel) planner(t *testing.T, rails ...llm.GuardRail) *llm.DynamicPlanner {
	c := openaichat.New(openaichat.Options{BaseURL: m.URL + "/v1", Model: "m"})
	p, err := llm.NewDynamicPlanner(c).GuardRails(rails...).Build()
	require.NoError(t, err)
	return p
}

const twoSteps = "```json\n{\"reasoning\": \"crate first\", \"steps\": [{\"action\": \"fetchMagazine\", \"arguments\": {\"crate\": \"north\"}}, {\"action\": \"reload\"}]}\n```"

// commanders loads n commanders in mode, with npc:llm_plan enabled.
func commanders(t *testing.T, n int, mode string, o LLMOptions) (*world, *LLM) {
	t.Helper()
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	t.Cleanup(rt.Close)
	l, err := rt.EnableLLM(o)
	require.NoError(t, err)
	t.Cleanup(l.Close)
	names := make([]string, n)
	files := make([]string, n)
	for i := range names {
		names[i], files[i] = "c"+itoa(i), "llm_commander.lua"
	}
	wd := newWorld(t, rt, names, files)
	for _, a := range wd.w.Agents {
		require.True(t, a.Set("mode", expr.StringValue(mode)))
	}
	return wd, l
}

func str(a *engine.Agent, name string) string { s, _ := a.Get(name).AsString(); return s }

func kinds(wd *world, k record.EventKind) []record.Event {
	var out []record.Event
	for _, e := range wd.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func TestLLMPlanAnswerAtADefinedTick(t *testing.T) {
	m := newFakeModel(t, twoSteps, false)
	wd, _ := commanders(t, 1, "plain", LLMOptions{Planner: m.planner(t), DeliverAfterTicks: 3})
	a := wd.agents["c0"]
	wd.run(3, 0.1)
	assert.Equal(t, expr.BoolValue(false), a.Get("done"), "the body still waits after 2 ticks of waiting")
	wd.run(1, 0.1)
	assert.Equal(t, expr.BoolValue(true), a.Get("done"), "the answer reached the body on the third tick after the request")
	assert.Equal(t, "fetchMagazine,reload", str(a, "actions"))
	assert.Equal(t, "north", str(a, "arg"), "arguments are a Lua table")

	req, ans := kinds(wd, record.EventLLMRequest), kinds(wd, record.EventLLMAnswer)
	require.Len(t, req, 1)
	require.Len(t, ans, 1)
	assert.Equal(t, 1, req[0].Tick)
	assert.Equal(t, "get armed", req[0].Goal)
	assert.Equal(t, "ask", req[0].Action)
	assert.Equal(t, 4, ans[0].Tick)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, ans[0].Plan)
	assert.JSONEq(t, `{"goal": "get armed", "reasoning": "crate first", "steps": [
		{"index": 0, "action": "fetchMagazine", "description": "", "arguments": {"crate": "north"}},
		{"index": 1, "action": "reload", "description": "", "arguments": {}}]}`, ans[0].Reason, "the answer is in the trace")
	m.mu.Lock()
	defer m.mu.Unlock()
	require.Len(t, m.systems, 1)
	assert.Contains(t, m.systems[0], "- fetchMagazine: makes magazines = magazines + 1; cost 2", "the role's actions are the capabilities")
}

func TestLLMPlanReplaysWithoutTheModel(t *testing.T) {
	m := newFakeModel(t, twoSteps, false)
	wd, _ := commanders(t, 2, "grounded", LLMOptions{Planner: m.planner(t), DeliverAfterTicks: 2})
	wd.run(8, 0.1)
	recorded := wd.events
	require.Len(t, kinds(wd, record.EventLLMAnswer), 2)

	replay, _ := commanders(t, 2, "grounded", LLMOptions{Replay: recorded})
	replay.run(8, 0.1)
	assert.Equal(t, eventLines(recorded), eventLines(replay.events), "the same trace, with no model")
	assert.Equal(t, "fetchMagazine,reload", str(replay.agents["c1"], "actions"))
}

func eventLines(es []record.Event) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

func TestLLMPlanTimeoutWhileTheServerSleeps(t *testing.T) {
	m := newFakeModel(t, twoSteps, true)
	wd, _ := commanders(t, 1, "timeout", LLMOptions{Planner: m.planner(t)})
	a := wd.agents["c0"]
	wd.run(1, 0.1)
	<-m.arrived // the request is at the server, which sleeps
	wd.run(2, 0.1)
	assert.Equal(t, expr.BoolValue(false), a.Get("done"))
	wd.run(1, 0.1) // 0.3 s of game time waited
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	assert.Equal(t, "timeout", str(a, "why"))
	assert.Equal(t, int32(0), m.answered.Load(), "the server never answered")
	ans := kinds(wd, record.EventLLMAnswer)
	require.Len(t, ans, 1)
	assert.Equal(t, "timeout", ans[0].Reason)
}

func TestLLMPlanOutcomes(t *testing.T) {
	tests := []struct {
		name, mode, reply string
		status            int
		rails             []llm.GuardRail
		actions, why      string
		calls             int
	}{
		{name: "grounded, GOAP fallback", mode: "grounded", reply: `[{"action": "reload"}]`,
			actions: "fetchMagazine,reload", calls: 1},
		{name: "grounded, rejected", mode: "strict", reply: `[{"action": "reload"}]`,
			why: `rejected: step 0 (reload): the precondition of "reload", magazines > 0, does not hold`, calls: 1},
		{name: "server error", mode: "plain", status: 500,
			why: "error: llm: chat completion: the server answered 500 Internal Server Error", calls: 1},
		{name: "refused by a guard rail, no call", mode: "plain", rails: []llm.GuardRail{llm.DenyWords("armed")},
			why: `refused: llm: goal refused by guard rail deny-words: the goal contains the denied word "armed"`},
		{name: "garbage reply is an empty plan", mode: "plain", reply: "no idea", calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newFakeModel(t, tt.reply, false)
			m.status = tt.status
			wd, l := commanders(t, 1, tt.mode, LLMOptions{Planner: m.planner(t, tt.rails...)})
			a := wd.agents["c0"]
			wd.run(1, 0.1)
			l.Wait() // the answer has arrived: the next tick delivers it
			wd.run(1, 0.1)
			assert.Equal(t, expr.BoolValue(true), a.Get("done"))
			assert.Equal(t, tt.actions, str(a, "actions"))
			assert.Equal(t, tt.why, str(a, "why"))
			assert.Len(t, m.arrived, tt.calls)
		})
	}
}

func TestLLMPlanCapabilitiesAndBadOptions(t *testing.T) {
	m := newFakeModel(t, "[]", false)
	wd, l := commanders(t, 1, "caps", LLMOptions{Planner: m.planner(t)})
	wd.run(1, 0.1)
	l.Wait()
	wd.run(1, 0.1)
	a := wd.agents["c0"]
	assert.Equal(t, expr.NumberValue(0), a.Get("plan_size"))
	m.mu.Lock()
	sys := m.systems[0]
	m.mu.Unlock()
	assert.Contains(t, sys, "- reload: needs magazines > 0; makes ammo = 30, magazines = magazines - 1; cost 1\n- shout: yell\n")
	assert.NotContains(t, sys, "fetchMagazine")

	bad, _ := commanders(t, 1, "badopt", LLMOptions{Planner: m.planner(t)})
	bad.run(1, 0.1)
	fail := bad.first("c0", record.EventFail)
	require.NotNil(t, fail)
	assert.Contains(t, fail.Reason, `llm_commander.lua:28: npc:llm_plan: unknown option "timout" (did you mean "timeout"?)`)

	_, err := NewRuntime(Options{}).EnableLLM(LLMOptions{})
	assert.EqualError(t, err, "luabind: EnableLLM needs a Planner, a Replay or Unavailable")

	off, _ := commanders(t, 1, "plain", LLMOptions{Unavailable: true})
	off.run(1, 0.1)
	assert.Equal(t, "unavailable", str(off.agents["c0"], "why"), "no model: the script takes its fallback in the same tick")
}

// TestNoTickWaitsOnTheModel ticks 100 agents whose requests all sleep at
// the server: every tick returns while the server still sleeps.
func TestNoTickWaitsOnTheModel(t *testing.T) {
	m := newFakeModel(t, twoSteps, true)
	wd, l := commanders(t, 100, "plain", LLMOptions{Planner: m.planner(t)})
	wd.run(1, 0.1)
	for range 100 {
		<-m.arrived // all 100 requests are at the server, asleep
	}
	for tick := 0; tick < 20; tick++ {
		wd.w.Tick(0.1) // returns although no request has an answer
		require.Equal(t, int32(0), m.answered.Load(), "the server is still asleep at tick %d", tick)
	}
	for _, a := range wd.w.Agents {
		require.Equal(t, expr.BoolValue(false), a.Get("done"), a.Name)
	}
	close(m.gate)
	l.Wait()
	wd.w.Tick(0.1)
	for _, a := range wd.w.Agents {
		assert.Equal(t, "fetchMagazine,reload", str(a, "actions"), a.Name)
	}
	assert.Len(t, kinds(wd, record.EventLLMAnswer), 100)
	assert.True(t, strings.HasPrefix(kinds(wd, record.EventLLMAnswer)[0].Reason, `{"goal":"get armed"`))
}

func TestReplayPairsRequestsWithTheirAnswers(t *testing.T) {
	ev := func(tick int, agent string, k record.EventKind, reason string) record.Event {
		return record.Event{Tick: tick, Agent: agent, Kind: k, Reason: reason}
	}
	got := replayAnswers([]record.Event{
		ev(1, "a", record.EventLLMRequest, ""),
		ev(1, "b", record.EventLLMRequest, ""),
		ev(3, "a", record.EventLLMAnswer, "timeout"),
		ev(5, "a", record.EventLLMRequest, ""), // interrupted before its answer
		ev(9, "a", record.EventLLMRequest, ""),
		ev(9, "a", record.EventLLMAnswer, "refused: x"),
		ev(12, "b", record.EventLLMAnswer, "{}"),
		ev(13, "c", record.EventLLMAnswer, "stray"),
	})
	assert.Equal(t, map[string][]recordedAnswer{
		"a": {{ticks: 2, answer: "timeout"}, {ticks: -1}, {ticks: 0, answer: "refused: x"}},
		"b": {{ticks: 11, answer: "{}"}},
	}, got)
}

func TestLLMPlanReplaysFromJSONLines(t *testing.T) {
	m := newFakeModel(t, twoSteps, false)
	wd, _ := commanders(t, 1, "plain", LLMOptions{Planner: m.planner(t), DeliverAfterTicks: 2})
	wd.run(5, 0.1)
	var file strings.Builder
	require.NoError(t, record.WriteJSONLines(&file, wd.events))

	var read []record.Event
	for _, line := range strings.Split(strings.TrimSpace(file.String()), "\n") {
		var e record.Event
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		read = append(read, e)
	}
	replay, _ := commanders(t, 1, "plain", LLMOptions{Replay: read})
	replay.run(5, 0.1)
	assert.Equal(t, eventLines(wd.events), eventLines(replay.events), "a trace file replays without the model")

	var k record.EventKind
	assert.EqualError(t, k.UnmarshalText([]byte("nap")), `engine: no record kind "nap"`)
}

package luabind

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// runPromises runs one agent of testdata/semantics/file for ticks of 0.1 s
// and returns it with its records, one line each: tick, kind, action or
// plan, reason.
func runPromises(t *testing.T, file string, ticks int) (*engine.Agent, []string) {
	t.Helper()
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("npc", d)
	w.Add(a)
	var got []string
	w.OnEvent = func(e record.Event) {
		line := fmt.Sprintf("%d %s %s%s", e.Tick, e.Kind, e.Action, strings.Join(e.Plan, ","))
		if e.Reason != "" {
			line += ": " + e.Reason
		}
		got = append(got, line)
	}
	for i := 0; i < ticks; i++ {
		w.Tick(0.1)
	}
	return a, got
}

// pick returns the lines of got whose kind (the second word) is one of
// kinds.
func pick(got []string, kinds ...string) []string {
	var out []string
	for _, l := range got {
		f := strings.Fields(l)
		for _, k := range kinds {
			if len(f) > 1 && f[1] == k {
				out = append(out, l)
			}
		}
	}
	return out
}

func TestBrokenPromisesBackOff(t *testing.T) {
	tests := []struct {
		name, reason string
		file         string
		want         []string // the plan, plan-failed, finish and replan records of the first ticks
		done         string   // the variable that holds at the end, or "" when none does
	}{
		{name: "an honest alternative", reason: "pretend breaks its promise twice in a row, is backed off, and the dearer build runs",
			file: "pretend.lua", done: "x", want: []string{
				"1 plan pretend",
				"1 finish pretend: promised effects not met: x = true (is false)",
				"2 plan pretend",
				"2 finish pretend: promised effects not met: x = true (is false); backed off for 1 s after 2 broken promises in a row",
				"3 plan build: left out: pretend (backed off for 0.9 s after a failure)",
				"3 finish build",
			}},
		{name: "a typed body forgets its output", reason: "summarize never stores Summary: backed off, tried again when the back-off ends",
			file: "forgetful.lua", want: []string{
				"1 plan research,summarize",
				"1 finish research",
				"2 finish summarize: promised effects not met: Summary = true (is false)",
				"3 plan summarize",
				"3 finish summarize: promised effects not met: Summary = true (is false); backed off for 1 s after 2 broken promises in a row",
				"4 plan-failed : BACKED_OFF: a plan exists only through action \"summarize\", which is backed off after a failure (0.9 s left)",
				"13 plan summarize",
				"13 finish summarize: promised effects not met: Summary = true (is false); backed off for 1 s after 3 broken promises in a row",
			}},
		{name: "a critique that only looks", reason: "critique promises reportSatisfactory twice in vain; the remedy redoResearch is tried next",
			file: "critique.lua", done: "Published", want: []string{
				"1 plan research,writeReport,critique,publish",
				"1 finish research",
				"2 finish writeReport",
				"3 finish critique: broken promise: reportSatisfactory",
				"4 replan publish: precondition \"reportSatisfactory && Report\" of the next step no longer holds",
				"4 plan critique,publish",
				"4 finish critique: broken promise: reportSatisfactory; backed off for 1 s after 2 broken promises in a row",
				"5 replan publish: precondition \"reportSatisfactory && Report\" of the next step no longer holds",
				"5 plan redoResearch,publish",
				"5 finish redoResearch",
				"6 finish publish",
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, got := runPromises(t, tc.file, 30)
			got = pick(got, "plan", "plan-failed", "finish", "replan")
			require.GreaterOrEqual(t, len(got), len(tc.want))
			assert.Equal(t, tc.want, got[:len(tc.want)], tc.reason)
			if tc.done != "" {
				assert.Equal(t, expr.BoolValue(true), a.Get(tc.done), tc.reason)
				assert.Len(t, got, len(tc.want), "nothing more once the goal holds")
			}
		})
	}
}

func TestOnlyBrokenPromisesIsStuck(t *testing.T) {
	a, got := runPromises(t, "pretend_only.lua", 150)
	stuck := pick(got, "stuck", "summary")
	require.Len(t, stuck, 2, "STUCK once, with its summary line")
	assert.Equal(t, "101 stuck : no progress for 10 s", stuck[0], "finishing with a broken promise is no progress")
	assert.Equal(t, `101 summary : [flight-recorder] status=STUCK plans=11 plan-failures=10 replans=0 picks=0 started=11 finished=11 failed=0 interrupted=0 last="finish pretend"`, stuck[1])
	assert.True(t, a.Stuck())
	assert.Equal(t, 16, a.Recorder.Count(record.EventPlan), "one try per back-off, not one a tick (150 before)")
}

func TestReloadFromInsideABodyIsRefused(t *testing.T) {
	var rt *Runtime
	var w *engine.World
	host := map[string]HostFunc{"reload_scripts": func(c *HostCall) (bool, error) {
		_, err := rt.Reload("reloader.lua", w.Agents)
		if err != nil {
			c.Results = []expr.Value{expr.BoolValue(false), expr.StringValue(err.Error())}
		} else {
			c.Results = []expr.Value{expr.BoolValue(true)}
		}
		return true, nil
	}}
	rt = NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics"), Host: host})
	defer rt.Close()
	d, err := rt.LoadDomain("reloader.lua")
	require.NoError(t, err)
	w = engine.NewWorld(1)
	a := engine.NewAgent("npc", d)
	w.Add(a)
	require.NotPanics(t, func() {
		for range 3 {
			w.Tick(0.1)
		}
	})
	assert.Equal(t, expr.StringValue("false luabind: reload reloader.lua: a script of this runtime is running (an action body, or a host method it called); reload between ticks"),
		a.Get("answer"))
	assert.Equal(t, expr.BoolValue(true), a.Get("done"), "the body went on")
	assert.Same(t, d, a.Domain)
	n, err := rt.Reload("reloader.lua", w.Agents)
	require.NoError(t, err, "between ticks it reloads")
	assert.Equal(t, 1, n)
}

func TestSensorTimersSurviveAReload(t *testing.T) {
	dir := t.TempDir()
	role := filepath.Join(dir, "clock.lua")
	copyFile(t, filepath.Join("testdata", "decisions", "clock.lua"), role)
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("clock.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("c", d)
	w.Add(a)
	for range 50 {
		w.Tick(0.1)
	}
	copyFile(t, filepath.Join("testdata", "semantics", "clock_v2.lua"), role)
	n, err := rt.Reload("clock.lua", w.Agents)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	for range 10 {
		w.Tick(0.1)
	}
	played, _ := a.Get("played").AsNumber()
	looked, _ := a.Get("looked").AsNumber()
	fresh, _ := a.Get("fresh").AsNumber()
	assert.InDelta(t, 6.0, played, 1e-9, "an every-tick sensor summing its dt reads 6 s after 6 s of play, reload or not (10.9 when its timer restarted at 0)")
	assert.InDelta(t, 5.6, looked, 1e-9, "runs every 0.5 s from t = 0 on, across the reload at 5 s")
	assert.InDelta(t, 1.0, fresh, 1e-9, "a sensor the reload added starts with the tick's dt")
}

// TestRestoreWithARuntimePerWorker restores a world whose agents are
// pinned to two workers, each with its own runtime, the way
// docs/save-and-load.md shows: Domains with one domain per runtime is
// refused (it would bind every agent to the first runtime while two
// workers tick them), and the Domain callback gives each agent its
// worker's domain.
func TestRestoreWithARuntimePerWorker(t *testing.T) {
	const workers, agents = 2, 4
	var rts [workers]*Runtime
	var ds [workers]*engine.Domain
	for k := range rts {
		rts[k] = NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
		defer rts[k].Close()
		var err error
		ds[k], err = rts[k].LoadDomain("pretend.lua")
		require.NoError(t, err)
	}
	w := engine.NewWorld(3)
	w.Workers = workers
	for i := range agents {
		k := i * workers / agents
		w.Add(engine.NewAgent(fmt.Sprint("npc", i), ds[k]))
		w.Pin(i, k)
	}
	w.Tick(0.1)
	var buf strings.Builder
	require.NoError(t, w.Snapshot(&buf))

	_, err := engine.Restore(strings.NewReader(buf.String()), engine.RestoreOptions{Domains: ds[:]})
	require.Error(t, err)
	assert.Equal(t, `engine: restore: RestoreOptions.Domains has two domains named "Pretender" (one per worker's runtime?); give RestoreOptions.Domain, which returns the domain of the worker each agent is pinned to`, err.Error())

	w2, err := engine.Restore(strings.NewReader(buf.String()), engine.RestoreOptions{
		Domain: func(agent string, pin int, domain string) (*engine.Domain, error) { return ds[pin], nil },
	})
	require.NoError(t, err)
	for i, a := range w2.Agents {
		assert.Same(t, ds[i*workers/agents], a.Domain, "agent %d gets its worker's runtime", i)
	}
	for range 5 {
		w2.Tick(0.1)
	}
	for _, a := range w2.Agents {
		assert.Equal(t, expr.BoolValue(true), a.Get("x"))
	}
}

func TestAFailurePlanReadsWhyTheGoalFailed(t *testing.T) {
	a, got := runPromises(t, "why_failed.lua", 3)
	assert.Contains(t, got, "1 plan-chosen walk to the river", "the trigger's third argument is the event: it took the plan for a dry well, not for a rope")
	why, _ := a.Get("why").AsString()
	assert.Contains(t, why, "the well is dry", "the body's third argument carries the failure's message")
	assert.Contains(t, why, filepath.Join("testdata", "semantics", "why_failed.lua")+":9:", "with the file and line of the error")
}

func TestPostInTheWrongFormSaysWhichWasMeant(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
	defer rt.Close()
	_, err := rt.LoadDomain("bad_post.lua")
	require.Error(t, err)
	f := filepath.Join("testdata", "semantics", "bad_post.lua")
	assert.Equal(t, f+`:7:67: action "draft": post "ok" is a string, which is another name for effects ("variable = value, ..."); to promise named conditions, list them: post = { "ok" }`+"\n"+
		f+`:8:7: action "mark" post "Marked = true" is an effect, but a post list names the named conditions the action promises: put the effect in effects`,
		err.Error(), "each says which form was meant; no clause the designer never wrote (expected \"=\", found \",\" in \"ok, Draft = true\")")
}

func TestSharedLocalErrorNamesTheFileThatDeclaresIt(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "counting.lua"), []byte(`local M = {}
local runs = 0
function M.run(npc)
  runs = runs + 1
  npc.state.k = runs
end
return M
`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "user.lua"), []byte(`local counting = require("counting")
return { name = "User", state = { k = 0 }, decide = "utility",
  actions = { { name = "count", effects = "k = k + 1", run = counting.run } } }
`), 0o644))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("user.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var fails []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails = append(fails, e.Reason)
		}
	}
	w.Add(engine.NewAgent("a", d))
	w.Tick(0.1)
	require.Len(t, fails, 1)
	assert.Equal(t, sharedMsg(filepath.Join(dir, "counting.lua")+":4", "runs", "counting.lua"), fails[0],
		"the local is the module's, which the role's action runs")
}

func TestLLMPlanReviewFromLua(t *testing.T) {
	const reply = `{"steps": [{"action": "fetchMagazine"}, {"action": "shout"}, {"action": "reload"}]}`
	tests := []struct {
		mode, reason string
		actions, why string
	}{
		{mode: "approve", reason: "true takes the plan as it is", actions: "fetchMagazine,shout,reload"},
		{mode: "reject", reason: "false and a reason", why: "rejected: too risky"},
		{mode: "reject_table", reason: "{reject = reason}", why: "rejected: not now"},
		{mode: "remove", reason: "1-based indexes, as the steps table", actions: "fetchMagazine,reload"},
		{mode: "order", reason: "order[k] is the step that comes k-th", actions: "reload,fetchMagazine,shout"},
		{mode: "modify", reason: "removed first, then the rest reordered", actions: "reload,shout"},
		{mode: "bad", reason: "a decision that does not fit the plan", why: "error: llm: review decision reorder([0 0 1]): llm: order names step 0 twice"},
		{mode: "by_name", reason: "the review reads the steps", actions: "fetchMagazine,reload"},
	}
	m := newFakeModel(t, reply, false)
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
			defer rt.Close()
			l, err := rt.EnableLLM(LLMOptions{Planner: m.planner(t), DeliverAfterTicks: 1})
			require.NoError(t, err)
			defer l.Close()
			d, err := rt.LoadDomain("llm_review.lua")
			require.NoError(t, err)
			w := engine.NewWorld(1)
			a := engine.NewAgent("npc", d)
			require.True(t, a.Set("mode", expr.StringValue(tc.mode)))
			w.Add(a)
			for range 3 {
				w.Tick(0.1)
			}
			require.Equal(t, expr.BoolValue(true), a.Get("done"))
			assert.Equal(t, tc.actions, str(a, "actions"), tc.reason)
			assert.Equal(t, tc.why, str(a, "why"), tc.reason)
		})
	}
}

// chatModel is a model that answers with its own name and keeps what it
// was asked.
type chatModel struct {
	name string
	mu   sync.Mutex
	reqs []llm.ChatRequest
}

func (m *chatModel) planner(t *testing.T) *llm.DynamicPlanner {
	p, err := llm.NewDynamicPlanner(llm.ClientFunc(func(_ context.Context, req llm.ChatRequest) (string, error) {
		m.mu.Lock()
		m.reqs = append(m.reqs, req)
		m.mu.Unlock()
		return `{"steps": [{"action": "` + m.name + `"}]}`, nil
	})).AdditionalContext("a game").Build()
	require.NoError(t, err)
	return p
}

func TestLLMPlanOptionsFromLua(t *testing.T) {
	tests := []struct {
		mode, reason  string
		actions, why  string
		fail          string // the action's failure, when the call is refused as a script error
		model         string // the model asked
		temp          float64
		contextSuffix string
	}{
		{mode: "plain", reason: "the game's Planner", actions: "cheap", model: "cheap", temp: llm.DefaultTemperature},
		{mode: "default", reason: "\"default\" is the Planner", actions: "cheap", model: "cheap", temp: llm.DefaultTemperature},
		{mode: "routed", reason: "the model role the call names, with its temperature and context",
			actions: "best", model: "best", temp: 0.9, contextSuffix: "a game\nthe bridge is out"},
		{mode: "action", reason: "the running action's llm_model", actions: "best", model: "best", temp: llm.DefaultTemperature},
		{mode: "denied", reason: "a guard rail of the call: no request", why: "refused: llm: goal refused by guard rail deny-words: the goal contains the denied word \"bridge\""},
		{mode: "long", reason: "a guard rail of the call: no request", why: "refused: llm: goal refused by guard rail max-length: the goal is 16 characters long, more than 5"},
		{mode: "unknown", reason: "a model the game does not offer is a script error",
			fail: `npc:llm_plan: model "bets" is not one the game offers (best, default) (did you mean "best"?)`},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			cheap, best := &chatModel{name: "cheap"}, &chatModel{name: "best"}
			rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
			defer rt.Close()
			l, err := rt.EnableLLM(LLMOptions{Planner: cheap.planner(t), Models: map[string]*llm.DynamicPlanner{"best": best.planner(t)},
				DeliverAfterTicks: 1})
			require.NoError(t, err)
			defer l.Close()
			d, err := rt.LoadDomain("llm_options.lua")
			require.NoError(t, err)
			w := engine.NewWorld(1)
			var fails []string
			w.OnEvent = func(e record.Event) {
				if e.Kind == record.EventFail {
					fails = append(fails, e.Reason)
				}
			}
			a := engine.NewAgent("npc", d)
			require.True(t, a.Set("mode", expr.StringValue(tc.mode)))
			w.Add(a)
			for range 3 {
				w.Tick(0.1)
			}
			if tc.fail != "" {
				require.NotEmpty(t, fails)
				assert.Contains(t, fails[0], tc.fail, tc.reason)
				return
			}
			assert.Equal(t, tc.actions, str(a, "actions"), tc.reason)
			assert.Equal(t, tc.why, str(a, "why"), tc.reason)
			asked := map[string]*chatModel{"cheap": cheap, "best": best}[tc.model]
			if asked == nil {
				assert.Empty(t, cheap.reqs, "no request")
				assert.Empty(t, best.reqs, "no request")
				return
			}
			require.Len(t, asked.reqs, 1)
			assert.Equal(t, tc.temp, asked.reqs[0].Temperature, tc.reason)
			if tc.contextSuffix != "" {
				assert.Contains(t, asked.reqs[0].Messages[0].Content, tc.contextSuffix, tc.reason)
			}
		})
	}
}

// TestLLMModelPrecedence: npc:llm_plan asks the model role the call
// names, else the running action's llm_model, else its role's (its own or
// the nearest parent's through extends, which the parent's actions ask
// too), else the game's Planner.
func TestLLMModelPrecedence(t *testing.T) {
	tests := []struct {
		file, mode, reason string
		model              string // the model asked
	}{
		{"llm_options.lua", "plain", "no model anywhere: the game's Planner", "default"},
		{"llm_role.lua", "plain", "the role's llm_model", "cheapest"},
		{"llm_role.lua", "action", "the action's llm_model over the role's", "best"},
		{"llm_role.lua", "call", "the call's model over the role's", "best"},
		{"llm_role.lua", "call_over_action", "the call's model over the action's", "default"},
		{"llm_role_child.lua", "plain", "inherited through extends", "cheapest"},
		{"llm_role_child.lua", "action", "an inherited action's own llm_model over the inherited role's", "best"},
		{"llm_role_override.lua", "plain", "the child's llm_model, for the parent's actions too", "best"},
	}
	for _, tc := range tests {
		t.Run(strings.TrimSuffix(tc.file, ".lua")+"/"+tc.mode, func(t *testing.T) {
			models := map[string]*chatModel{"default": {name: "default"}, "cheapest": {name: "cheapest"}, "best": {name: "best"}}
			rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
			defer rt.Close()
			l, err := rt.EnableLLM(LLMOptions{Planner: models["default"].planner(t), DeliverAfterTicks: 1,
				Models: map[string]*llm.DynamicPlanner{"cheapest": models["cheapest"].planner(t), "best": models["best"].planner(t)}})
			require.NoError(t, err)
			defer l.Close()
			d, err := rt.LoadDomain(tc.file)
			require.NoError(t, err)
			w := engine.NewWorld(1)
			a := engine.NewAgent("npc", d)
			require.True(t, a.Set("mode", expr.StringValue(tc.mode)))
			w.Add(a)
			for range 3 {
				w.Tick(0.1)
			}
			assert.Equal(t, tc.model, str(a, "actions"), tc.reason)
			for name, m := range models {
				want := 0
				if name == tc.model {
					want = 1
				}
				assert.Len(t, m.reqs, want, "requests to %s", name)
			}
		})
	}
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
	defer rt.Close()
	_, err := rt.LoadDomain("llm_role_bad.lua")
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join("testdata", "semantics", "llm_role_bad.lua")+":3:3: role: llm_model must name a model role (a string), not number")
}

func TestLLMPlanReplansAFailedStepFromLua(t *testing.T) {
	tests := []struct {
		name, reason string
		limit        float64
		log          string
		completed    bool
		replans      float64
		last         string
		asked        int
	}{
		{name: "replanned", reason: "cross fails; the model is told and proposes swim, which completes",
			limit: 3, log: "walk:ok@0,cross:the bridge is out@0,swim:ok@1", completed: true, replans: 1, last: "swim", asked: 2},
		{name: "no replans", reason: "max_replans = 0: the failure ends the run",
			limit: 0, log: "walk:ok@0,cross:the bridge is out@0", completed: false, replans: 0, last: "walk", asked: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var prompts []string
			client := llm.ClientFunc(func(_ context.Context, req llm.ChatRequest) (string, error) {
				mu.Lock()
				defer mu.Unlock()
				user := req.Messages[len(req.Messages)-1].Content
				prompts = append(prompts, user)
				if strings.Contains(user, "A step of the plan failed") {
					return `{"steps": [{"action": "swim"}]}`, nil
				}
				return `{"steps": [{"action": "walk"}, {"action": "cross"}]}`, nil
			})
			planner, err := llm.NewDynamicPlanner(client).Build()
			require.NoError(t, err)
			rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
			defer rt.Close()
			l, err := rt.EnableLLM(LLMOptions{Planner: planner, DeliverAfterTicks: 1})
			require.NoError(t, err)
			defer l.Close()
			d, err := rt.LoadDomain("llm_execute.lua")
			require.NoError(t, err)
			w := engine.NewWorld(1)
			var recs []record.Event
			w.OnEvent = func(e record.Event) {
				if e.Kind == record.EventLLMRequest || e.Kind == record.EventLLMAnswer {
					recs = append(recs, e)
				}
			}
			a := engine.NewAgent("npc", d)
			require.True(t, a.Set("limit", expr.NumberValue(tc.limit)))
			w.Add(a)
			for range 12 {
				w.Tick(0.1)
			}
			require.Equal(t, expr.BoolValue(true), a.Get("done"))
			assert.Equal(t, tc.log, str(a, "log"), tc.reason)
			assert.Equal(t, expr.BoolValue(false), a.Get("success"), "a step failed: not a success, as in the Go engine")
			assert.Equal(t, expr.BoolValue(tc.completed), a.Get("completed"), tc.reason)
			assert.Equal(t, expr.NumberValue(tc.replans), a.Get("replans"), tc.reason)
			assert.Equal(t, tc.last, str(a, "last"), tc.reason)
			require.Len(t, prompts, tc.asked)
			if tc.asked > 1 {
				assert.Contains(t, prompts[1], "Failed step:\n2. cross\nError: the bridge is out\n", "the model is told which step failed and why")
				require.Len(t, recs, 4)
				assert.Equal(t, "replan: step 2 (cross) failed: the bridge is out", recs[2].Reason, "the replan request is recorded, so a replay answers it")

				rt2 := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "semantics")})
				defer rt2.Close()
				l2, err := rt2.EnableLLM(LLMOptions{Replay: recs})
				require.NoError(t, err)
				defer l2.Close()
				d2, err := rt2.LoadDomain("llm_execute.lua")
				require.NoError(t, err)
				w2 := engine.NewWorld(1)
				b := engine.NewAgent("npc", d2)
				w2.Add(b)
				for range 12 {
					w2.Tick(0.1)
				}
				assert.Equal(t, tc.log, str(b, "log"), "the replay repeats the run without the model")
				assert.Len(t, prompts, tc.asked)
			}
		})
	}
}

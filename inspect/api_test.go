package inspect

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestAgentsListsNameRoleGoalAction(t *testing.T) {
	f := newFixture(t, Options{})
	f.ticks(1) // the woodcutters plan and start takeAxe (two ticks long); the guard picks rest
	var rows []map[string]any
	h := f.get("/api/agents", &rows)
	require.Len(t, rows, 4)
	assert.Equal(t, "4", h.Get("X-Total-Count"))
	assert.Equal(t, map[string]any{"world": "zone1", "name": "jack", "role": "Woodcutter", "goal": "stocked",
		"action": "takeAxe", "decision": "goap", "failures": 0.0, "replans": 0.0, "stuck": false, "ticks": 1.0}, rows[0])
	assert.Equal(t, "rest", rows[3]["action"])
	assert.Equal(t, "utility", rows[3]["decision"])
	assert.Equal(t, "", rows[3]["goal"], "a utility pick serves no goal")
}

func TestAgentsFilterSortAndPage(t *testing.T) {
	f := newFixture(t, Options{})
	f.ticks(1)
	cases := []struct {
		name, query string
		want        []string
		total       string
		reason      string
	}{
		{"by role", "?role=guard", []string{"guard1"}, "1", "a substring of the role, any case"},
		{"by decision", "?decision=goap", []string{"jack", "jill", "joe"}, "3", "the woodcutters plan"},
		{"by name", "?q=ji", []string{"jill"}, "1", "a substring of the name"},
		{"sorted down", "?sort=name&desc=1", []string{"joe", "jill", "jack", "guard1"}, "4", "names in reverse"},
		{"a page", "?sort=name&offset=1&limit=2", []string{"jack", "jill"}, "4", "the total counts every match"},
		{"no match", "?action=chop", []string{}, "0", "nobody chops yet"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rows []AgentRow
			h := f.get("/api/agents"+tc.query, &rows)
			names := []string{}
			for _, r := range rows {
				names = append(names, r.Name)
			}
			assert.Equal(t, tc.want, names, tc.reason)
			assert.Equal(t, tc.total, h.Get("X-Total-Count"), tc.reason)
		})
	}
}

func TestNaturalOrderOfNames(t *testing.T) {
	assert.Equal(t, -1, naturalCompare("red2", "red10"))
	assert.Equal(t, 1, naturalCompare("red10", "red9"))
	assert.Equal(t, -1, naturalCompare("blue1", "red1"))
	assert.Equal(t, 0, naturalCompare("a01", "a1"))
}

func TestAgentViewShowsPlanWithCostsAndChangedState(t *testing.T) {
	f := newFixture(t, Options{})
	var v AgentView
	f.get("/api/worlds/zone1/agents/jack", &v) // jack is watched from now on
	f.ticks(3)                                 // takeAxe ends in tick 2; chop starts in tick 3
	f.get("/api/worlds/zone1/agents/jack", &v)
	assert.Equal(t, "stocked", v.Goal)
	assert.Equal(t, "high", v.GoalPriority)
	assert.Equal(t, "chop", v.Action)
	assert.Equal(t, []Step{
		{Action: "chop", Cost: 2, Pre: "axe", Effects: "wood = wood + 1", Running: true},
		{Action: "chop", Cost: 2, Pre: "axe", Effects: "wood = wood + 1"},
		{Action: "chop", Cost: 2, Pre: "axe", Effects: "wood = wood + 1"},
	}, v.Plan)
	assert.Equal(t, 6.0, v.PlanCost)
	assert.Equal(t, []Var{{Name: "wood", Value: "0", Kind: "number"}, {Name: "axe", Value: "true", Kind: "bool"}}, v.State,
		"axe became true in tick 2, so it did not change in tick 3")
	assert.Equal(t, []GoalRow{{Name: "stocked", Priority: "high", Condition: "wood >= 3", Current: true}}, v.Goals)
	f.ticks(1) // the first chop ends: wood changes in this tick
	f.get("/api/worlds/zone1/agents/jack", &v)
	assert.Equal(t, Var{Name: "wood", Value: "1", Kind: "number", Changed: true}, v.State[0])
	assert.False(t, v.State[1].Changed)
	require.NotEmpty(t, v.Records)
	assert.Equal(t, record.EventPlan, v.Records[0].Kind)
	assert.Equal(t, 1, v.Records[0].Seq)
	assert.Equal(t, []string{"takeAxe", "chop", "chop", "chop"}, v.Records[0].Plan)
}

func TestAgentViewShowsScoresConsiderationsAndCurve(t *testing.T) {
	f := newFixture(t, Options{})
	f.ticks(1)
	var v AgentView
	f.get("/api/worlds/zone1/agents/guard1", &v)
	require.NotNil(t, v.Utility)
	u := v.Utility
	assert.Equal(t, "rest", u.Pick)
	require.Len(t, u.Actions, 2)
	rest := u.Actions[0]
	assert.Equal(t, "rest", rest.Action)
	require.Len(t, rest.Considerations, 1)
	c := rest.Considerations[0]
	assert.Equal(t, "tired", c.Name)
	assert.Equal(t, "input", c.Kind)
	assert.Equal(t, JSONNumber(80), c.Input)
	logistic := curve.New(curve.Logistic)
	assert.InDelta(t, logistic.Eval(0.8), c.Output, 1e-12, "the output is the curve at the normalised input")
	assert.InDelta(t, c.Output, rest.Score, 1e-12)
	require.NotNil(t, c.Curve)
	assert.Equal(t, "logistic", c.Curve.Kind)
	require.Len(t, c.Curve.Y, 21)
	assert.InDelta(t, 0.5, c.Curve.Y[10], 1e-12, "a logistic curve is centred on 0.5")
	require.NotNil(t, c.Curve.X)
	assert.InDelta(t, 0.8, *c.Curve.X, 1e-12)
	patrol := u.Actions[1]
	assert.Equal(t, ScoredRow{Action: "patrol", Score: 0.5,
		Considerations: []Consideration{{Name: "duty", Kind: "func", Input: JSONNumber(0.5), Output: 0.5, Weight: 1}}}, patrol)
}

func TestRecordsSinceASequenceNumber(t *testing.T) {
	f := newFixture(t, Options{})
	f.ticks(3)
	var all, later []Record
	f.get("/api/worlds/zone1/agents/jack/records", &all)
	require.GreaterOrEqual(t, len(all), 3)
	for k, r := range all {
		assert.Equal(t, k+1, r.Seq)
	}
	f.get("/api/worlds/zone1/agents/jack/records?since=2", &later)
	assert.Equal(t, all[2:], later)
	f.ticks(2)
	var next []Record
	f.get("/api/worlds/zone1/agents/jack/records?since="+itoa(all[len(all)-1].Seq), &next)
	require.NotEmpty(t, next, "chop finished meanwhile")
	assert.Equal(t, all[len(all)-1].Seq+1, next[0].Seq)
	assert.Equal(t, record.EventFinish, next[0].Kind)
}

func TestWorldsAndUnknownNames(t *testing.T) {
	f := newFixture(t, Options{})
	f.ticks(2)
	var ws []WorldStatus
	f.get("/api/worlds", &ws)
	require.Len(t, ws, 1)
	assert.Equal(t, "zone1", ws[0].Name)
	assert.Equal(t, 2, ws[0].Tick)
	assert.InDelta(t, 0.2, ws[0].Time, 1e-12)
	assert.Equal(t, 4, ws[0].Agents)
	assert.False(t, ws[0].Control)
	resp, body := f.do("GET", "/api/worlds/zone1/agents/nobody", nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.JSONEq(t, `{"error":"inspect: no agent \"nobody\" in world \"zone1\""}`, string(body))
	resp, _ = f.do("GET", "/api/worlds/zone9/agents/jack", nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestWhyNotNamesTheFailingPrecondition(t *testing.T) {
	f := newFixture(t, Options{})
	f.ticks(1)
	var r WhyNot
	f.get("/api/worlds/zone1/agents/jack/whynot?action=chop", &r)
	assert.True(t, r.Chosen, "chop is a later step of the plan")
	assert.Equal(t, []string{
		"it is step 2 of the plan for stocked",
		"its precondition does not hold: axe  (axe = false)",
		"goals it can serve: stocked (high, unsatisfied)",
		"the agent pursues stocked (high) with takeAxe, chop, chop, chop [cost 7]",
	}, r.Lines)
	resp, body := f.do("GET", "/api/worlds/zone1/agents/jack/whynot?action=dance", nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), `role Woodcutter has no action \"dance\"`)
}

func TestTimeTravelKeepsEachTickOfAWatchedAgent(t *testing.T) {
	f := newFixture(t, Options{History: 4})
	var v AgentView
	f.get("/api/worlds/zone1/agents/jack", &v) // starts watching at tick 0
	f.ticks(6)
	var h History
	f.get("/api/worlds/zone1/agents/jack/history", &h)
	assert.Equal(t, []string{"wood", "axe"}, h.Names)
	require.Len(t, h.Frames, 4, "the ring keeps the latest History ticks")
	var ticks []int
	for _, fr := range h.Frames {
		ticks = append(ticks, fr.Tick)
	}
	assert.Equal(t, []int{3, 4, 5, 6}, ticks)
	assert.Equal(t, Frame{Tick: 4, Time: 0.4, Goal: "stocked", Action: "", Decision: "goap",
		Plan: []string{"chop", "chop"}, State: []string{"1", "true"}}, h.Frames[1], "the first chop ended in tick 4")
	assert.NotEmpty(t, h.Records)
}

func TestATraceIsInspectedOffline(t *testing.T) {
	w := engine.NewWorld(1)
	w.Add(engine.NewAgent("jack", woodcutter(t)))
	var recs []record.Event
	w.OnEvent = func(e record.Event) { recs = append(recs, e) }
	for range 5 {
		w.Tick(0.1)
	}
	ins := New(Options{Control: true})
	require.NoError(t, ins.AttachTrace("trace", recs))
	srv := httptest.NewServer(ins.Handler())
	defer srv.Close()
	var rows []AgentRow
	getJSON(t, srv.URL+"/api/agents", &rows)
	assert.Equal(t, []AgentRow{{World: "trace", Name: "jack", Goal: "stocked", Action: "chop", Decision: "goap", Ticks: 5}}, rows)
	var h History
	getJSON(t, srv.URL+"/api/worlds/trace/agents/jack/history", &h)
	require.Len(t, h.Frames, 5, "each tick has a start or a finish")
	assert.Equal(t, Frame{Tick: 2, Time: 0.1, Goal: "stocked", Decision: "goap", Plan: []string{"chop", "chop", "chop"}, State: []string{}},
		h.Frames[1], "takeAxe finished in tick 2; a trace without beliefs knows no state")
	resp, err := http.Post(srv.URL+"/api/worlds/trace/pause", "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "a trace does not tick")
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

func TestThePageIsServedUnderAnyPrefix(t *testing.T) {
	ins := New(Options{})
	mux := http.NewServeMux()
	mux.Handle("/inspect/", ins.Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for path, want := range map[string]string{"/inspect/": "<title>moonmind inspector</title>", "/inspect/app.js": "function renderAgent"} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		b := make([]byte, 64<<10)
		n, _ := resp.Body.Read(b)
		for n < len(b) {
			m, err := resp.Body.Read(b[n:])
			n += m
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, string(b[:n]), want, path)
	}
	var ws []WorldStatus
	getJSON(t, srv.URL+"/inspect/api/worlds", &ws)
	assert.Empty(t, ws)
}

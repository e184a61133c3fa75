package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestControlIsOffByDefault(t *testing.T) {
	f := newFixture(t, Options{})
	for _, path := range []string{"/api/worlds/zone1/pause", "/api/worlds/zone1/step", "/api/worlds/zone1/breakpoints"} {
		resp, body := f.do("POST", path, map[string]string{})
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, path)
		assert.JSONEq(t, `{"error":"inspect: control is off (Options.Control)"}`, string(body))
	}
	assert.True(t, f.ins.Tick(f.w, 0.1))
}

func TestPauseStepAndResume(t *testing.T) {
	f := newFixture(t, Options{Control: true})
	f.ticks(2)
	resp, _ := f.do("POST", "/api/worlds/zone1/pause", map[string]string{})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, f.ins.Paused(f.w))
	for range 3 {
		assert.False(t, f.ins.Tick(f.w, 0.1), "a paused world does not tick")
	}
	assert.Equal(t, 2, f.w.Ticks)
	var st WorldStatus
	resp, body := f.do("POST", "/api/worlds/zone1/step", map[string]string{})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.Unmarshal(body, &st))
	assert.True(t, st.Paused)
	assert.True(t, f.ins.Tick(f.w, 0.1), "one step")
	assert.False(t, f.ins.Tick(f.w, 0.1), "and only one")
	assert.Equal(t, 3, f.w.Ticks)
	resp, _ = f.do("POST", "/api/worlds/zone1/resume", map[string]string{})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, f.ins.Tick(f.w, 0.1))
	assert.Equal(t, 4, f.w.Ticks)
	assert.False(t, f.ins.Paused(f.w))
}

func TestControlNeedsJSON(t *testing.T) {
	f := newFixture(t, Options{Control: true})
	resp, err := http.Post(f.srv.URL+"/api/worlds/zone1/pause", "text/plain", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode, "a form post from another site is refused")
	assert.False(t, f.ins.Paused(f.w))
}

func TestRecordBreakpointPausesAfterTheTick(t *testing.T) {
	f := newFixture(t, Options{Control: true})
	var seen []string
	f.w.OnEvent = func(e record.Event) { seen = append(seen, e.Agent+" "+e.Kind.String()) }
	var bp Breakpoint
	resp, body := f.do("POST", "/api/worlds/zone1/breakpoints", Breakpoint{Kind: "finish", Agent: "jill"})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	require.NoError(t, json.Unmarshal(body, &bp))
	assert.Equal(t, Breakpoint{ID: 1, Kind: "finish", Agent: "jill"}, bp)
	ticked := 0
	for f.ins.Tick(f.w, 0.1) {
		ticked++
		require.Less(t, ticked, 10)
	}
	assert.Equal(t, 2, f.w.Ticks, "takeAxe finishes in tick 2")
	var ws []WorldStatus
	f.get("/api/worlds", &ws)
	assert.True(t, ws[0].Paused)
	assert.Equal(t, "breakpoint 1: a finish record of jill, at tick 2: tick    2  t=  0.100s  jill         finish      goal=stocked action=takeAxe", ws[0].Why)
	assert.Equal(t, 1, ws[0].Breakpoints[0].Hits)
	assert.Contains(t, seen, "joe finish", "the game's own OnEvent still gets every record")
	resp, _ = f.do("DELETE", "/api/worlds/zone1/breakpoints/1", map[string]string{})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	f.w.OnEvent = nil
	resp, body = f.do("POST", "/api/worlds/zone1/breakpoints", Breakpoint{Kind: "dance"})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), `no record kind \"dance\"`)
}

func TestConditionBreakpointPausesWhenItBecomesTrue(t *testing.T) {
	f := newFixture(t, Options{Control: true})
	resp, body := f.do("POST", "/api/worlds/zone1/breakpoints", Breakpoint{Agent: "jack", Condition: "wood >= 2"})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	for f.ins.Tick(f.w, 0.1) {
		require.Less(t, f.w.Ticks, 20)
	}
	assert.Equal(t, expr.NumberValue(2), f.w.Agent("jack").Get("wood"))
	assert.Equal(t, 6, f.w.Ticks, "takeAxe (2 ticks) and two chops (2 ticks each)")
	resp, _ = f.do("POST", "/api/worlds/zone1/resume", map[string]string{})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, f.ins.Tick(f.w, 0.1), "it still holds, but it held before: no pause")
	resp, body = f.do("POST", "/api/worlds/zone1/breakpoints", Breakpoint{Condition: "wood >= 2"})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), "needs an agent")
	resp, body = f.do("POST", "/api/worlds/zone1/breakpoints", Breakpoint{Agent: "jack", Condition: "wood >="})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), "col")
}

func TestSetStateOfAPausedAgent(t *testing.T) {
	f := newFixture(t, Options{Control: true})
	f.ticks(1)
	resp, body := f.do("POST", "/api/worlds/zone1/agents/jack/state", map[string]string{"name": "wood", "value": "5"})
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "%s", body)
	f.do("POST", "/api/worlds/zone1/pause", map[string]string{})
	resp, body = f.do("POST", "/api/worlds/zone1/agents/jack/state", map[string]string{"name": "wood", "value": "5"})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	var v AgentView
	require.NoError(t, json.Unmarshal(body, &v))
	assert.Equal(t, Var{Name: "wood", Value: "5", Kind: "number", Changed: true}, v.State[0])
	assert.Equal(t, expr.NumberValue(5), f.w.Agent("jack").Get("wood"))
	resp, body = f.do("POST", "/api/worlds/zone1/agents/jack/state", map[string]string{"name": "wod", "value": "5"})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), `no state variable \"wod\" (did you mean \"wood\"?)`)
}

func TestReloadCallsTheGame(t *testing.T) {
	var got string
	f := newFixture(t, Options{Control: true, Reload: func(world string, w *engine.World) (string, error) {
		got = world
		if w.Ticks == 0 {
			return "", errors.New("scripts/woodcutter.lua:3:7: unexpected symbol")
		}
		return "4 agents updated", nil
	}})
	resp, body := f.do("POST", "/api/worlds/zone1/reload", map[string]string{})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.JSONEq(t, `{"error":"scripts/woodcutter.lua:3:7: unexpected symbol"}`, string(body))
	f.ticks(1)
	resp, body = f.do("POST", "/api/worlds/zone1/reload", map[string]string{})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"message":"4 agents updated"}`, string(body))
	assert.Equal(t, "zone1", got)
}

func TestOtherMachinesNeedAToken(t *testing.T) {
	open := New(Options{})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/worlds", nil) // from 192.0.2.1
	open.Handler().ServeHTTP(rec, req)
	assert.Equal(t, http.StatusForbidden, rec.Code)
	assert.Contains(t, rec.Body.String(), "need a token")

	locked := New(Options{Token: "s3cret"})
	for _, tc := range []struct {
		name string
		set  func(r *http.Request)
		want int
	}{
		{"none", func(*http.Request) {}, http.StatusUnauthorized},
		{"wrong", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, http.StatusUnauthorized},
		{"header", func(r *http.Request) { r.Header.Set("Authorization", "Bearer s3cret") }, http.StatusOK},
		{"cookie", func(r *http.Request) { r.AddCookie(&http.Cookie{Name: cookie, Value: "s3cret"}) }, http.StatusOK},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/api/worlds", nil)
		tc.set(req)
		locked.Handler().ServeHTTP(rec, req)
		assert.Equal(t, tc.want, rec.Code, tc.name)
	}
	rec = httptest.NewRecorder()
	locked.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/?token=s3cret", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Header().Get("Set-Cookie"), cookie+"=s3cret", "the page keeps the token for its requests")

	_, err := open.Listen("0.0.0.0:0")
	assert.EqualError(t, err, "inspect: 0.0.0.0:0 is not a loopback address: set a token to serve other machines")
	s, err := open.Listen("127.0.0.1:0")
	require.NoError(t, err)
	var ws []WorldStatus
	getJSON(t, s.URL+"api/worlds", &ws)
	assert.Empty(t, ws)
	require.NoError(t, s.Close())
}

func TestAFullQueueRefusesAndCounts(t *testing.T) {
	f := newFixture(t, Options{Queue: 1, Wait: 300 * time.Millisecond})
	// Nobody ticks: the first request waits in the queue, the second is refused.
	first := make(chan int, 1)
	go func() {
		resp, err := http.Get(f.srv.URL + "/api/agents")
		if err == nil {
			resp.Body.Close()
			first <- resp.StatusCode
		} else {
			first <- 0
		}
	}()
	a := f.ins.named("zone1")
	require.Eventually(t, func() bool { return len(a.reqs) == 1 }, 5*time.Second, time.Millisecond)
	resp, err := http.Get(f.srv.URL + "/api/agents")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, http.StatusGatewayTimeout, <-first, "no tick came within Wait")
	assert.Equal(t, int64(1), a.statusHere().DroppedRequests)
	f.ins.Idle(f.w) // answers the stale request; its reader is gone
	assert.Empty(t, a.reqs)
}

func TestLivePageGetsUpdatesAndAStalledOneNeverBlocksATick(t *testing.T) {
	f := newFixture(t, Options{PushEvery: time.Nanosecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wsURL := "ws" + f.srv.URL[len("http"):] + "/api/ws?world=zone1&agent=jack"
	c, _, err := websocket.Dial(ctx, wsURL, nil)
	require.NoError(t, err)
	defer c.CloseNow()
	a := f.ins.named("zone1")
	require.Eventually(t, func() bool { return a.nsubs.Load() == 1 }, 5*time.Second, time.Millisecond)

	f.ticks(1)
	_, msg, err := c.Read(ctx)
	require.NoError(t, err)
	var u update
	require.NoError(t, json.Unmarshal(msg, &u))
	assert.Equal(t, "jack", u.Agent.Name)
	assert.Equal(t, "takeAxe", u.Agent.Action)
	assert.Equal(t, 1, u.World.Tick)

	// The page stops reading: 3000 ticks go on, and the updates it did not
	// take are dropped and counted.
	done := make(chan struct{})
	var once sync.Once
	go func() {
		f.ticks(3000) // more than the socket buffers hold, so the writer stalls too
		once.Do(func() { close(done) })
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a stalled page blocked the ticks")
	}
	assert.Equal(t, 3001, f.w.Ticks)
	assert.Positive(t, a.droppedPush.Load())
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
	require.Eventually(t, func() bool { return a.nsubs.Load() == 0 }, 5*time.Second, time.Millisecond)
}

func TestNothingWatchedCostsNoWork(t *testing.T) {
	f := newFixture(t, Options{})
	a := f.ins.named("zone1")
	assert.False(t, a.busy())
	allocs := testing.AllocsPerRun(100, func() { a.after() })
	assert.Zero(t, allocs, "with no page attached, the work after a tick allocates nothing")
}

func TestReadyHoldsAPausedWorldForAGameWithItsOwnStep(t *testing.T) {
	f := newFixture(t, Options{Control: true})
	steps := 0
	step := func() {
		if f.ins.Ready(f.w) {
			f.w.Tick(0.1) // the game's own step
			steps++
			f.ins.AfterTick(f.w)
		}
	}
	step()
	f.do("POST", "/api/worlds/zone1/pause", map[string]string{})
	step()
	step()
	assert.Equal(t, 1, steps, "no step while paused")
	f.do("POST", "/api/worlds/zone1/step", map[string]string{})
	step()
	step()
	assert.Equal(t, 2, steps, "one step asked, one taken")
	assert.Equal(t, 2, f.w.Ticks)
}

func TestDetachClosesTheLivePage(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+f.srv.URL[len("http"):]+"/api/ws?world=zone1&agent=jack", nil)
	require.NoError(t, err)
	defer c.CloseNow()
	f.ins.Detach(f.w)
	_, _, err = c.Read(ctx)
	assert.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err), "%v", err)
	assert.True(t, f.ins.Tick(f.w, 0.1), "a detached world ticks as if never attached")
	require.NoError(t, f.ins.Attach("zone1", f.w), "the name is free again")
}

func TestTickWithNoPageAllocatesNothing(t *testing.T) {
	w := engine.NewWorld(1) // no agents: what is left is the inspector's own work
	ins := New(Options{})
	require.NoError(t, ins.Attach("empty", w))
	assert.Zero(t, testing.AllocsPerRun(100, func() { ins.Tick(w, 0.1) }))
}

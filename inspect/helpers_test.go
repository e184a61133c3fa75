package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// slow is a body that runs for its ticks, then makes the action's effects
// true.
type slow struct{ ticks int }

func (b slow) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &slowTask{left: b.ticks, a: a, act: act}, nil
}

type slowTask struct {
	left int
	a    *engine.Agent
	act  *engine.Action
}

func (t *slowTask) Resume(float64) (engine.Status, error) {
	if t.left--; t.left > 0 {
		return engine.Running, nil
	}
	return engine.ApplyEffects(t.a, t.act)
}

func (t *slowTask) Interrupt() {}

// woodcutter plans takeAxe, chop, chop, chop; each step takes two ticks.
func woodcutter(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Woodcutter",
		State: []engine.Var{{Name: "wood", Value: expr.NumberValue(0)}, {Name: "axe", Value: expr.BoolValue(false)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "wood >= 3", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("takeAxe").Effects("axe = true").Body(slow{2}).Spec(),
			engine.NewAction("chop").Pre("axe").Effects("wood = wood + 1").Cost(2).Body(slow{2}).Spec(),
		},
	})
	require.NoError(t, err)
	return d
}

// guard decides by utility: rest scores by a logistic curve over
// tiredness, patrol by a constant.
func guard(t *testing.T) *engine.Domain {
	t.Helper()
	logistic := curve.New(curve.Logistic)
	d, err := engine.Compile(engine.RoleSpec{
		Name:   "Guard",
		Decide: "utility",
		State:  []engine.Var{{Name: "tired", Value: expr.NumberValue(80)}},
		Actions: []engine.ActionSpec{
			{Name: "rest", Effects: "tired = 0", Body: slow{3},
				Considerations: []engine.ConsiderationSpec{{Input: "tired", Min: 0, Max: 100, Curve: &logistic}}},
			{Name: "patrol", Effects: "tired = tired + 10", Body: slow{3},
				Considerations: []engine.ConsiderationSpec{{Name: "duty", Score: func(*engine.Action, expr.State) float64 { return 0.5 }}}},
		},
	})
	require.NoError(t, err)
	return d
}

// fixture is an inspector with one world of woodcutters and guards, served
// by httptest on 127.0.0.1.
type fixture struct {
	t   *testing.T
	ins *Inspector
	w   *engine.World
	srv *httptest.Server
}

func newFixture(t *testing.T, opts Options) *fixture {
	t.Helper()
	w := engine.NewWorld(1)
	wc, g := woodcutter(t), guard(t)
	for _, name := range []string{"jack", "jill", "joe"} {
		w.Add(engine.NewAgent(name, wc))
	}
	w.Add(engine.NewAgent("guard1", g))
	ins := New(opts)
	require.NoError(t, ins.Attach("zone1", w))
	return &fixture{t: t, ins: ins, w: w, srv: newServer(t, ins)}
}

// newServer serves ins on 127.0.0.1 until the test ends.
func newServer(t *testing.T, ins *Inspector) *httptest.Server {
	srv := httptest.NewServer(ins.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// do sends a request while the test goroutine plays the game: it answers
// the inspector between ticks (Idle) until the response is in. The world
// does not tick meanwhile, so what the response says is deterministic.
func (f *fixture) do(method, path string, body any) (*http.Response, []byte) {
	f.t.Helper()
	var in io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(f.t, err)
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, in)
	require.NoError(f.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	type result struct {
		resp *http.Response
		body []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- result{resp, b, err}
	}()
	for {
		select {
		case r := <-done:
			require.NoError(f.t, r.err)
			return r.resp, r.body
		default:
			f.ins.Idle(f.w)
			time.Sleep(200 * time.Microsecond)
		}
	}
}

// get decodes a JSON answer of status 200 into out.
func (f *fixture) get(path string, out any) http.Header {
	f.t.Helper()
	resp, body := f.do("GET", path, nil)
	require.Equal(f.t, http.StatusOK, resp.StatusCode, "%s: %s", path, body)
	require.NoError(f.t, json.Unmarshal(body, out), "%s", body)
	return resp.Header
}

func (f *fixture) ticks(n int) {
	for range n {
		f.ins.Tick(f.w, 0.1)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

package engine_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// waitBody is a Go body that takes Ticks resumes and then applies the
// action's effects: a step that is mid-run between ticks.
type waitBody struct{ Ticks int }

func (b waitBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &waitTask{left: b.Ticks, a: a, act: act}, nil
}

type waitTask struct {
	left int
	a    *engine.Agent
	act  *engine.Action
}

func (t *waitTask) Resume(float64) (engine.Status, error) {
	if t.left--; t.left > 0 {
		return engine.Running, nil
	}
	return engine.ApplyEffects(t.a, t.act)
}

func (t *waitTask) Interrupt() {}

// quickDomain has one-tick bodies only, a sensor that draws from the
// agent's random source, an action that fails at random (so back-offs
// happen) and a utility fallback (hybrid), so every clock and random
// source an agent keeps changes its decisions.
func quickDomain(t testing.TB) *engine.Domain {
	d, err := engine.Compile(engine.RoleSpec{
		Name: "Forager",
		State: []engine.Var{
			{Name: "hunger", Value: expr.NumberValue(0)},
			{Name: "food", Value: expr.NumberValue(0)},
			{Name: "gold", Value: expr.NumberValue(0)},
			{Name: "luck", Value: expr.NumberValue(0)},
		},
		Decide: "hybrid",
		Goals: []engine.GoalSpec{
			engine.NewGoal("fed", "hunger < 5", engine.High),
			engine.NewGoal("rich", "gold >= 3", engine.Normal),
		},
		Actions: []engine.ActionSpec{
			engine.NewAction("gather").Effects("food = food + 1").Body(engine.BodyFunc(func(a *engine.Agent, act *engine.Action) (engine.Status, error) {
				if a.Rand.Float64() < 0.3 {
					return engine.Failed, nil // the bush was empty: back off
				}
				return engine.ApplyEffects(a, act)
			})).Spec(),
			engine.NewAction("eat").Pre("food > 0").Effects("hunger = 0, food = food - 1").Fulfills("fed").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
			engine.NewAction("mine").Effects("gold = gold + 1").Cost(3).Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
			engine.NewAction("spend").Pre("gold > 0").Effects("gold = gold - 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
		Sensors: []engine.SensorSpec{{Name: "belly", Every: 0.25, Run: func(a *engine.Agent, dt float64) error {
			h, _ := a.Get("hunger").AsNumber()
			a.Set("hunger", expr.NumberValue(h+1+float64(a.Rand.IntN(3))))
			a.Set("luck", expr.NumberValue(a.Rand.Float64()))
			return nil
		}}},
	})
	require.NoError(t, err)
	return d
}

// collapse knocks a finished wall down, so builders always have work.
var collapse = engine.SensorSpec{Name: "collapse", Run: func(a *engine.Agent, dt float64) error {
	if n, _ := a.Get("walls").AsNumber(); n >= 1 {
		a.Set("walls", expr.NumberValue(0))
	}
	return nil
}}

// slowDomain's steps take several ticks, so a snapshot catches them mid-run.
func slowDomain(t testing.TB) *engine.Domain {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Builder",
		State: []engine.Var{{Name: "bricks", Value: expr.NumberValue(0)}, {Name: "walls", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("built", "walls >= 1", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetch").Effects("bricks = bricks + 2").Body(waitBody{Ticks: 7}).Spec(),
			engine.NewAction("lay").Pre("bricks > 1").Effects("bricks = bricks - 2, walls = walls + 1").Body(waitBody{Ticks: 4}).Spec(),
		},
		Sensors: []engine.SensorSpec{collapse},
	})
	require.NoError(t, err)
	return d
}

// gameStep is what the game does between ticks: it draws from the world's
// random source and feeds one agent.
func gameStep(w *engine.World) {
	if len(w.Agents) == 0 {
		return
	}
	a := w.Agents[w.Rand.IntN(len(w.Agents))]
	if a.Domain.Name == "Forager" && w.Rand.Float64() < 0.2 {
		g, _ := a.Get("gold").AsNumber()
		a.Set("gold", expr.NumberValue(g+1))
	}
}

func newTestWorld(t testing.TB, quick, slow int) (*engine.World, []*engine.Domain) {
	qd, sd := quickDomain(t), slowDomain(t)
	w := engine.NewWorld(42)
	for i := 0; i < quick; i++ {
		a := engine.NewAgent("forager"+string(rune('a'+i)), qd)
		a.RetryDelay = 0.5
		a.StuckAfter = 2
		w.Add(a)
	}
	for i := 0; i < slow; i++ {
		w.Add(engine.NewAgent("builder"+string(rune('a'+i)), sd))
	}
	return w, []*engine.Domain{qd, sd}
}

// run ticks the world n times and returns each agent's records by name.
func run(w *engine.World, n int) map[string][]record.Event {
	out := map[string][]record.Event{}
	w.OnEvent = func(e record.Event) { out[e.Agent] = append(out[e.Agent], e) }
	for i := 0; i < n; i++ {
		gameStep(w)
		w.Tick(1.0 / 60)
	}
	w.OnEvent = nil
	return out
}

func TestSnapshotRestoreContinuesWithSameDecisions(t *testing.T) {
	orig, domains := newTestWorld(t, 4, 3)
	run(orig, 300)
	require.Equal(t, 300, orig.Ticks)

	var buf bytes.Buffer
	require.NoError(t, orig.Snapshot(&buf))
	midRun := map[string]string{}
	for _, a := range orig.Agents {
		if a.Running() != nil {
			midRun[a.Name] = a.Running().Name
		}
	}
	require.NotEmpty(t, midRun, "the builders' steps take several ticks, so some must be mid-run")

	restored, err := engine.Restore(bytes.NewReader(buf.Bytes()), engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	require.Len(t, restored.Agents, len(orig.Agents))
	assert.Equal(t, orig.Ticks, restored.Ticks)
	assert.InDelta(t, orig.Time, restored.Time, 1e-12)

	for i, a := range orig.Agents {
		b := restored.Agents[i]
		assert.Equal(t, a.Name, b.Name)
		assert.Equal(t, a.ID, b.ID)
		assert.Equal(t, a.Ticks(), b.Ticks())
		assert.Equal(t, a.State, b.State, a.Name)
		assert.Equal(t, a.Stuck(), b.Stuck(), a.Name)
		assert.Equal(t, goalOf(a), goalOf(b), a.Name)
		assert.Equal(t, planOf(a), planOf(b), a.Name)
		recA, recB := a.Recorder.Records(), b.Recorder.Records()
		if act, ok := midRun[a.Name]; ok {
			// The restarted step is recorded on top of the saved ring.
			require.NotEmpty(t, recB)
			last := recB[len(recB)-1]
			want := append(recA, last)
			if len(want) > record.DefaultSize {
				want = want[1:]
			}
			assert.Equal(t, want, recB, a.Name)
			assert.Equal(t, record.EventStart, last.Kind)
			assert.Equal(t, act, last.Action)
			assert.Equal(t, "restarted after a load", last.Reason)
			require.NotNil(t, b.Running())
			assert.Equal(t, act, b.Running().Name)
			continue
		}
		assert.Equal(t, recA, recB, a.Name)
		for k := record.EventPlan; k <= record.EventSummary; k++ {
			assert.Equal(t, a.Recorder.Count(k), b.Recorder.Count(k), "%s count of %s", a.Name, k)
		}
	}

	evA, evB := run(orig, 300), run(restored, 300)
	for _, a := range orig.Agents {
		if _, ok := midRun[a.Name]; ok {
			continue
		}
		require.NotEmpty(t, evA[a.Name], a.Name)
		assert.Equal(t, evA[a.Name], evB[a.Name], "agent %s decides as the original", a.Name)
	}
	// Where a body was mid-run, the restored world runs on without error:
	// the restarted step finishes and the agent keeps building.
	for name := range midRun {
		finished := 0
		for _, e := range evB[name] {
			assert.NotEqual(t, record.EventFail, e.Kind, "%s: %s", name, e)
			assert.NotEqual(t, record.EventStuck, e.Kind, "%s: %s", name, e)
			if e.Kind == record.EventFinish {
				finished++
			}
		}
		assert.Greater(t, finished, 10, name)
	}
	// The random sources were restored: the next draws agree.
	assert.Equal(t, orig.Rand.Uint64(), restored.Rand.Uint64())
	for i, a := range orig.Agents {
		if _, ok := midRun[a.Name]; !ok {
			assert.Equal(t, a.Rand.Uint64(), restored.Agents[i].Rand.Uint64(), a.Name)
		}
	}
}

func goalOf(a *engine.Agent) string {
	if g := a.CurrentGoal(); g != nil {
		return g.Name
	}
	return ""
}

func planOf(a *engine.Agent) []string {
	var out []string
	for _, s := range a.CurrentPlan() {
		out = append(out, s.Name)
	}
	return out
}

// With no body mid-run, a restored world saves to the same bytes.
func TestSnapshotRoundTripIsExact(t *testing.T) {
	w, domains := newTestWorld(t, 3, 0)
	run(w, 123)
	var first, second bytes.Buffer
	require.NoError(t, w.Snapshot(&first))
	r, err := engine.Restore(bytes.NewReader(first.Bytes()), engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	require.NoError(t, r.Snapshot(&second))
	assert.Equal(t, first.String(), second.String())

	var doc map[string]any
	require.NoError(t, json.Unmarshal(first.Bytes(), &doc))
	assert.Equal(t, engine.SnapshotFormat, doc["format"])
	assert.Equal(t, float64(engine.SnapshotVersion), doc["version"])
	assert.Equal(t, float64(123), doc["ticks"])
}

func TestSnapshotKeepsPinsAndWorkers(t *testing.T) {
	w, domains := newTestWorld(t, 3, 2)
	w.Workers = 2
	w.Pin(4, 0)
	run(w, 50)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	assert.Equal(t, 2, r.Workers)
	// Both worlds tick on two workers and agree for the foragers, none
	// of which is mid-run between ticks.
	evA, evB := run(w, 100), run(r, 100)
	for _, name := range []string{"foragera", "foragerb", "foragerc"} {
		assert.Equal(t, evA[name], evB[name], name)
	}
}

func TestRestoreErrors(t *testing.T) {
	w, domains := newTestWorld(t, 1, 1)
	run(w, 10)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	good := buf.String()

	tests := []struct {
		name, reason, doc string
		domains           []*engine.Domain
		want              string
	}{
		{name: "no domains", reason: "each agent's domain must be given", doc: good,
			want: `engine: restore: agent foragera: no domain "Forager" in RestoreOptions.Domains`},
		{name: "one missing", reason: "the builder's domain is not given", doc: good, domains: domains[:1],
			want: `engine: restore: agent buildera: no domain "Builder" in RestoreOptions.Domains`},
		{name: "version", reason: "a future version is refused", domains: domains,
			doc:  strings.Replace(good, `"version": 1`, `"version": 9`, 1),
			want: "engine: restore: snapshot version 9, this engine reads version 1"},
		{name: "version zero", reason: "an older (or zero) version is refused too", domains: domains,
			doc:  strings.Replace(good, `"version": 1`, `"version": 0`, 1),
			want: "engine: restore: snapshot version 0, this engine reads version 1"},
		{name: "no version", reason: "a document without a version is refused", domains: domains,
			doc:  strings.Replace(good, `"version": 1,`, ``, 1),
			want: "engine: restore: snapshot version 0, this engine reads version 1"},
		{name: "format", reason: "another JSON document is refused", domains: domains, doc: `{"format":"save-game","version":1}`,
			want: `engine: restore: format "save-game" is not "moonmind-snapshot"`},
		{name: "syntax", reason: "broken JSON", domains: domains, doc: `{"format":`,
			want: "engine: restore: unexpected EOF"},
		{name: "value", reason: "a value with two kinds", domains: domains,
			doc:  strings.Replace(good, `"name": "hunger",`, `"name": "hunger", "nil": true,`, 1),
			want: "engine: restore: agent foragera: state hunger: more than one of bool, number, special, string, nil"},
		{name: "workers", reason: "a damaged worker count would start a billion goroutines a tick", domains: domains,
			doc:  strings.Replace(good, `"ticks": 10,`, `"ticks": 10, "workers": 1000000000,`, 1),
			want: "engine: restore: workers 1000000000 is more than 1024"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.Restore(strings.NewReader(tc.doc), engine.RestoreOptions{Domains: tc.domains})
			require.Error(t, err, tc.reason)
			assert.Equal(t, tc.want, err.Error(), tc.reason)
		})
	}
}

func TestSnapshotRefusesReplacedRand(t *testing.T) {
	w, _ := newTestWorld(t, 1, 0)
	w.Agents[0].Rand = rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	err := w.Snapshot(&buf)
	require.Error(t, err)
	assert.Equal(t, "engine: snapshot: agent foragera's Rand was replaced; Snapshot saves only the one NewWorld or World.Add made", err.Error())
	assert.Zero(t, buf.Len(), "nothing is written on error")
}

// A step restarted after a load that can no longer start fails as in a
// tick, and the world runs on.
func TestRestoreRestartsStepOfChangedDomain(t *testing.T) {
	w, _ := newTestWorld(t, 0, 1)
	run(w, 3)
	require.NotNil(t, w.Agents[0].Running())
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	// The reloaded Builder's fetch has no body.
	d, err := engine.Compile(engine.RoleSpec{
		Name:    "Builder",
		State:   []engine.Var{{Name: "bricks", Value: expr.NumberValue(0)}, {Name: "walls", Value: expr.NumberValue(0)}},
		Goals:   []engine.GoalSpec{engine.NewGoal("built", "walls >= 1", engine.Normal)},
		Sensors: []engine.SensorSpec{collapse},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetch").Effects("bricks = bricks + 2").Spec(),
			engine.NewAction("lay").Pre("bricks > 1").Effects("bricks = bricks - 2, walls = walls + 1").Body(waitBody{Ticks: 4}).Spec(),
		},
	})
	require.NoError(t, err)
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	recs := r.Agents[0].Recorder.Records()
	last := recs[len(recs)-1]
	assert.Equal(t, record.EventFail, last.Kind)
	assert.Equal(t, "fetch", last.Action)
	assert.Equal(t, `engine: action "fetch" has no body`, last.Reason)
	assert.Nil(t, r.Agents[0].Running())
	r.Tick(1.0 / 60) // runs on
	assert.Equal(t, 4, r.Agents[0].Ticks())
}

// With one Lua runtime per worker, several domains share a name: the
// Domain function picks each agent's by its pin.
func TestRestoreDomainByPin(t *testing.T) {
	perWorker := []*engine.Domain{quickDomain(t), quickDomain(t)}
	w := engine.NewWorld(9)
	w.Workers = 2
	for i := 0; i < 4; i++ {
		w.Add(engine.NewAgent("forager"+string(rune('a'+i)), perWorker[i%2]))
		w.Pin(i, i%2)
	}
	run(w, 20)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	saved := buf.String()
	r, err := engine.Restore(strings.NewReader(saved), engine.RestoreOptions{
		Domain: func(agent string, pin int, domain string) (*engine.Domain, error) {
			if domain != "Forager" || pin < 0 {
				return nil, nil
			}
			return perWorker[pin], nil
		},
	})
	require.NoError(t, err)
	for i, a := range r.Agents {
		assert.Same(t, perWorker[i%2], a.Domain, a.Name)
	}
	_, err = engine.Restore(strings.NewReader(saved), engine.RestoreOptions{
		Domain: func(string, int, string) (*engine.Domain, error) { return nil, nil },
	})
	require.Error(t, err)
	assert.Equal(t, `engine: restore: agent foragera: RestoreOptions.Domain gave no domain for "Forager"`, err.Error())
}

// An agent moves from one shard's world to another's with its whole mind:
// it decides in the new world exactly as it would have in the old.
func TestAgentMovesBetweenShards(t *testing.T) {
	zoneA, domains := newTestWorld(t, 2, 0)
	twin, _ := newTestWorld(t, 2, 0) // the same world, left alone, for comparison
	run(zoneA, 100)
	run(twin, 100)
	mover := zoneA.Agent("foragerb")
	require.NotNil(t, mover)
	require.Nil(t, mover.Running())

	var buf bytes.Buffer
	require.NoError(t, zoneA.SnapshotAgents(&buf, []*engine.Agent{mover}))
	assert.Equal(t, 1, bytes.Count(buf.Bytes(), []byte("\n")), "one line: a moving mind is not indented")
	assert.True(t, bytes.HasPrefix(buf.Bytes(), []byte(`{"format":"moonmind-snapshot",`)), buf.String()[:40])
	var saved bytes.Buffer
	require.NoError(t, zoneA.Snapshot(&saved))
	assert.True(t, bytes.HasPrefix(saved.Bytes(), []byte("{\n \"format\": \"moonmind-snapshot\",\n")), "a saved world stays indented")
	require.True(t, zoneA.Remove(mover))

	zoneB := engine.NewWorld(777)
	zoneB.Add(engine.NewAgent("local", domains[0]))
	run(zoneB, 10)
	moved, err := zoneB.AddSnapshot(&buf, engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	require.Len(t, moved, 1)
	assert.Equal(t, "foragerb", moved[0].Name)
	assert.Equal(t, 1, moved[0].ID, "its index in the new world")
	assert.Same(t, moved[0], zoneB.Agent("foragerb"))
	assert.Equal(t, 10, zoneB.Ticks, "the new world keeps its own clock")

	// The twin's forager b is what the mover would have done at home. The
	// game loop's draws differ between the worlds, so feed neither.
	tickOnly := func(w *engine.World, n int) map[string][]record.Event {
		out := map[string][]record.Event{}
		w.OnEvent = func(e record.Event) { out[e.Agent] = append(out[e.Agent], e) }
		for i := 0; i < n; i++ {
			w.Tick(1.0 / 60)
		}
		return out
	}
	evB, evTwin := tickOnly(zoneB, 200), tickOnly(twin, 200)
	require.NotEmpty(t, evTwin["foragerb"])
	assert.Equal(t, evTwin["foragerb"], evB["foragerb"])

	var none bytes.Buffer
	err = zoneA.SnapshotAgents(&none, []*engine.Agent{mover})
	require.Error(t, err)
	assert.Equal(t, "engine: snapshot: agent foragerb is not in the world", err.Error())
}

// A damaged save never crashes the game: Restore either returns an error
// or a world that ticks. testdata/fuzz/FuzzRestore keeps the inputs that
// once hung it (a worker count of a billion started a billion goroutines
// a tick). The seeds are small and compact, and the domains are compiled
// once, so each run takes microseconds: the fuzzer minimizes every new
// interesting input by running it again and again, and with slow runs on
// a large seed it minimized for its whole -fuzzminimizetime (60s). Its
// exec count still moves in bursts, since runs made while minimizing are
// counted only when the minimization ends.
func FuzzRestore(f *testing.F) {
	w, _ := newTestWorld(f, 1, 1)
	for _, a := range w.Agents {
		a.Recorder = record.New(4)
	}
	run(w, 8)
	var buf, seed bytes.Buffer
	if err := w.Snapshot(&buf); err != nil {
		f.Fatal(err)
	}
	if err := json.Compact(&seed, buf.Bytes()); err != nil {
		f.Fatal(err)
	}
	f.Add(seed.Bytes())
	f.Add([]byte(`{"format":"moonmind-snapshot","version":1,"agents":[{"name":"x","domain":"Forager","step":-3,"plan":["eat"],"running":"eat"}]}`))
	f.Add([]byte(`{"format":"moonmind-snapshot","version":1,"workers":-2,"agents":[{"name":"x","domain":"Builder","pin":-7,"step":1,"plan":["fetch","lay"],"running":"lay","senseErrors":["a"],"recorder":{"size":-1,"ring":[{"kind":"start"}],"counts":{"start":3}}}]}`))
	f.Add([]byte(`{"format":"moonmind-snapshot","version":1,"agents":[{"name":"x","domain":"Forager","rand":"AAAA","state":[{"name":"food","special":"NaN"}]}]}`))
	domains := []*engine.Domain{quickDomain(f), slowDomain(f)} // read-only: shared by every run
	f.Fuzz(func(t *testing.T, doc []byte) {
		r, err := engine.Restore(bytes.NewReader(doc), engine.RestoreOptions{Domains: domains})
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "engine: restore: "), err.Error())
			assert.ErrorIs(t, err, engine.ErrSnapshot)
			return
		}
		for i := 0; i < 3; i++ {
			r.Tick(1.0 / 60)
		}
	})
}

// Edited or damaged saves: a truncated file, a clock set so far out that
// a tick no longer moves it (every wait would last forever), a negative
// time or tick count. Each is an error naming the field.
func TestRestoreRefusesDamagedClocks(t *testing.T) {
	w, _ := newTestWorld(t, 1, 1)
	run(w, 8)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	doc := buf.String()
	require.Contains(t, doc, `"ticks": 8,`)
	domains := []*engine.Domain{quickDomain(t), slowDomain(t)}
	for _, tc := range []struct{ name, doc, want string }{
		{"truncated", doc[:len(doc)/2], "engine: restore: unexpected EOF"},
		{"empty", "", "engine: restore: EOF"},
		{"time far out", strings.Replace(doc, `"ticks": 8,`, `"ticks": 8, "time": 1e300,`, 1), "engine: restore: time 1e+300 is not from 0 to 1e+12 seconds"},
		{"negative time", strings.Replace(doc, `"ticks": 8,`, `"ticks": 8, "time": -1e308,`, 1), "engine: restore: time -1e+308 is not from 0 to 1e+12 seconds"},
		{"negative ticks", strings.Replace(doc, `"ticks": 8,`, `"ticks": -5,`, 1), "engine: restore: ticks -5 is negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.Restore(strings.NewReader(tc.doc), engine.RestoreOptions{Domains: domains})
			require.Error(t, err)
			assert.ErrorIs(t, err, engine.ErrSnapshot)
			assert.Equal(t, tc.want, err.Error())
		})
	}
	r, err := engine.Restore(strings.NewReader(strings.Replace(doc, `"ticks": 8,`, `"ticks": 8, "time": 1e12,`, 1)), engine.RestoreOptions{Domains: domains})
	require.NoError(t, err, "the bound itself is allowed")
	r.Tick(0.5)
	assert.Equal(t, 1e12+0.5, r.Time, "the clock moves")
}

func TestAgentIDsAreNeverReused(t *testing.T) {
	w, domains := newTestWorld(t, 3, 2)
	ids := func(w *engine.World) []int {
		var out []int
		for _, a := range w.Agents {
			out = append(out, a.ID)
		}
		return out
	}
	require.Equal(t, []int{0, 1, 2, 3, 4}, ids(w))
	last := w.Agents[len(w.Agents)-1]
	require.True(t, w.Remove(last))
	w.Add(engine.NewAgent("late", last.Domain))
	assert.Equal(t, []int{0, 1, 2, 3, 5}, ids(w), "the removed agent's ID 4 is not given again")

	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3, 5}, ids(r))
	r.Remove(r.Agents[len(r.Agents)-1])
	r.Add(engine.NewAgent("later", last.Domain))
	assert.Equal(t, 6, r.Agents[len(r.Agents)-1].ID, "a restored world goes on counting")
}

func TestRestoreRefusesDamagedAgentClocksAndRecorders(t *testing.T) {
	w, _ := newTestWorld(t, 1, 1)
	for _, a := range w.Agents {
		a.Recorder = record.New(8)
	}
	run(w, 8)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	domains := []*engine.Domain{quickDomain(t), slowDomain(t)}
	edit := func(change func(agent map[string]any)) string {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
		change(doc["agents"].([]any)[0].(map[string]any))
		out, err := json.Marshal(doc)
		require.NoError(t, err)
		return string(out)
	}
	name := w.Agents[0].Name
	for _, tc := range []struct {
		name   string
		change func(map[string]any)
		want   string
	}{
		{"time far out", func(a map[string]any) { a["time"] = 1e300 }, "time 1e+300 is not from 0 to 1e+12 seconds"},
		{"negative ticks", func(a map[string]any) { a["tick"] = -3 }, "ticks -3 (clock 8) is negative"},
		{"negative clock", func(a map[string]any) { a["clock"].(map[string]any)["n"] = -5 }, "ticks 8 (clock -5) is negative"},
		{"huge recorder", func(a map[string]any) { a["recorder"].(map[string]any)["size"] = 1e9 }, "recorder size 1000000000 is not from 0 to 1048576 records"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.Restore(strings.NewReader(edit(tc.change)), engine.RestoreOptions{Domains: domains})
			require.Error(t, err)
			assert.ErrorIs(t, err, engine.ErrSnapshot)
			assert.Equal(t, "engine: restore: agent "+name+": "+tc.want, err.Error())
		})
	}
	_, err := engine.Restore(strings.NewReader(edit(func(map[string]any) {})), engine.RestoreOptions{Domains: domains})
	require.NoError(t, err, "the unedited document loads")
}

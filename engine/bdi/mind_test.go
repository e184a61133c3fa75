package bdi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func domain(t *testing.T, vars ...string) *engine.Domain {
	t.Helper()
	spec := engine.RoleSpec{Name: "R"}
	for _, v := range vars {
		spec.State = append(spec.State, engine.Var{Name: v, Value: expr.NumberValue(0)})
	}
	d, err := engine.Compile(spec)
	require.NoError(t, err)
	return d
}

func install(t *testing.T, d *engine.Domain, cfg *bdi.Config, plans ...*bdi.Plan) {
	t.Helper()
	lib, err := bdi.NewLibrary(d, plans)
	require.NoError(t, err)
	cfg.Library = lib
	bdi.Install(d, cfg)
}

type tracer struct{ lines []string }

func (tr *tracer) add(e record.Event) { tr.lines = append(tr.lines, e.String()) }

func (tr *tracer) kinds(k record.EventKind) []string {
	var out []string
	for _, l := range tr.lines {
		if strings.Contains(l, " "+k.String()+" ") {
			out = append(out, l)
		}
	}
	return out
}

func done(v any) bdi.Func {
	return func(*engine.Agent, *bdi.Event, any) (any, error) { return v, nil }
}

func TestLibraryReportsEveryProblem(t *testing.T) {
	d := domain(t, "bell")
	pos := func(line int) engine.Pos { return engine.Pos{File: "r.lua", Line: line} }
	_, err := bdi.NewLibrary(d, []*bdi.Plan{
		{Name: "no kind", Body: done(nil), Pos: pos(1)},
		{Name: "mixed", On: bdi.BeliefAdded, Goal: "x", Body: done(nil), Pos: pos(2)},
		{On: bdi.GoalAdded, Belief: "bell", Body: done(nil), Pos: pos(3)},
		{Name: "typo", On: bdi.BeliefRemoved, Belief: "bel", Body: done(nil), Pos: pos(4)},
		{Name: "bodiless", On: bdi.GoalAdded, Pos: pos(5)},
	})
	require.Error(t, err)
	assert.Equal(t, strings.Join([]string{
		`r.lua:1: plan "no kind": on must be one of goal_added, goal_failed, goal_removed, belief_added, belief_removed, perceived, lost, forgotten`,
		`r.lua:2: plan "mixed": a goal filter on a belief event (on = belief_added): use belief = "name", or on = goal_added`,
		`r.lua:3: plan #3: a belief filter on a goal event (on = goal_added): use goal = "name", or on = belief_added`,
		`r.lua:4: plan "typo": belief "bel" is no state variable of the role (did you mean "bell"?)`,
		`r.lua:5: plan "bodiless": body is required (a function)`,
	}, "\n"), err.Error())
}

// stepTask is a Go intention: it awaits a sub-goal, then returns its
// result plus one.
type stepTask struct {
	a *engine.Agent
	p *bdi.Pending
	n float64
}

func (s *stepTask) Resume(float64) (engine.Status, error) {
	if s.p == nil {
		s.p = bdi.Of(s.a).Await(reactive.GoalNamed("sub"))
		return engine.Running, nil
	}
	if !s.p.Done() {
		return engine.Running, nil
	}
	res, err := s.p.Result()
	if err != nil {
		return engine.Failed, err
	}
	s.n = res.(float64) + 1
	return engine.Succeeded, nil
}
func (s *stepTask) Result() any { return s.n }
func (s *stepTask) Stop()       {}

type bodyFunc func(a *engine.Agent) bdi.Task

func (f bodyFunc) Start(a *engine.Agent, _ *bdi.Event, _ any) (bdi.Task, error) { return f(a), nil }

// slowTask succeeds with 41 once it has run for 0.3 s.
type slowTask struct{ t float64 }

func (s *slowTask) Resume(dt float64) (engine.Status, error) {
	s.t += dt
	if s.t+1e-9 < 0.3 {
		return engine.Running, nil
	}
	return engine.Succeeded, nil
}
func (s *slowTask) Result() any { return 41.0 }
func (s *slowTask) Stop()       {}

func TestAGoIntentionAwaitsASubGoalAndGoesOnInTheSameTick(t *testing.T) {
	d := domain(t)
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("top")}},
		&bdi.Plan{Name: "top", On: bdi.GoalAdded, Goal: "top", Body: bodyFunc(func(a *engine.Agent) bdi.Task { return &stepTask{a: a} })},
		&bdi.Plan{Name: "sub", On: bdi.GoalAdded, Goal: "sub", Body: bodyFunc(func(*engine.Agent) bdi.Task { return &slowTask{} })},
	)
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a := engine.NewAgent("a", d)
	w.Add(a)
	w.Tick(0.1)
	m := bdi.Of(a)
	require.NotNil(t, m)
	require.Len(t, m.Intentions(), 2)
	_, name := m.Intentions()[1].Plan()
	assert.Equal(t, "sub", name)
	assert.Equal(t, 1, m.Intentions()[1].Depth())
	for range 3 {
		w.Tick(0.1)
	}
	assert.Empty(t, m.Intentions())
	doneLines := tr.kinds(record.EventIntentionDone)
	require.Len(t, doneLines, 2)
	// The sub-goal's 0.3 s end at tick 4; the top intention goes on then.
	assert.Contains(t, doneLines[0], "tick    4")
	assert.Contains(t, doneLines[0], "action=sub intention=#2 value=41")
	assert.Contains(t, doneLines[1], "tick    4")
	assert.Contains(t, doneLines[1], "action=top intention=#1 value=42")
}

func TestSubGoalsNestAtMostMaxDepth(t *testing.T) {
	d := domain(t)
	self := bodyFunc(func(a *engine.Agent) bdi.Task { return &recurse{a: a} })
	install(t, d, &bdi.Config{MaxDepth: 5}, &bdi.Plan{Name: "again", On: bdi.GoalAdded, Goal: "again", Body: self})
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a := engine.NewAgent("a", d)
	w.Add(a)
	require.NoError(t, a.Achieve(reactive.GoalNamed("again")))
	w.Tick(0.1)
	assert.Len(t, tr.kinds(record.EventIntentionStart), 6, "depths 0 to 5")
	failed := tr.kinds(record.EventIntentionFailed)
	require.Len(t, failed, 6, "the innermost failure fails every level")
	assert.Contains(t, failed[0], "sub-goals nested deeper than 5")
	assert.Empty(t, bdi.Of(a).Intentions())
}

type recurse struct {
	a *engine.Agent
	p *bdi.Pending
}

func (r *recurse) Resume(float64) (engine.Status, error) {
	if r.p == nil {
		r.p = bdi.Of(r.a).Await(reactive.GoalNamed("again"))
	}
	if !r.p.Done() {
		return engine.Running, nil
	}
	_, err := r.p.Result()
	return engine.Failed, err
}
func (r *recurse) Result() any { return nil }
func (r *recurse) Stop()       {}

func TestResumesPerTickAreCapped(t *testing.T) {
	d := domain(t, "x")
	// Every change of x makes the next one: a chain that never ends.
	install(t, d, &bdi.Config{MaxResumes: 50}, &bdi.Plan{Name: "bump", On: bdi.BeliefAdded, Belief: "x",
		Body: bdi.Func(func(a *engine.Agent, ev *bdi.Event, _ any) (any, error) {
			n, _ := ev.Value.AsNumber()
			return nil, a.Believe("x", expr.NumberValue(n+1))
		})})
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a := engine.NewAgent("a", d)
	w.Add(a)
	w.Tick(0.1)
	a.Set("x", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(51), a.Get("x"), "50 resumes in the tick")
	capped := tr.kinds(record.EventNoPlan)
	require.Len(t, capped, 1)
	assert.Contains(t, capped[0], "more than 50 intention resumes in one tick")
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(101), a.Get("x"), "the chain goes on next tick")
}

func TestOnlyPlansIndexedForTheEventAreAsked(t *testing.T) {
	d := domain(t, "a", "b")
	asked := map[string]int{}
	trig := func(name string) func(*engine.Agent, *bdi.Event) (any, error) {
		return func(_ *engine.Agent, ev *bdi.Event) (any, error) { asked[name]++; return nil, nil }
	}
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "on a", On: bdi.BeliefAdded, Belief: "a", Trigger: trig("on a"), Body: done(nil)},
		&bdi.Plan{Name: "any belief", On: bdi.BeliefAdded, Trigger: trig("any belief"), Body: done(nil)},
		&bdi.Plan{Name: "a removed", On: bdi.BeliefRemoved, Belief: "a", Trigger: trig("a removed"), Body: done(nil)},
		&bdi.Plan{Name: "goal g", On: bdi.GoalAdded, Goal: "g", Trigger: trig("goal g"), Body: done(nil)},
	)
	w := engine.NewWorld(1)
	a := engine.NewAgent("a", d)
	w.Add(a)
	w.Tick(0.1)
	a.Set("b", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Equal(t, map[string]int{"any belief": 1}, asked)
	a.Set("a", expr.NumberValue(1))
	w.Tick(0.1)
	assert.Equal(t, map[string]int{"any belief": 2, "on a": 1}, asked)
	require.NoError(t, a.Forget("a"))
	require.NoError(t, a.Achieve(reactive.GoalTuple(expr.StringValue("g"), expr.NumberValue(2))))
	w.Tick(0.1)
	assert.Equal(t, map[string]int{"any belief": 2, "on a": 1, "a removed": 1, "goal g": 1}, asked)
}

func TestAGuardErrorFailsTheGoalAndAFailurePlanRecoversIt(t *testing.T) {
	d := domain(t)
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "broken", On: bdi.GoalAdded, Goal: "g",
			Guard: func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, errors.New("r.lua:3: boom") },
			Body:  done("never")},
		&bdi.Plan{Name: "recover", On: bdi.GoalFailed, Goal: "g",
			Body: bdi.Func(func(_ *engine.Agent, ev *bdi.Event, _ any) (any, error) { return "saved after " + ev.Err.Error(), nil })},
	)
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a := engine.NewAgent("a", d)
	w.Add(a)
	require.NoError(t, a.Achieve(reactive.GoalNamed("g")))
	w.Tick(0.1)
	removed := tr.kinds(record.EventGoalRemoved)
	require.Len(t, removed, 1, tr.lines)
	assert.Contains(t, removed[0], `value="saved after plan \"broken\" guard: r.lua:3: boom"`)
}

// ring builds n agents that each pass a counter to the next one through
// Tell and record it; the result is the trace.
func ring(t *testing.T, n, workers, ticks int) []string {
	d := domain(t, "ball")
	install(t, d, &bdi.Config{}, &bdi.Plan{Name: "pass", On: bdi.BeliefAdded, Belief: "ball",
		Body: bdi.Func(func(a *engine.Agent, ev *bdi.Event, _ any) (any, error) {
			v, _ := ev.Value.AsNumber()
			next := "a" + string(rune('0'+(a.ID+1)%n))
			return nil, a.Tell(next, "ball", expr.NumberValue(v+1))
		})})
	w := engine.NewWorld(7)
	w.Workers = workers
	tr := &tracer{}
	w.OnEvent = tr.add
	for i := range n {
		w.Add(engine.NewAgent("a"+string(rune('0'+i)), d))
	}
	w.Tick(0.1) // the starting beliefs; changes after it are events
	w.Agents[0].Set("ball", expr.NumberValue(1))
	w.Agents[3].Set("ball", expr.NumberValue(100))
	for range ticks {
		w.Tick(0.1)
	}
	return tr.lines
}

func TestTellGivesTheSameTraceWithOneAndFourWorkers(t *testing.T) {
	one := ring(t, 6, 1, 20)
	four := ring(t, 6, 4, 20)
	assert.Equal(t, one, four)
	assert.Contains(t, strings.Join(one, "\n"), "a1           belief-added belief=ball value=2 old=0 from=a0")
}

func TestEngineRefusesBadTells(t *testing.T) {
	d := domain(t, "ball")
	w := engine.NewWorld(1)
	a, b := engine.NewAgent("alice", d), engine.NewAgent("bob", d)
	assert.EqualError(t, a.Tell("bob", "ball", expr.NumberValue(1)), "engine: tell bob: agent alice is in no world")
	w.Add(a)
	w.Add(b)
	assert.EqualError(t, a.Tell("bobb", "ball", expr.NumberValue(1)), `engine: tell bobb: no agent "bobb" in the world (did you mean "bob"?)`)
	assert.EqualError(t, a.Tell("bob", "bal", expr.NumberValue(1)), `engine: tell bob bal: bob has no state variable "bal" (did you mean "ball"?)`)
	assert.EqualError(t, a.Believe("bal", expr.NumberValue(1)), `engine: believe bal: no state variable "bal" (did you mean "ball"?)`)
	// Without a reactive layer a told belief is still set, next tick.
	require.NoError(t, a.Tell("bob", "ball", expr.NumberValue(3)))
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(0), b.Get("ball"))
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(3), b.Get("ball"))
}

type stopTask struct{ stopped *bool }

func (s stopTask) Resume(float64) (engine.Status, error) { return engine.Running, nil }
func (s stopTask) Result() any                           { return nil }
func (s stopTask) Stop()                                 { *s.stopped = true }

func TestANewDomainStopsTheOldIntentions(t *testing.T) {
	stopped := false
	d := domain(t)
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("forever")}},
		&bdi.Plan{On: bdi.GoalAdded, Goal: "forever", Body: bodyFunc(func(*engine.Agent) bdi.Task { return stopTask{&stopped} })})
	a := engine.NewAgent("a", d)
	a.Tick(0.1)
	old := bdi.Of(a)
	require.Len(t, old.Intentions(), 1)
	a.SetDomain(d)
	assert.True(t, stopped)
	assert.Empty(t, old.Intentions())
	require.NotSame(t, old, bdi.Of(a))
	a.Tick(0.1)
	assert.Len(t, bdi.Of(a).Intentions(), 1, "the new mind starts with the initial goals again")
}

func TestGoalValues(t *testing.T) {
	g := reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1), expr.BoolValue(true))
	assert.Equal(t, `{"start", 1, true}`, g.String())
	assert.Equal(t, "start", g.Name())
	assert.True(t, g.Equal(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(1), expr.BoolValue(true))))
	assert.False(t, g.Equal(reactive.GoalTuple(expr.StringValue("start"), expr.NumberValue(2), expr.BoolValue(true))))
	assert.False(t, reactive.GoalNamed("start").Equal(reactive.GoalTuple(expr.StringValue("start"))), "a name is not a one-element list")
	assert.Equal(t, "", reactive.GoalTuple(expr.NumberValue(1)).Name())
	for _, name := range []string{"plan", "belief-added", "intention-done", "print", "tell"} {
		k, ok := record.ParseEventKind(name)
		require.True(t, ok, name)
		assert.Equal(t, name, k.String())
	}
	_, ok := record.ParseEventKind("event")
	assert.False(t, ok)
}

func TestBeliefAndTellRecordsPrintShortestNumbers(t *testing.T) {
	d := domain(t, "range", "heard")
	install(t, d, &bdi.Config{}, &bdi.Plan{Name: "pass on", On: bdi.BeliefAdded, Belief: "range",
		Body: bdi.Func(func(a *engine.Agent, ev *bdi.Event, _ any) (any, error) {
			v, _ := ev.Value.AsNumber()
			return v * 3, a.Tell("b", "heard", expr.NumberValue(v*3))
		})})
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a, b := engine.NewAgent("a", d), engine.NewAgent("b", d)
	w.Add(a)
	w.Add(b)
	w.Tick(0.1)
	tenth, fifth := 0.1, 0.2
	a.Set("range", expr.NumberValue(tenth+fifth)) // 0.30000000000000004 (a constant 0.1 + 0.2 would be exact)
	for range 3 {
		w.Tick(0.1)
	}
	out := strings.Join(tr.lines, "\n")
	assert.Contains(t, out, "belief-added belief=range value=0.3 old=0", "the belief's value in shortest form")
	assert.Contains(t, out, "tell        belief=heard value=0.9 to=b", "0.9000000000000001 told reads 0.9")
	assert.Contains(t, out, "belief-added belief=heard value=0.9 old=0 from=a")
	assert.Contains(t, out, "intention-done action=pass on intention=#1 value=0.9", "the intention's result too")
	assert.NotContains(t, out, "0000000")
	ev := bdi.Event{Kind: bdi.BeliefAdded, Name: "range", Value: expr.NumberValue(48.699999999999996), Old: expr.NumberValue(tenth + fifth)}
	assert.Equal(t, "belief_added range = 48.7 (was 0.3)", ev.String())
	assert.Equal(t, "0.3", bdi.Describe(tenth+fifth))
	g := reactive.GoalTuple(expr.StringValue("magazine"), expr.NumberValue(tenth+fifth), expr.NumberValue(48.699999999999996))
	assert.Equal(t, `{"magazine", 0.3, 48.7}`, g.String(), "a goal tuple's numbers in shortest form")
}

// TestAFailedGuardIsRecordedOnceATickAndIsNoRefusal: a guard that fails on
// every belief event is one no-plan record per tick, and a belief whose
// relevant plans refused and failed says how many of each.
func TestAFailedGuardIsRecordedOnceATickAndIsNoRefusal(t *testing.T) {
	d := domain(t, "a", "b")
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "broken", On: bdi.BeliefAdded,
			Guard: func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, errors.New("r.lua:3: boom") },
			Body:  done(nil)},
		&bdi.Plan{Name: "picky", On: bdi.BeliefAdded,
			Guard: func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, nil },
			Body:  done(nil)},
	)
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a := engine.NewAgent("x", d)
	w.Add(a)
	w.Tick(0.1)
	for i := range 2 {
		a.Set("a", expr.NumberValue(float64(i+1)))
		a.Set("b", expr.NumberValue(float64(i+1)))
		w.Tick(0.1)
	}
	var reasons []string
	for _, l := range tr.kinds(record.EventNoPlan) {
		reasons = append(reasons, l[strings.Index(l, "reason="):])
	}
	broken := `reason="plan \"broken\" guard: r.lua:3: boom"`
	mixed := `reason="no applicable plan (2 relevant; guards: 1 refused, 1 failed): ignored"`
	assert.Equal(t, []string{broken, mixed, mixed, broken, mixed, mixed}, reasons, tr.lines)
}

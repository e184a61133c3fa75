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

// The tests of this file drive the reactive layer through its own API
// (Plans, Library, Config, Mind, Pending), with Go bodies.

// awaitTask is an intention that, on its first resume, starts a wait
// (begin), suspends until it is done, then ends with what end makes of it.
// It counts its resumes and reports its suspension for the traces.
type awaitTask struct {
	a       *engine.Agent
	begin   func(m *bdi.Mind) *bdi.Pending
	end     func(p *bdi.Pending) (any, error)
	what    string
	p       *bdi.Pending
	resumes int
	res     any
	stopped bool
}

func (t *awaitTask) Resume(float64) (engine.Status, error) {
	t.resumes++
	if t.p == nil {
		t.p = t.begin(bdi.Of(t.a))
	}
	if !t.p.Done() {
		return engine.Running, nil
	}
	res, err := t.end(t.p)
	if err != nil {
		return engine.Failed, err
	}
	t.res = res
	return engine.Succeeded, nil
}
func (t *awaitTask) Result() any { return t.res }
func (t *awaitTask) Stop()       { t.stopped = true }
func (t *awaitTask) Suspension() (int, string) {
	if t.p == nil || t.p.Done() {
		return 0, ""
	}
	return 1, t.what
}

// awaitGoal is an awaitTask body that awaits goal g and returns its
// result, or fails with its error; the task is kept in *task.
func awaitGoal(g reactive.Goal, task **awaitTask) bdi.Body {
	return bodyFunc(func(a *engine.Agent) bdi.Task {
		t := &awaitTask{a: a, what: "achieve " + g.String(),
			begin: func(m *bdi.Mind) *bdi.Pending { return m.Await(g) },
			end:   func(p *bdi.Pending) (any, error) { return p.Result() }}
		*task = t
		return t
	})
}

// world returns a world with one agent "a" of d, its events traced.
func world(d *engine.Domain) (*engine.World, *engine.Agent, *tracer) {
	w := engine.NewWorld(1)
	tr := &tracer{}
	w.OnEvent = tr.add
	a := engine.NewAgent("a", d)
	w.Add(a)
	return w, a, tr
}

// TestTheFirstApplicablePlanWins: of the plans relevant for an event, the
// first in library order whose guard accepts it runs; later plans, even
// applicable ones, do not. The trigger's context reaches the guard, and
// the guard's refined context the body.
func TestTheFirstApplicablePlanWins(t *testing.T) {
	d := domain(t, "x")
	var ran []string
	body := func(name string) bdi.Func {
		return func(_ *engine.Agent, _ *bdi.Event, ctx any) (any, error) {
			ran = append(ran, name+" "+bdi.Describe(ctx))
			return name, nil
		}
	}
	atLeast := func(n float64) func(a *engine.Agent, _ *bdi.Event, ctx any) (any, error) {
		return func(a *engine.Agent, _ *bdi.Event, ctx any) (any, error) {
			if x, _ := a.Get("x").AsNumber(); x >= n {
				return ctx.(string) + " x>=" + bdi.Describe(n), nil
			}
			return nil, nil
		}
	}
	trigger := func(*engine.Agent, *bdi.Event) (any, error) { return "trig", nil }
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "high", On: bdi.GoalAdded, Goal: "g", Trigger: trigger, Guard: atLeast(2), Body: body("high")},
		&bdi.Plan{Name: "mid", On: bdi.GoalAdded, Goal: "g", Trigger: trigger, Guard: atLeast(1), Body: body("mid")},
		&bdi.Plan{Name: "low", On: bdi.GoalAdded, Body: body("low")},
		&bdi.Plan{Name: "other", On: bdi.GoalAdded, Goal: "h", Body: body("other")},
	)
	w, a, tr := world(d)
	for _, x := range []float64{3, 1, 0} {
		a.Set("x", expr.NumberValue(x))
		require.NoError(t, a.Achieve(reactive.GoalNamed("g")))
		w.Tick(0.1)
	}
	assert.Equal(t, []string{`high "trig x>=2"`, `mid "trig x>=1"`, "low g"}, ran,
		"x = 3: all three apply, the first runs; x = 1: the first refuses; x = 0: only the catch-all applies, with the goal as context")
	chosen := tr.kinds(record.EventPlanChosen)
	require.Len(t, chosen, 3)
	assert.Contains(t, chosen[0], "goal=g action=high intention=#1")
	assert.Contains(t, chosen[2], "goal=g action=low intention=#3")
}

// TestTheFirstApplicableBeliefPlanWins: the same for a belief event, where
// a plan with the belief's shorthand and a plan for every belief are
// merged in library order, and the context without a trigger is the event.
func TestTheFirstApplicableBeliefPlanWins(t *testing.T) {
	d := domain(t, "x", "y")
	var ran []string
	body := func(name string) bdi.Func {
		return func(_ *engine.Agent, ev *bdi.Event, ctx any) (any, error) {
			e := ctx.(bdi.Event)
			ran = append(ran, name+": "+e.String()+" / "+ev.String())
			return nil, nil
		}
	}
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "any", On: bdi.BeliefAdded, Body: body("any")},
		&bdi.Plan{Name: "y only", On: bdi.BeliefAdded, Belief: "y", Body: body("y only")},
	)
	w, a, _ := world(d)
	w.Tick(0.1)
	a.Set("y", expr.NumberValue(2))
	w.Tick(0.1)
	assert.Equal(t, []string{"any: belief_added y = 2 (was 0) / belief_added y = 2 (was 0)"}, ran,
		"the plan for every belief comes first in the library, so it wins over the one for y")
}

// TestAFailedIntentionIsRecoveredByAFailurePlan: a body that fails fails
// its goal; the first goal_failed plan for it runs with the error, and
// its result completes the goal for whoever awaits it.
func TestAFailedIntentionIsRecoveredByAFailurePlan(t *testing.T) {
	d := domain(t)
	var top *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("top")}},
		&bdi.Plan{Name: "top", On: bdi.GoalAdded, Goal: "top", Body: awaitGoal(reactive.GoalNamed("shoot"), &top)},
		&bdi.Plan{Name: "shoot", On: bdi.GoalAdded, Goal: "shoot",
			Body: bdi.Func(func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, errors.New("no ammo") })},
		&bdi.Plan{Name: "melee", On: bdi.GoalFailed, Goal: "shoot",
			Body: bdi.Func(func(_ *engine.Agent, ev *bdi.Event, _ any) (any, error) {
				return "melee after " + ev.Err.Error() + " for " + ev.Goal.String(), nil
			})},
		&bdi.Plan{Name: "never", On: bdi.GoalFailed, Goal: "shoot", Body: done("second failure plan")},
	)
	w, _, tr := world(d)
	w.Tick(0.1)
	require.NotNil(t, top)
	assert.Equal(t, "melee after no ammo for shoot", top.res)
	assert.Equal(t, 2, top.resumes, "resumed in the tick its sub-goal ended")
	assert.Len(t, tr.kinds(record.EventGoalFailed), 1)
	removed := tr.kinds(record.EventGoalRemoved)
	require.Len(t, removed, 2)
	assert.Contains(t, removed[0], `goal=shoot value="melee after no ammo for shoot"`)
	assert.Contains(t, removed[1], `goal=top value="melee after no ammo for shoot"`)
	assert.NotContains(t, tr.lines, "never")
}

// TestAFailurePlanThatFailsEndsTheGoal: a failure plan that fails too
// ends the goal with its own error (no second recovery), and the awaiting
// intention fails with it.
func TestAFailurePlanThatFailsEndsTheGoal(t *testing.T) {
	d := domain(t)
	var top *awaitTask
	install(t, d, &bdi.Config{InitialGoals: []reactive.Goal{reactive.GoalNamed("top")}},
		&bdi.Plan{Name: "top", On: bdi.GoalAdded, Goal: "top", Body: awaitGoal(reactive.GoalNamed("shoot"), &top)},
		&bdi.Plan{Name: "shoot", On: bdi.GoalAdded, Goal: "shoot",
			Body: bdi.Func(func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, errors.New("no ammo") })},
		&bdi.Plan{Name: "retreat", On: bdi.GoalFailed, Goal: "shoot",
			Body: bdi.Func(func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, errors.New("cornered") })},
	)
	w, a, tr := world(d)
	w.Tick(0.1)
	require.NotNil(t, top)
	require.True(t, top.p.Done())
	_, err := top.p.Result()
	assert.EqualError(t, err, "cornered")
	assert.Len(t, tr.kinds(record.EventGoalFailed), 2, "shoot's failure, then top's (no failure plan for top)")
	assert.Len(t, tr.kinds(record.EventIntentionFailed), 3, "shoot, retreat and top")
	assert.Empty(t, bdi.Of(a).Intentions())
	assert.False(t, bdi.Of(a).Busy())
}

// TestAGoalWithoutPlanFailsWithWhy: a goal no plan is relevant for, and
// that no goal of the role names, fails with a sentence that says so; a
// failure plan that refuses leaves the first error in place.
func TestAGoalWithoutPlanFailsWithWhy(t *testing.T) {
	d := domain(t)
	results := map[string]error{}
	keep := func(g reactive.Goal) bdi.Body {
		return bodyFunc(func(a *engine.Agent) bdi.Task {
			return &awaitTask{a: a, begin: func(m *bdi.Mind) *bdi.Pending { return m.Await(g) },
				end: func(p *bdi.Pending) (any, error) {
					_, err := p.Result()
					results[g.String()] = err
					return nil, nil
				}}
		})
	}
	install(t, d, &bdi.Config{},
		&bdi.Plan{Name: "ask nowhere", On: bdi.GoalAdded, Goal: "ask1", Body: keep(reactive.GoalNamed("nowhere"))},
		&bdi.Plan{Name: "ask tuple", On: bdi.GoalAdded, Goal: "ask2", Body: keep(reactive.GoalTuple(expr.StringValue("go"), expr.NumberValue(3)))},
		&bdi.Plan{Name: "ask picky", On: bdi.GoalAdded, Goal: "ask3", Body: keep(reactive.GoalNamed("picky"))},
		&bdi.Plan{Name: "picky", On: bdi.GoalAdded, Goal: "picky",
			Guard: func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, nil }, Body: done(nil)},
		&bdi.Plan{Name: "refusing recovery", On: bdi.GoalFailed, Goal: "picky",
			Guard: func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, nil }, Body: done(nil)},
	)
	w, a, tr := world(d)
	for _, g := range []string{"ask1", "ask2", "ask3"} {
		require.NoError(t, a.Achieve(reactive.GoalNamed(g)))
	}
	w.Tick(0.1)
	assert.Equal(t, map[string]error{
		"nowhere":   errors.New("bdi: goal nowhere: no relevant plan, and no goal of that name in the role's goals"),
		`{"go", 3}`: errors.New(`bdi: goal {"go", 3}: no relevant plan`),
		"picky":     errors.New("bdi: goal picky: no applicable plan (1 relevant, every guard refused), and no goal of that name in the role's goals"),
	}, results)
	var noPlan []string
	for _, l := range tr.kinds(record.EventNoPlan) {
		noPlan = append(noPlan, l[strings.Index(l, "goal="):])
	}
	assert.Equal(t, []string{
		`goal=nowhere reason="bdi: goal nowhere: no relevant plan, and no goal of that name in the role's goals"`,
		`goal={"go", 3} reason="bdi: goal {\"go\", 3}: no relevant plan"`,
		`goal=picky reason="bdi: goal picky: no applicable plan (1 relevant, every guard refused), and no goal of that name in the role's goals"`,
		`goal=nowhere reason="no relevant plan: the goal fails"`,
		`goal={"go", 3} reason="no relevant plan: the goal fails"`,
		`goal=picky reason="no applicable plan (1 relevant, every guard refused): the goal fails"`,
	}, noPlan, "each goal's no-plan record, then that of its goal_failed event")
}

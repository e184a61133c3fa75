package executor

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// soldierWith returns the seed soldier whose fetchMagazine and reload run
// the given bodies (nil keeps no body).
func soldierWith(fetch, reload engine.Body, tweak ...func(*engine.RoleSpec)) *engine.Agent {
	r := soldierRole()
	r.Actions[0].Body, r.Actions[1].Body = fetch, reload
	for _, f := range tweak {
		f(&r)
	}
	d, err := engine.Compile(r)
	if err != nil {
		panic(err)
	}
	return engine.NewAgent("s", d)
}

// setBody is a one-tick body that sets variables, ignoring the promised
// effects, to make a body misbehave on purpose.
func setBody(vars ...engine.Var) engine.Body {
	return engine.BodyFunc(func(a *engine.Agent, _ *engine.Action) (engine.Status, error) {
		for _, v := range vars {
			a.Set(v.Name, v.Value)
		}
		return engine.Succeeded, nil
	})
}

func TestExecutorThinkRunsThePlan(t *testing.T) {
	ag := soldierWith(engine.BodyFunc(engine.ApplyEffects), engine.BodyFunc(engine.ApplyEffects))
	ex := New(ag)
	p, err := ex.Plan()
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, p.Names())

	ran, err := ex.Think()
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, ran)
	assert.Equal(t, num(30), ag.Get("ammo"))
	assert.Equal(t, num(0), ag.Get("magazines"))
	require.Len(t, ex.SatisfiedGoals(), 1)
	assert.Equal(t, "armed", ex.SatisfiedGoals()[0].Name)
	assert.Empty(t, ex.UnsatisfiedGoals())
	ok, err := ex.IsGoalSatisfied("armed")
	require.NoError(t, err)
	assert.True(t, ok)

	ran, err = ex.Think()
	require.NoError(t, err)
	assert.Empty(t, ran, "nothing to do once every goal holds")
}

func TestExecutorThinkOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		fetch   engine.Body
		reload  engine.Body
		tweak   func(*engine.RoleSpec)
		bare    bool // plan with a Planner that has no Policy
		ran     []string
		wantErr func(t *testing.T, err error)
		ammo    expr.Value
	}{
		{name: "stale precondition", reason: "fetchMagazine's body brings no magazine, so reload's precondition fails",
			fetch: setBody(), reload: engine.BodyFunc(engine.ApplyEffects), ran: []string{"fetchMagazine"}, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				var pe *engine.PlanError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, engine.PreconditionStale, pe.Reason)
				assert.Equal(t, "armed", pe.Goal)
				assert.Equal(t, "reload", pe.Action)
				assert.Equal(t, "magazines > 0", pe.Precondition)
			}},
		{name: "stale but goals already met", reason: "fetchMagazine's body arms the soldier itself: stop without error",
			fetch: setBody(engine.Var{Name: "ammo", Value: num(50)}), reload: engine.BodyFunc(engine.ApplyEffects), ran: []string{"fetchMagazine"}, ammo: num(50)},
		{name: "goal unsatisfied after execution", reason: "reload's body loads too few rounds",
			fetch: engine.BodyFunc(engine.ApplyEffects), reload: setBody(engine.Var{Name: "ammo", Value: num(5)}, engine.Var{Name: "magazines", Value: num(0)}),
			ran: []string{"fetchMagazine", "reload"}, ammo: num(5),
			wantErr: func(t *testing.T, err error) {
				var pe *engine.PlanError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, engine.GoalUnsatisfiedAfterExecution, pe.Reason)
				assert.Equal(t, "armed", pe.Goal)
			}},
		{name: "restricted: the agent's planner plans around it", reason: "reload is the only way to armed: NOT_AUTHORIZED, nothing runs",
			fetch: engine.BodyFunc(engine.ApplyEffects), reload: engine.BodyFunc(engine.ApplyEffects),
			tweak: func(r *engine.RoleSpec) { r.Actions[1].Restricted = true }, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				var pe *engine.PlanError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, engine.NotAuthorized, pe.Reason)
				assert.Equal(t, "reload", pe.Action)
				assert.Equal(t, `a plan exists only through action "reload", which is restricted`, pe.Detail)
			}},
		{name: "restricted refused before any step", reason: "a planner without a policy plans reload; Think refuses the plan, fetchMagazine must not run either",
			fetch: engine.BodyFunc(engine.ApplyEffects), reload: engine.BodyFunc(engine.ApplyEffects), bare: true,
			tweak: func(r *engine.RoleSpec) { r.Actions[1].Restricted = true }, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, engine.ErrRestricted)
				var ae *engine.ActionError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, "reload", ae.Action)
			}},
		{name: "no body refused before any step", reason: "reload has no body",
			fetch: engine.BodyFunc(engine.ApplyEffects), reload: nil, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, engine.ErrNotExecutable)
				assert.Contains(t, err.Error(), `action "reload"`)
			}},
		{name: "body fails", reason: "a failing body stops the plan with its error",
			fetch: engine.BodyFunc(func(*engine.Agent, *engine.Action) (engine.Status, error) {
				return engine.Failed, errors.New("crate is empty")
			}),
			reload: engine.BodyFunc(engine.ApplyEffects), ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				var ae *engine.ActionError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, "fetchMagazine", ae.Action)
				assert.Contains(t, err.Error(), "crate is empty")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tweaks []func(*engine.RoleSpec)
			if tc.tweak != nil {
				tweaks = append(tweaks, tc.tweak)
			}
			ag := soldierWith(tc.fetch, tc.reload, tweaks...)
			ex := New(ag)
			if tc.bare {
				ex = executorWith(ag, engine.NewPlanner(ag.Domain))
			}
			ran, err := ex.Think()
			if tc.wantErr == nil {
				require.NoError(t, err, tc.reason)
			} else {
				require.Error(t, err, tc.reason)
				tc.wantErr(t, err)
			}
			if tc.ran == nil {
				assert.Empty(t, ran, tc.reason)
			} else {
				assert.Equal(t, tc.ran, ran, tc.reason)
			}
			assert.Equal(t, tc.ammo, ag.Get("ammo"), tc.reason)
		})
	}
}

func TestExecutorThinkPlanningFailure(t *testing.T) {
	ag := soldierWith(engine.BodyFunc(engine.ApplyEffects), engine.BodyFunc(engine.ApplyEffects))
	ex := executorWith(ag, depthPlanner(ag.Domain, 1))
	ran, err := ex.Think()
	var pe *engine.PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, engine.MaxDepthExceeded, pe.Reason, "the 2-step plan does not fit in depth 1")
	assert.Empty(t, ran)
}

// ticks is a body whose task runs for n resumes and records each dt.
type ticks struct {
	n           int
	dts         []float64
	interrupted bool
}

func (b *ticks) Start(*engine.Agent, *engine.Action) (engine.Task, error) { return b, nil }
func (b *ticks) Resume(dt float64) (engine.Status, error) {
	b.dts = append(b.dts, dt)
	if len(b.dts) < b.n {
		return engine.Running, nil
	}
	return engine.Succeeded, nil
}
func (b *ticks) Interrupt() { b.interrupted = true }

func TestExecutorResumesUntilDone(t *testing.T) {
	t.Run("default step", func(t *testing.T) {
		b := &ticks{n: 4}
		ex := New(soldierWith(b, nil))
		require.NoError(t, ex.ExecuteAction("fetchMagazine"))
		assert.Equal(t, []float64{1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60}, b.dts)
		assert.False(t, b.interrupted)
	})
	t.Run("own step", func(t *testing.T) {
		b := &ticks{n: 2}
		ex := New(soldierWith(b, nil))
		ex.Step = 0.5
		require.NoError(t, ex.ExecuteAction("fetchMagazine"))
		assert.Equal(t, []float64{0.5, 0.5}, b.dts)
	})
	t.Run("resume limit", func(t *testing.T) {
		b := &ticks{n: 100}
		ex := New(soldierWith(b, nil))
		ex.MaxResumes = 3
		err := ex.ExecuteAction("fetchMagazine")
		assert.ErrorIs(t, err, engine.ErrTooManyResumes)
		assert.Len(t, b.dts, 3)
		assert.True(t, b.interrupted)
	})
}

func TestExecutorExecuteAction(t *testing.T) {
	ag := soldierWith(engine.BodyFunc(engine.ApplyEffects), engine.BodyFunc(engine.ApplyEffects))
	ex := New(ag)

	err := ex.ExecuteAction("reload")
	var pe *engine.PlanError
	require.ErrorAs(t, err, &pe, "no magazine yet")
	assert.Equal(t, engine.PreconditionStale, pe.Reason)
	assert.Equal(t, "reload", pe.Action)

	require.NoError(t, ex.ExecuteAction("fetchMagazine"))
	assert.Equal(t, num(1), ag.Get("magazines"))
	require.NoError(t, ex.ExecuteAction("reload"))
	assert.Equal(t, num(30), ag.Get("ammo"))

	err = ex.ExecuteAction("relaod")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `did you mean "reload"`)

	_, err = ex.IsGoalSatisfied("nope")
	assert.Error(t, err)
}

func TestExecutorGoalLists(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "T",
		State: []engine.Var{{Name: "a", Value: boolean(true)}, {Name: "b", Value: boolean(false)}, {Name: "c", Value: boolean(true)}},
		Goals: []engine.GoalSpec{engine.NewGoal("ga", "a", engine.Low), engine.NewGoal("gb", "b", engine.Normal), engine.NewGoal("gc", "c", engine.Critical)}})
	require.NoError(t, err)
	ex := New(engine.NewAgent("x", d))
	names := func(gs []*engine.Goal) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.Name)
		}
		return out
	}
	assert.Equal(t, []string{"gc", "ga"}, names(ex.SatisfiedGoals()), "highest priority first")
	assert.Equal(t, []string{"gb"}, names(ex.UnsatisfiedGoals()))
	ok, err := ex.IsGoalSatisfied("gb")
	require.NoError(t, err)
	assert.False(t, ok)
}

// executorWith is New with its Planner replaced by p.
func executorWith(a *engine.Agent, p Planner) *Executor {
	e := New(a)
	e.Planner = p
	return e
}

func num(f float64) expr.Value  { return expr.NumberValue(f) }
func boolean(b bool) expr.Value { return expr.BoolValue(b) }

// soldierRole is the soldier of the planning examples: fetch a magazine,
// then reload, to be armed.
func soldierRole() engine.RoleSpec {
	return engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: num(0)}, {Name: "magazines", Value: num(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec(),
			engine.NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		},
	}
}

func depthPlanner(d *engine.Domain, depth int) *engine.Planner {
	p := engine.NewPlanner(d)
	p.MaxDepth = depth
	return p
}

// scriptPlanner is a Planner that is not an *engine.Planner: it always
// plans Work.
type scriptPlanner struct{ d *engine.Domain }

func (s scriptPlanner) Plan(expr.State) (*engine.Plan, error) {
	w := s.d.Action("Work")
	return &engine.Plan{Steps: []*engine.Action{w}, Cost: w.Cost,
		Goals: []engine.GoalPlan{{Goal: s.d.Goal("money"), Steps: []*engine.Action{w}, Cost: w.Cost}}}, nil
}

// robOrWork is a role with two ways to be rich: Rob (cost 1, which needs
// the authority "crime") and Work (cost 5).
func robOrWork(t *testing.T) *engine.Domain {
	d, err := engine.Compile(engine.RoleSpec{Name: "R",
		State: []engine.Var{{Name: "rich", Value: boolean(false)}},
		Goals: []engine.GoalSpec{engine.NewGoal("money", "rich", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("Rob").Effects("rich = true").Cost(1).Authority("crime").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
			engine.NewAction("Work").Effects("rich = true").Cost(5).Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		}})
	require.NoError(t, err)
	return d
}

// TestExecutorTakesAnyPlanner: an executor runs the plan of any Planner;
// the default one plans with the agent's authorities.
func TestExecutorTakesAnyPlanner(t *testing.T) {
	d := robOrWork(t)
	crook := engine.NewAgent("crook", d)
	crook.Authorities = []string{"crime"}
	ran, err := executorWith(crook, scriptPlanner{d}).Think()
	require.NoError(t, err)
	assert.Equal(t, []string{"Work"}, ran, "any planner")
	ran, err = New(engine.NewAgent("crook2", d)).Think()
	require.NoError(t, err)
	assert.Equal(t, []string{"Work"}, ran, "without the authority the default planner plans around Rob")
	crook3 := engine.NewAgent("crook3", d)
	crook3.Authorities = []string{"crime"}
	ran, err = New(crook3).Think()
	require.NoError(t, err)
	assert.Equal(t, []string{"Rob"}, ran, "with it, the cheaper way")

	honest := engine.NewAgent("honest", d)
	_, err = executorWith(honest, engine.NewPlanner(d)).Think()
	assert.ErrorIs(t, err, engine.ErrRestricted, "a policy-free planner's plan is refused by Think")
	assert.EqualError(t, err, `engine: action "Rob": the action needs authority "crime", and none is granted; executors refuse it`)
	assert.Equal(t, boolean(false), honest.Get("rich"))
}

package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// soldierWith returns the seed soldier whose fetchMagazine and reload run
// the given bodies (nil keeps no body).
func soldierWith(fetch, reload Body, tweak ...func(*RoleSpec)) *Agent {
	r := soldierRole()
	r.Actions[0].Body, r.Actions[1].Body = fetch, reload
	for _, f := range tweak {
		f(&r)
	}
	d, err := Compile(r)
	if err != nil {
		panic(err)
	}
	return NewAgent("s", d)
}

// setBody is a one-tick body that sets variables, ignoring the promised
// effects, to make a body misbehave on purpose.
func setBody(vars ...Var) Body {
	return BodyFunc(func(a *Agent, _ *Action) (Status, error) {
		for _, v := range vars {
			a.Set(v.Name, v.Value)
		}
		return Succeeded, nil
	})
}

func TestPlanExecutorThinkRunsThePlan(t *testing.T) {
	ag := soldierWith(BodyFunc(ApplyEffects), BodyFunc(ApplyEffects))
	ex := NewPlanExecutor(ag)
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

func TestPlanExecutorThinkOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		fetch   Body
		reload  Body
		tweak   func(*RoleSpec)
		bare    bool // plan with a Planner that has no Policy
		ran     []string
		wantErr func(t *testing.T, err error)
		ammo    expr.Value
	}{
		{name: "stale precondition", reason: "fetchMagazine's body brings no magazine, so reload's precondition fails",
			fetch: setBody(), reload: BodyFunc(ApplyEffects), ran: []string{"fetchMagazine"}, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				var pe *PlanError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, PreconditionStale, pe.Reason)
				assert.Equal(t, "armed", pe.Goal)
				assert.Equal(t, "reload", pe.Action)
				assert.Equal(t, "magazines > 0", pe.Precondition)
			}},
		{name: "stale but goals already met", reason: "fetchMagazine's body arms the soldier itself: stop without error",
			fetch: setBody(Var{"ammo", num(50)}), reload: BodyFunc(ApplyEffects), ran: []string{"fetchMagazine"}, ammo: num(50)},
		{name: "goal unsatisfied after execution", reason: "reload's body loads too few rounds",
			fetch: BodyFunc(ApplyEffects), reload: setBody(Var{"ammo", num(5)}, Var{"magazines", num(0)}),
			ran: []string{"fetchMagazine", "reload"}, ammo: num(5),
			wantErr: func(t *testing.T, err error) {
				var pe *PlanError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, GoalUnsatisfiedAfterExecution, pe.Reason)
				assert.Equal(t, "armed", pe.Goal)
			}},
		{name: "restricted: the agent's planner plans around it", reason: "reload is the only way to armed: NOT_AUTHORIZED, nothing runs",
			fetch: BodyFunc(ApplyEffects), reload: BodyFunc(ApplyEffects),
			tweak: func(r *RoleSpec) { r.Actions[1].Restricted = true }, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				var pe *PlanError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, NotAuthorized, pe.Reason)
				assert.Equal(t, "reload", pe.Action)
				assert.Equal(t, `a plan exists only through action "reload", which is restricted`, pe.Detail)
			}},
		{name: "restricted refused before any step", reason: "a planner without a policy plans reload; Think refuses the plan, fetchMagazine must not run either",
			fetch: BodyFunc(ApplyEffects), reload: BodyFunc(ApplyEffects), bare: true,
			tweak: func(r *RoleSpec) { r.Actions[1].Restricted = true }, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, ErrRestricted)
				var ae *ActionError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, "reload", ae.Action)
			}},
		{name: "no body refused before any step", reason: "reload has no body",
			fetch: BodyFunc(ApplyEffects), reload: nil, ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, ErrNotExecutable)
				assert.Contains(t, err.Error(), `action "reload"`)
			}},
		{name: "body fails", reason: "a failing body stops the plan with its error",
			fetch:  BodyFunc(func(*Agent, *Action) (Status, error) { return Failed, errors.New("crate is empty") }),
			reload: BodyFunc(ApplyEffects), ammo: num(0),
			wantErr: func(t *testing.T, err error) {
				var ae *ActionError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, "fetchMagazine", ae.Action)
				assert.Contains(t, err.Error(), "crate is empty")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tweaks []func(*RoleSpec)
			if tc.tweak != nil {
				tweaks = append(tweaks, tc.tweak)
			}
			ag := soldierWith(tc.fetch, tc.reload, tweaks...)
			ex := NewPlanExecutor(ag)
			if tc.bare {
				ex = executorWith(ag, NewPlanner(ag.Domain))
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

func TestPlanExecutorThinkPlanningFailure(t *testing.T) {
	ag := soldierWith(BodyFunc(ApplyEffects), BodyFunc(ApplyEffects))
	ex := executorWith(ag, depthPlanner(ag.Domain, 1))
	ran, err := ex.Think()
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, MaxDepthExceeded, pe.Reason, "the 2-step plan does not fit in depth 1")
	assert.Empty(t, ran)
}

// ticks is a body whose task runs for n resumes and records each dt.
type ticks struct {
	n           int
	dts         []float64
	interrupted bool
}

func (b *ticks) Start(*Agent, *Action) (Task, error) { return b, nil }
func (b *ticks) Resume(dt float64) (Status, error) {
	b.dts = append(b.dts, dt)
	if len(b.dts) < b.n {
		return Running, nil
	}
	return Succeeded, nil
}
func (b *ticks) Interrupt() { b.interrupted = true }

func TestPlanExecutorResumesUntilDone(t *testing.T) {
	t.Run("default step", func(t *testing.T) {
		b := &ticks{n: 4}
		ex := NewPlanExecutor(soldierWith(b, nil))
		require.NoError(t, ex.ExecuteAction("fetchMagazine"))
		assert.Equal(t, []float64{1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60}, b.dts)
		assert.False(t, b.interrupted)
	})
	t.Run("own step", func(t *testing.T) {
		b := &ticks{n: 2}
		ex := NewPlanExecutor(soldierWith(b, nil))
		ex.Step = 0.5
		require.NoError(t, ex.ExecuteAction("fetchMagazine"))
		assert.Equal(t, []float64{0.5, 0.5}, b.dts)
	})
	t.Run("resume limit", func(t *testing.T) {
		b := &ticks{n: 100}
		ex := NewPlanExecutor(soldierWith(b, nil))
		ex.MaxResumes = 3
		err := ex.ExecuteAction("fetchMagazine")
		assert.ErrorIs(t, err, ErrTooManyResumes)
		assert.Len(t, b.dts, 3)
		assert.True(t, b.interrupted)
	})
}

func TestPlanExecutorExecuteAction(t *testing.T) {
	ag := soldierWith(BodyFunc(ApplyEffects), BodyFunc(ApplyEffects))
	ex := NewPlanExecutor(ag)

	err := ex.ExecuteAction("reload")
	var pe *PlanError
	require.ErrorAs(t, err, &pe, "no magazine yet")
	assert.Equal(t, PreconditionStale, pe.Reason)
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

func TestPlanExecutorGoalLists(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "T",
		State: []Var{{"a", boolean(true)}, {"b", boolean(false)}, {"c", boolean(true)}},
		Goals: []GoalSpec{NewGoal("ga", "a", Low), NewGoal("gb", "b", Normal), NewGoal("gc", "c", Critical)}})
	require.NoError(t, err)
	ex := NewPlanExecutor(NewAgent("x", d))
	names := func(gs []*Goal) []string {
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

// executorWith is NewPlanExecutor with its Planner replaced by p.
func executorWith(a *Agent, p StatePlanner) *PlanExecutor {
	e := NewPlanExecutor(a)
	e.Planner = p
	return e
}

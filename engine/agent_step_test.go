package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// tickedChanges is a reactive layer that keeps each belief change it is
// handed with the agent's tick at that moment.
type tickedChanges struct{ got []string }

func (l *tickedChanges) Believed(a *Agent, c reactive.BeliefChange) {
	l.got = append(l.got, fmt.Sprintf("%d %s:%s->%s", a.Ticks(), c.Name, c.Old, c.New))
}
func (l *tickedChanges) Achieve(*Agent, reactive.Goal) {}
func (l *tickedChanges) Step(*Agent, float64)          {}

// countBody writes the agent's tick to x at each resume and succeeds at
// its n-th; its Interrupt writes "woken" to note.
type countBody struct{ n int }

func (b countBody) Start(a *Agent, act *Action) (Task, error) {
	return &countTask{n: b.n, a: a, act: act}, nil
}

type countTask struct {
	n, done int
	a       *Agent
	act     *Action
}

func (t *countTask) Resume(float64) (Status, error) {
	t.done++
	t.a.Set("x", expr.NumberValue(float64(t.a.Ticks())))
	if t.done < t.n {
		return Running, nil
	}
	return ApplyEffects(t.a, t.act)
}

func (t *countTask) Interrupt() { t.a.Set("note", expr.StringValue("woken")) }

// TestABodysChangesReachTheLayerAtTheEndOfItsTick: what a body writes in
// its resume is handed to the reactive layer before the tick ends, and so
// is what its interruption writes when no step follows it; neither waits
// for the next tick's look at the state.
func TestABodysChangesReachTheLayerAtTheEndOfItsTick(t *testing.T) {
	w, a, _ := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"x", expr.NumberValue(0)}, {"danger", expr.BoolValue(false)},
			{"note", expr.StringValue("none")}, {"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Work").Pre("!danger").Effects("done = true").Body(countBody{n: 10}).Spec()}})
	layer := &tickedChanges{}
	a.SetReactive(layer)
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, []string{"1 x:0->1", "2 x:1->2"}, layer.got, "each resume's write, in its own tick")
	require.True(t, a.Set("danger", expr.BoolValue(true)))
	w.Tick(0.1) // Work is interrupted; no plan is left
	require.Nil(t, a.Running())
	assert.Equal(t, []string{"1 x:0->1", "2 x:1->2", "3 danger:false->true", `3 note:"none"->"woken"`}, layer.got,
		"the interruption's write, in the tick that interrupted it")
}

// TestAHigherGoalLostBetweenStepsDropsThePlan: when a goal above the
// current one stops holding after a step ends and before the next starts,
// the plan is dropped with a replan record naming that goal, and the
// higher goal is planned; after the plan's last step the next plan is
// made without that record.
func TestAHigherGoalLostBetweenStepsDropsThePlan(t *testing.T) {
	role := RoleSpec{Name: "R",
		State: []Var{{"a", expr.BoolValue(false)}, {"b", expr.BoolValue(false)}, {"safe", expr.BoolValue(true)}},
		Goals: []GoalSpec{NewGoal("work", "b", Normal), NewGoal("safe", "safe", High)},
		Actions: []ActionSpec{
			NewAction("A").Effects("a = true").Body(ticksBody{n: 1}).Spec(),
			NewAction("B").Pre("a").Effects("b = true").Body(ticksBody{n: 1}).Spec(),
			NewAction("Hide").Effects("safe = true").Body(ticksBody{n: 1}).Spec(),
		}}
	lines := func(tr *trace) []string {
		var out []string
		for _, e := range tr.events {
			switch e.Kind {
			case record.EventReplan, record.EventPlan, record.EventStart:
				out = append(out, fmt.Sprintf("%d %s %s %s %s", e.Tick, e.Kind, e.Goal, e.Action, e.Reason))
			}
		}
		return out
	}

	w, a, tr := newWorld(t, role)
	w.Tick(0.1) // plans work: A, B; A runs and ends
	require.True(t, a.Set("safe", expr.BoolValue(false)))
	w.Tick(0.1)
	assert.Equal(t, []string{
		"1 plan work  ",
		"1 start work A ",
		"2 replan work  goal safe (high) became unsatisfied",
		"2 plan safe  ",
		"2 start safe Hide ",
	}, lines(tr))

	w, a, tr = newWorld(t, role)
	w.Tick(0.1)
	w.Tick(0.1) // B runs and ends: the plan is done
	require.True(t, a.Set("safe", expr.BoolValue(false)))
	w.Tick(0.1)
	assert.Equal(t, []string{
		"1 plan work  ",
		"1 start work A ",
		"2 start work B ",
		"3 plan safe  ",
		"3 start safe Hide ",
	}, lines(tr))
}

// TestAGoalOfTheCurrentPriorityWaitsForThePlanToEnd: a goal of the same
// priority as the one pursued that the world makes unsatisfied does not
// interrupt the running step.
func TestAGoalOfTheCurrentPriorityWaitsForThePlanToEnd(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"rested", expr.BoolValue(false)}, {"fed", expr.BoolValue(true)}},
		Goals: []GoalSpec{NewGoal("rest", "rested", Normal), NewGoal("eat", "fed", Normal)},
		Actions: []ActionSpec{
			NewAction("Sleep").Effects("rested = true").Body(ticksBody{n: 5}).Spec(),
			NewAction("Eat").Effects("fed = true").Body(ticksBody{n: 1}).Spec(),
		}})
	w.Tick(0.1)
	require.Equal(t, "Sleep", a.Running().Name)
	require.True(t, a.Set("fed", expr.BoolValue(false)))
	for range 5 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 start Sleep", "5 finish Sleep", "6 start Eat", "6 finish Eat"},
		tr.lines(record.EventStart, record.EventFinish, record.EventInterrupt))
}

// TestAPickIsReScoredAtItsRethinkTimeWithinTheTolerance: a pick made at
// 0 s with RethinkEvery 1 + 1e-9 s is scored again at 1 s, within 1e-9 s
// of its time, not a tick later.
func TestAPickIsReScoredAtItsRethinkTimeWithinTheTolerance(t *testing.T) {
	w, a, tr := newWorld(t, grazeOrFlee(ticksBody{n: 100}))
	a.RethinkEvery = 1 + 1e-9
	w.Tick(0.25)
	a.Set("danger", expr.NumberValue(1))
	for range 4 {
		w.Tick(0.25)
	}
	assert.Equal(t, []string{"1 pick Graze", "5 pick Flee"}, tr.lines(record.EventPick), "ticks at 0, 0.25, 0.5, 0.75, 1 s")
}

// TestAPickKeptAtAReScoreIsScoredAgainRethinkEveryLater: a re-score that
// keeps the running pick sets the next one RethinkEvery seconds on: a pick
// kept at 1 s is scored again at 2 s, not at once when the state changes.
func TestAPickKeptAtAReScoreIsScoredAgainRethinkEveryLater(t *testing.T) {
	w, a, tr := newWorld(t, grazeOrFlee(ticksBody{n: 100}))
	a.RethinkEvery = 1
	for range 5 {
		w.Tick(0.25) // 0 s to 1 s: Graze, kept at 1 s
	}
	a.Set("danger", expr.NumberValue(1))
	for range 4 {
		w.Tick(0.25)
	}
	assert.Equal(t, []string{"1 pick Graze", "9 pick Flee"}, tr.lines(record.EventPick), "the ninth tick is at 2 s")
}

// grazeOrFlee is a utility role: Graze scores 0.5, Flee scores danger.
func grazeOrFlee(flee Body) RoleSpec {
	return RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"danger", expr.NumberValue(0)}},
		Actions: []ActionSpec{
			{Name: "Graze", Utility: UtilitySpec{Value: 50}, Considerations: []ConsiderationSpec{{Kind: ConsiderValue}}, Body: ticksBody{n: 100}},
			{Name: "Flee", Considerations: []ConsiderationSpec{{Input: "danger", Min: 0, Max: 1}}, Body: flee},
		}}
}

// failFirst fails to start the first time and runs n ticks afterwards.
type failFirst struct {
	runs *int
	n    int
}

func (b failFirst) Start(a *Agent, act *Action) (Task, error) {
	*b.runs++
	if *b.runs == 1 {
		return nil, errors.New("tripped")
	}
	return &ticksTask{b: ticksBody{n: b.n}, a: a, act: act}, nil
}

// TestABetterPickBackedOffIsTakenWhenItsBackOffEnds: a re-score that
// keeps the running pick only because the better one is backed off does
// not vouch for the next re-score, though no state changed since: the
// better pick is taken once its back-off is over.
func TestABetterPickBackedOffIsTakenWhenItsBackOffEnds(t *testing.T) {
	runs := 0
	w, a, tr := newWorld(t, grazeOrFlee(failFirst{runs: &runs, n: 100}))
	a.Set("danger", expr.NumberValue(1))
	a.RethinkEvery = 0.25
	a.RetryDelay = 1
	for range 6 {
		w.Tick(0.25) // Flee fails at 0 s; Graze from 0.25 s; re-scores at 0.5 and 0.75 s keep it
	}
	assert.Equal(t, []string{"1 pick Flee", "1 fail Flee", "2 pick Graze", "5 interrupt Graze", "5 pick Flee"},
		tr.lines(record.EventPick, record.EventFail, record.EventInterrupt), "Flee's back-off ends at 1 s, the fifth tick")
}

// TestARunningPickIsNotLeftForAnActionOfScoreZero: a running pick whose
// score fell below zero (an unclamped consideration) keeps running when
// the action that now leads it scores 0, since a pick of score 0 is never
// made.
func TestARunningPickIsNotLeftForAnActionOfScoreZero(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"mood", expr.NumberValue(0.5)}},
		Actions: []ActionSpec{
			{Name: "Idle", Considerations: []ConsiderationSpec{{Score: func(*Action, expr.State) float64 { return 0 }}}, Body: ticksBody{n: 100}},
			{Name: "Graze", Considerations: []ConsiderationSpec{{Score: func(_ *Action, st expr.State) float64 { n, _ := st[0].AsNumber(); return n }}}, Body: ticksBody{n: 100}},
		}})
	a.RethinkEvery = 0.1
	w.Tick(0.1)
	require.Equal(t, "Graze", a.Running().Name)
	a.Set("mood", expr.NumberValue(-1))
	for range 3 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"1 pick Graze"}, tr.lines(record.EventPick, record.EventInterrupt))
	assert.Equal(t, "Graze", a.Running().Name)
}

// TestAGoalTheWorldReachedBetweenStepsEndsThePlan: when the world makes
// the goal hold after a step ends and before the next starts, the rest of
// the plan is not run.
func TestAGoalTheWorldReachedBetweenStepsEndsThePlan(t *testing.T) {
	w, a, tr := newWorld(t, twoStepRole())
	w.Tick(0.1) // A runs and ends
	require.True(t, a.Set("b", expr.BoolValue(true)))
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, []string{"1 start A", "1 finish A"}, tr.lines(record.EventStart, record.EventFinish))
	assert.Nil(t, a.Running())
	assert.Empty(t, a.CurrentPlan())
}

// TestAStepThatUsesNoObjectHoldsNone: a step that uses no smart object,
// started in the tick that interrupted a step holding one, holds nothing:
// its start record names no object.
func TestAStepThatUsesNoObjectHoldsNone(t *testing.T) {
	load := NewAction("Load").Pre("crateOk").Effects("done = true").Body(ticksBody{n: 100}).Spec()
	load.Uses = "crate"
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"crateOk", expr.BoolValue(true)}, {"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{load,
			NewAction("Carry").Pre("!crateOk").Effects("done = true").Body(ticksBody{n: 100}).Spec(),
		}})
	require.NoError(t, w.AddObject(&Object{Name: "c1", Kind: "crate", Slots: 1}))
	w.Tick(0.1)
	require.Same(t, w.Object("c1"), a.Holds())
	require.True(t, a.Set("crateOk", expr.BoolValue(false)))
	var during *Object
	a.Domain.Action("Carry").Body = BodyFunc(func(ag *Agent, _ *Action) (Status, error) {
		during = ag.Holds()
		return Running, nil
	})
	w.Tick(0.1) // Load is interrupted, Carry starts
	var starts []string
	for _, e := range tr.events {
		if e.Kind == record.EventStart {
			starts = append(starts, fmt.Sprintf("%d %s peer=%q", e.Tick, e.Action, e.Peer))
		}
	}
	assert.Equal(t, []string{`1 Load peer="c1"`, `2 Carry peer=""`}, starts)
	assert.Nil(t, during, "Carry's body sees no object held")
	assert.Nil(t, a.Holds())
}

// TestEachFinishedStepIsProgress: an agent working through a plan longer
// than StuckAfter is not STUCK while its steps finish, though its goal
// holds only at the end.
func TestEachFinishedStepIsProgress(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"n", expr.NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("g", "n >= 4", Normal)},
		Actions: []ActionSpec{NewAction("Step").Effects("n = n + 1").Body(ticksBody{n: 3}).Spec()}})
	a.StuckAfter = 0.5
	for range 13 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"3 finish Step", "6 finish Step", "9 finish Step", "12 finish Step"},
		tr.lines(record.EventStuck, record.EventFinish))
	assert.False(t, a.Stuck())
}

// TestTheStuckCheckTurnedBackOnFindsTheGoalStillUnmet: with StuckAfter
// negative no check is made; set back to a positive value while a step
// runs that changes nothing, the next check finds the goal unmet and the
// agent STUCK once that many seconds have passed without progress.
func TestTheStuckCheckTurnedBackOnFindsTheGoalStillUnmet(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Wait").Effects("done = true").Body(ticksBody{n: 100}).Spec()}})
	a.StuckAfter = -1
	for range 3 {
		w.Tick(0.1)
	}
	a.StuckAfter = 0.5
	for range 5 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"6 stuck g"}, tr.lines(record.EventStuck), "at 0.5 s, 0.5 s after Wait started")
	assert.True(t, a.Stuck())
}

// TestAnAgentIsStuckOnItsFirstUnmetGoalWhereverItStands: the goal a STUCK
// record names is the first unmet one in priority order, and a running
// step that changes nothing is no progress, whether that goal is the
// fourth or the 256th (past what the progress check remembers).
func TestAnAgentIsStuckOnItsFirstUnmetGoalWhereverItStands(t *testing.T) {
	for _, n := range []int{4, 256} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var goals []GoalSpec
			for i := range n - 1 {
				goals = append(goals, NewGoal(fmt.Sprintf("met%d", i), "ok", Normal))
			}
			goals = append(goals, NewGoal("last", "done", Normal))
			w, a, tr := newWorld(t, RoleSpec{Name: "R",
				State:   []Var{{"ok", expr.BoolValue(true)}, {"done", expr.BoolValue(false)}},
				Goals:   goals,
				Actions: []ActionSpec{NewAction("Wait").Effects("done = true").Body(ticksBody{n: 100}).Spec()}})
			a.StuckAfter = 0.3
			for range 6 {
				w.Tick(0.1)
			}
			assert.Equal(t, []string{"4 stuck last"}, tr.lines(record.EventStuck))
		})
	}
}

// TestAnAgentIsStuckWithinTheToleranceOfStuckAfter: an agent is STUCK at
// the first tick within 1e-9 s of StuckAfter seconds without progress.
func TestAnAgentIsStuckWithinTheToleranceOfStuckAfter(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Wait").Effects("done = true").Body(ticksBody{n: 100}).Spec()}})
	a.StuckAfter = 0.5 + 1e-9
	for range 5 {
		w.Tick(0.1)
	}
	require.Equal(t, a.StuckAfter, a.Time()+1e-9, "the next tick, at 0.5 s, is within 1e-9 s of StuckAfter after 0 s")
	w.Tick(0.1)
	assert.Equal(t, []string{"6 stuck g"}, tr.lines(record.EventStuck))
}

// TestProgressWhileTheStuckCheckIsOff: while StuckAfter is negative no
// check is made, so goals that hold then count as no progress: turned
// back on, the check measures from the last time it saw them hold (a);
// and its first look, when they hold, is progress at once (b).
func TestProgressWhileTheStuckCheckIsOff(t *testing.T) {
	role := RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"ok", expr.BoolValue(true)}},
		Goals: []GoalSpec{NewGoal("fine", "ok", Normal)},
		Actions: []ActionSpec{
			{Name: "Graze", Utility: UtilitySpec{Value: 50}, Considerations: []ConsiderationSpec{{Kind: ConsiderValue}}, Body: ticksBody{n: 1000}},
		}}
	t.Run("a", func(t *testing.T) {
		w, a, tr := newWorld(t, role)
		a.StuckAfter = 0.5
		for range 3 {
			w.Tick(0.1) // the goal holds at 0, 0.1 and 0.2 s
		}
		a.StuckAfter = -1
		for range 5 {
			w.Tick(0.1) // 0.3 to 0.7 s: no check
		}
		a.StuckAfter = 0.5
		require.True(t, a.Set("ok", expr.BoolValue(false)))
		w.Tick(0.1)
		assert.Equal(t, []string{"9 stuck fine"}, tr.lines(record.EventStuck), "at 0.8 s, 0.6 s after the goal was last seen to hold")
	})
	t.Run("b", func(t *testing.T) {
		w, a, tr := newWorld(t, role)
		a.StuckAfter = -1
		for range 3 {
			w.Tick(0.1) // 0 to 0.2 s: no check
		}
		a.StuckAfter = 0.5
		w.Tick(0.1) // 0.3 s: the goal holds
		w.Tick(0.1) // 0.4 s: the goal holds
		require.True(t, a.Set("ok", expr.BoolValue(false)))
		for range 5 {
			w.Tick(0.1)
		}
		assert.Equal(t, []string{"10 stuck fine"}, tr.lines(record.EventStuck), "at 0.9 s, 0.5 s after the goal was last seen to hold")
	})
}

// refusingTask runs until interrupted, and its interruption fails.
type refusingTask struct{}

func (refusingTask) Resume(float64) (Status, error) { return Running, nil }
func (refusingTask) Interrupt()                     {}
func (refusingTask) InterruptErr() error            { return errors.New("the handler broke") }

// TestAFailedInterruptionIsRecordedAsAFailureOfTheStep: a task whose
// interruption reports an error (InterruptReporter) has its step
// recorded as failed after the interrupt record, with the error after
// "on_interrupt: ".
func TestAFailedInterruptionIsRecordedAsAFailureOfTheStep(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R",
		State: []Var{{"calm", expr.BoolValue(true)}, {"done", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("g", "done", Normal)},
		Actions: []ActionSpec{NewAction("Nap").Pre("calm").Effects("done = true").
			Body(bodyOf{refusingTask{}}).Spec()}})
	w.Tick(0.1)
	require.True(t, a.Set("calm", expr.BoolValue(false)))
	w.Tick(0.1)
	var got []string
	for _, e := range tr.events {
		if e.Kind == record.EventInterrupt || e.Kind == record.EventFail {
			got = append(got, fmt.Sprintf("%d %s %s: %s", e.Tick, e.Kind, e.Action, e.Reason))
		}
	}
	assert.Equal(t, []string{
		`2 interrupt Nap: precondition "calm" of Nap no longer holds`,
		"2 fail Nap: on_interrupt: the handler broke",
	}, got)
}

// bodyOf is a Body that starts t.
type bodyOf struct{ t Task }

func (b bodyOf) Start(*Agent, *Action) (Task, error) { return b.t, nil }

package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestGameTimeIsExact(t *testing.T) {
	tests := []struct {
		name, reason string
		dts          []float64 // one per tick
		want         float64
	}{
		{name: "tenths", reason: "50 ticks of 0.1 s are 5 s, not the 4.999999999999998 a sum gives",
			dts: repeat(0.1, 50), want: 5},
		{name: "sixtieths", reason: "60 ticks at 60 per second are 1 s", dts: repeat(1.0/60, 60), want: 1},
		{name: "three tenths", reason: "3 ticks of 0.1 s read 0.3 (the sum reads 0.30000000000000004)", dts: repeat(0.1, 3), want: 0.3},
		{name: "dt changes", reason: "10 ticks of 0.1 s then 10 of 0.05 s: 1.5 s", dts: append(repeat(0.1, 10), repeat(0.05, 10)...), want: 1.5},
		{name: "odd dt", reason: "a dt that is no fraction 1/n is multiplied out, 7 x 0.3 = 2.1 (the sum reads 2.0999999999999996)", dts: repeat(0.3, 7), want: 2.1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, a, _ := newWorld(t, RoleSpec{Name: "R"})
			for _, dt := range tc.dts {
				w.Tick(dt)
			}
			assert.Equal(t, tc.want, a.Time(), tc.reason)
			assert.Equal(t, tc.want, w.Time, "World.Time: "+tc.reason)
		})
	}
}

func TestWorldTimeSetByTheGameCountsOn(t *testing.T) {
	w, _, _ := newWorld(t, RoleSpec{Name: "R"})
	for range 20 {
		w.Tick(0.1)
	}
	require.Equal(t, 2.0, w.Time)
	w.Time = 100 // a game that moves its clock (a new round that starts at 100 s)
	for range 30 {
		w.Tick(0.1)
	}
	assert.Equal(t, 103.0, w.Time, "30 ticks of 0.1 s on from the 100 s the game set")
	assert.Equal(t, 50, w.Ticks)
}

func TestWorldTimeIsExactAfterRestore(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R"})
	require.NoError(t, err)
	w := NewWorld(1)
	w.Add(NewAgent("a", d))
	for range 25 {
		w.Tick(0.1)
	}
	var buf strings.Builder
	require.NoError(t, w.Snapshot(&buf))
	assert.Contains(t, buf.String(), `"clock"`, "the world's clock is saved")
	r, err := Restore(strings.NewReader(buf.String()), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	require.Equal(t, 2.5, r.Time)
	for range 25 {
		r.Tick(0.1)
	}
	assert.Equal(t, 5.0, r.Time, "the restored clock counts on exactly: 50 ticks of 0.1 s")
	assert.Equal(t, 5.0, r.Agents[0].Time())

	// A snapshot without the world's clock (older engines) counts on from its time.
	old := strings.Replace(buf.String(), `"clock"`, `"oldClock"`, 1)
	r, err = Restore(strings.NewReader(old), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	r.Tick(0.1)
	assert.Equal(t, 2.6, r.Time)
}

func repeat(x float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

func TestShortNumber(t *testing.T) {
	for in, want := range map[float64]string{48.699999999999996: "48.7", 4.999999999999998: "5", 0.1 + 0.2: "0.3",
		30: "30", 1.0 / 3: "0.333333333333", -2.5: "-2.5", 1e21: "1e+21"} {
		assert.Equal(t, want, shortNumber(in), "%v", in)
	}
}

func TestPickRecordCarriesConsiderations(t *testing.T) {
	w, _, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"hunger", expr.NumberValue(80)}},
		Actions: []ActionSpec{{Name: "Eat", Utility: UtilitySpec{Value: 50, Cost: 10}, Body: ticksBody{n: 100},
			Considerations: []ConsiderationSpec{
				{Name: "hungry", Kind: ConsiderInput, Input: "hunger", Min: 0, Max: 100},
				{Name: "worth", Kind: ConsiderUtility, Weight: 2},
			}}}})
	w.Tick(0.1)
	require.Equal(t, []string{"1 pick Eat"}, tr.lines(record.EventPick))
	e := tr.events[0]
	assert.Equal(t, []record.ConsiderationScore{
		{Name: "hungry", Input: 80, Output: 0.8, Weight: 1},
		{Name: "worth", Input: 40, Output: 0.7, Weight: 2},
	}, e.Considerations)
	assert.InDelta(t, (0.8+2*0.7)/3, e.Score, 1e-12, "the score is their weighted average")
	js, err := json.Marshal(e)
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(js), `"considerations":[{"name":"hungry","input":80,"output":0.8,"weight":1}`), string(js))
}

func TestDecidedBy(t *testing.T) {
	w, a, _ := newWorld(t, RoleSpec{Name: "R", Decide: "hybrid",
		State: []Var{{"fed", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("eat", "fed", Normal)},
		Actions: []ActionSpec{
			NewAction("Eat").Effects("fed = true").Body(ticksBody{n: 3}).Spec(),
			{Name: "Nap", Utility: UtilitySpec{Value: 50}, Body: ticksBody{n: 100}},
		}})
	assert.Equal(t, "", a.DecidedBy(), "nothing yet")
	w.Tick(0.1)
	assert.Equal(t, "goal", a.DecidedBy(), "Eat serves the goal eat")
	for i := 0; i < 3; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, "pick", a.DecidedBy(), "fed: the utility planner picked Nap")
	assert.Equal(t, "Nap", a.Running().Name)
}

func TestTimingRecordsEveryDecision(t *testing.T) {
	tests := []struct {
		name, reason string
		role         RoleSpec
		handle       bool
		kind         record.EventKind
	}{
		{name: "GOAP plan", reason: "the search's wall time is on the plan record", kind: record.EventPlan,
			role: RoleSpec{Name: "R", State: []Var{{"fed", expr.BoolValue(false)}}, Goals: []GoalSpec{NewGoal("eat", "fed", Normal)},
				Actions: []ActionSpec{NewAction("Eat").Effects("fed = true").Body(ticksBody{n: 1}).Spec()}}},
		{name: "utility pick", reason: "the scoring's wall time is on the pick record", kind: record.EventPick,
			role: RoleSpec{Name: "R", Decide: "utility",
				Actions: []ActionSpec{{Name: "Nap", Utility: UtilitySpec{Value: 50}, Body: ticksBody{n: 100}}}}},
		{name: "planner handle", reason: "a custom handle's Plan is timed too", kind: record.EventPlan, handle: true,
			role: RoleSpec{Name: "R", State: []Var{{"fed", expr.BoolValue(false)}}, Goals: []GoalSpec{NewGoal("eat", "fed", Normal)},
				Actions: []ActionSpec{NewAction("Eat").Effects("fed = true").Body(ticksBody{n: 1}).Spec()}}},
	}
	for _, tc := range tests {
		for _, timing := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s timing=%v", tc.name, timing), func(t *testing.T) {
				w, a, tr := newWorld(t, tc.role)
				if tc.handle {
					asked := 0
					a.SetPlannerHandle(fixedHandle{a: a, goal: "eat", steps: []string{"Eat"}, asked: &asked})
				}
				w.Timing = timing
				w.Tick(0.1)
				var got *record.Event
				for i := range tr.events {
					if tr.events[i].Kind == tc.kind {
						got = &tr.events[i]
					}
				}
				require.NotNil(t, got, "a %s record", tc.kind)
				if tc.handle {
					require.Equal(t, "planned by the agent's planner handle", got.Reason)
				}
				if timing {
					assert.Positive(t, got.Duration, tc.reason)
				} else {
					assert.Zero(t, got.Duration, "off by default: traces stay reproducible")
				}
			})
		}
	}
}

// twoStepRole wants b, which B makes true once A has made a true; each
// action's body takes one tick.
func twoStepRole() RoleSpec {
	return RoleSpec{Name: "R",
		State: []Var{{"a", expr.BoolValue(false)}, {"b", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("work", "b", Normal)},
		Actions: []ActionSpec{
			NewAction("A").Effects("a = true").Body(ticksBody{n: 1}).Spec(),
			NewAction("B").Pre("a").Effects("b = true").Body(ticksBody{n: 1}).Spec(),
		}}
}

// TestDecidedByBetweenStepsAndAfterThePlan: between two steps of a plan
// the goal still decides what the agent does; once the last step is
// done, nothing does, until the agent decides again.
func TestDecidedByBetweenStepsAndAfterThePlan(t *testing.T) {
	w, a, _ := newWorld(t, twoStepRole())
	w.Tick(0.1) // A runs and ends
	require.Nil(t, a.Running())
	assert.Equal(t, "goal", a.DecidedBy(), "B is next")
	w.Tick(0.1) // B runs and ends
	require.Nil(t, a.Running())
	assert.Equal(t, "", a.DecidedBy(), "the plan is done")
}

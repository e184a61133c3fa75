package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestSummaryCarriesTheLastTicksTime: World.Finish's summary record has
// the number and the time of the last tick it summarises, the time that
// tick's other records carry (tick 50 of 0.1 s reads 4.9, exactly), also
// after a change of dt and with a dt that is no whole fraction of a
// second; before any tick it reads the time reached.
func TestSummaryCarriesTheLastTicksTime(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{Name: "x", Value: expr.NumberValue(0)}}})
	require.NoError(t, err)
	run := func(dts ...float64) (summary record.Event) {
		w := NewWorld(1)
		a := NewAgent("a", d)
		w.Add(a)
		w.OnEvent = func(e record.Event) {
			if e.Kind == record.EventSummary {
				summary = e
			}
		}
		for _, dt := range dts {
			w.Tick(dt)
		}
		w.Finish()
		return summary
	}
	many := func(n int, dt float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = dt
		}
		return out
	}
	dt := 0.3 // a variable: 3 * dt is float64 arithmetic, as the clock's
	for _, c := range []struct {
		name string
		dts  []float64
		tick int
		time float64
	}{
		{"50 ticks of 0.1 s", many(50, 0.1), 50, 4.9},
		{"a change of dt", append(many(10, 0.1), 0.25, 0.25), 12, 1.25},
		{"dt 0.3", many(4, dt), 4, 3 * dt},
	} {
		s := run(c.dts...)
		assert.Equal(t, c.tick, s.Tick, c.name)
		assert.Equal(t, c.time, s.Time, c.name)
	}
	s := run()
	assert.Equal(t, 0, s.Tick, "no tick")
	assert.Equal(t, 0.0, s.Time, "no tick")
}

// TestTheSummarySaysIdleOnlyWithNothingToDo: an agent whose plan is done
// and that runs nothing is IDLE at Finish; one whose step runs, or whose
// plan has steps left, is RUNNING.
func TestTheSummarySaysIdleOnlyWithNothingToDo(t *testing.T) {
	role := RoleSpec{Name: "R",
		State: []Var{{"a", expr.BoolValue(false)}, {"b", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("work", "b", Normal)},
		Actions: []ActionSpec{
			NewAction("A").Effects("a = true").Body(ticksBody{n: 2}).Spec(),
			NewAction("B").Pre("a").Effects("b = true").Body(ticksBody{n: 1}).Spec(),
		}}
	for ticks, want := range map[int]string{1: "RUNNING", 2: "RUNNING", 3: "IDLE"} {
		w, _, tr := newWorld(t, role)
		for range ticks {
			w.Tick(0.1) // A runs at ticks 1 and 2, B at tick 3
		}
		w.Finish()
		var status []string
		for _, e := range tr.events {
			if e.Kind == record.EventSummary {
				status = append(status, strings.Fields(e.Reason)[1])
			}
		}
		assert.Equal(t, []string{"status=" + want}, status, "after %d ticks", ticks)
	}
}

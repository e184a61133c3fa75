package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// timer is a body that runs for secs seconds of the dt it is given.
type timer struct{ secs float64 }

func (b timer) Start(a *Agent, act *Action) (Task, error) {
	return &timing{left: b.secs, a: a, act: act}, nil
}

type timing struct {
	left float64
	a    *Agent
	act  *Action
}

func (t *timing) Resume(dt float64) (Status, error) {
	t.left -= dt
	if t.left <= 1e-9 {
		return ApplyEffects(t.a, t.act)
	}
	return Running, nil
}

func (t *timing) Interrupt() {}

// TestTickWithABadDtLeavesTheClock: a game that hands Tick a dt that is not
// a finite number >= 0 (NaN from 0/0 of a frame timer, +Inf, a negative
// step of a clock that jumped back) gets a tick in which the clock stands
// still. Before, one Tick(NaN) made World.Time and every agent's clock NaN
// for good (records read "t= NaNs", no wait ever ended), Tick(+Inf)
// declared every agent stuck at once and Tick(-1) took a second from every
// running body.
func TestTickWithABadDtLeavesTheClock(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1} {
		d, err := Compile(RoleSpec{
			Name:  "Baker",
			State: []Var{{Name: "bread", Value: expr.NumberValue(0)}},
			Goals: []GoalSpec{NewGoal("baked", "bread >= 1", Normal)},
			Actions: []ActionSpec{
				NewAction("bake").Effects("bread = bread + 1").Body(timer{secs: 0.5}).Spec(),
			},
		})
		require.NoError(t, err)
		w := NewWorld(1)
		var lines []string
		w.OnEvent = func(e record.Event) { lines = append(lines, e.String()) }
		a := NewAgent("baker", d)
		w.Add(a)
		w.Tick(0.1)
		w.Tick(bad)
		for range 4 {
			w.Tick(0.1)
		}
		assert.Equal(t, 0.5, w.Time, "dt %v", bad)
		assert.Equal(t, 0.5, a.Time(), "dt %v", bad)
		assert.Equal(t, expr.NumberValue(1), a.Get("bread"), "dt %v: the 0.5 s bake is done after five ticks of 0.1 s", bad)
		assert.Equal(t, []string{
			"tick    1  t=  0.000s  baker        plan        goal=baked plan=[bake] cost=1",
			"tick    1  t=  0.000s  baker        start       goal=baked action=bake",
			"tick    6  t=  0.400s  baker        finish      goal=baked action=bake",
		}, lines, "dt %v:\n%s", bad, strings.Join(lines, "\n"))
	}
}

// TestTheLargestFiniteDtIsATick: math.MaxFloat64 is a finite dt, so the
// clock moves on by it, as by any other.
func TestTheLargestFiniteDtIsATick(t *testing.T) {
	w := NewWorld(1)
	a := NewAgent("a", counterDomain(t))
	w.Add(a)
	w.Tick(math.MaxFloat64)
	assert.Equal(t, math.MaxFloat64, w.Time)
	assert.Equal(t, math.MaxFloat64, a.Time())
}

package engine_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
)

// beliefLog is a reactive layer that only keeps the changes it is given.
type beliefLog struct{ changes []reactive.BeliefChange }

func (l *beliefLog) Believed(_ *engine.Agent, c reactive.BeliefChange) {
	l.changes = append(l.changes, c)
}
func (l *beliefLog) Achieve(*engine.Agent, reactive.Goal) {}
func (l *beliefLog) Step(*engine.Agent, float64)          {}

// A belief that becomes NaN is one change, not one per tick: NaN is not
// Equal to itself (scripts' equality), but it is the same Value.
func TestNaNBeliefChangesOnce(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "R", State: []engine.Var{{Name: "x", Value: expr.NumberValue(1)}}})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("r", d)
	log := &beliefLog{}
	a.SetReactive(log)
	w.Add(a)
	w.Tick(1.0 / 60)
	a.Set("x", expr.NumberValue(math.NaN()))
	for i := 0; i < 5; i++ {
		w.Tick(1.0 / 60)
	}
	a.Set("x", expr.NumberValue(2))
	w.Tick(1.0 / 60)
	a.Set("x", expr.NumberValue(math.Copysign(0, -1)))
	w.Tick(1.0 / 60)
	a.Set("x", expr.NumberValue(0))
	w.Tick(1.0 / 60)

	var got []string
	for _, c := range log.changes {
		got = append(got, c.Old.String()+"->"+c.New.String())
	}
	assert.Equal(t, []string{"1->NaN", "NaN->2", "2->-0"}, got, "-0 to 0 is no change (Equal)")
}

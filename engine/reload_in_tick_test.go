package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestSetDomainDuringTheAgentsTickWaitsForItsEnd(t *testing.T) {
	var d2 *Domain
	var tr trace
	role := func(name string, swap bool) RoleSpec {
		body := BodyFunc(func(a *Agent, act *Action) (Status, error) {
			if swap {
				a.SetDomain(d2) // as a game function a body calls might
				assert.Equal(t, "Old", a.Domain.Name, "not swapped while the body runs")
			}
			return ApplyEffects(a, act)
		})
		return RoleSpec{Name: name,
			State:   []Var{{"n", expr.NumberValue(0)}},
			Goals:   []GoalSpec{NewGoal("g", "n >= 2", Normal)},
			Actions: []ActionSpec{NewAction("step").Effects("n = n + 1").Body(body).Spec()}}
	}
	d1, err := Compile(role("Old", true))
	require.NoError(t, err)
	d2, err = Compile(role("New", false))
	require.NoError(t, err)
	w := NewWorld(1)
	w.OnEvent = tr.add
	a := NewAgent("npc", d1)
	w.Add(a)
	require.NotPanics(t, func() { w.Tick(0.1) })
	assert.Same(t, d2, a.Domain, "swapped when the tick ended")
	assert.Equal(t, expr.NumberValue(1), a.Get("n"), "the step finished under the old domain and the state was kept")
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(2), a.Get("n"))
	assert.Equal(t, []string{"1 plan g", "1 start step", "1 finish step", "2 plan g", "2 start step", "2 finish step"},
		tr.lines(record.EventPlan, record.EventStart, record.EventFinish, record.EventInterrupt))
}

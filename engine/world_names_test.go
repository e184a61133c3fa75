package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func counterDomain(t *testing.T) *Domain {
	t.Helper()
	d, err := Compile(RoleSpec{
		Name:    "Counter",
		State:   []Var{{Name: "n", Value: expr.NumberValue(0)}},
		Decide:  "utility",
		Actions: []ActionSpec{NewAction("inc").Effects("n = n + 1").Body(BodyFunc(ApplyEffects)).Spec()},
	})
	require.NoError(t, err)
	return d
}

// TestRemoveHandsTheNameToTheNextAgent: a game that spawns the new
// "guard-3" before it removes the dead one finds the new guard by name
// afterwards, and beliefs told to "guard-3" reach it. Before, Remove forgot
// the name, so World.Agent returned nil and npc:tell failed with "no agent"
// although a guard-3 was in the world.
func TestRemoveHandsTheNameToTheNextAgent(t *testing.T) {
	d := counterDomain(t)
	w := NewWorld(1)
	old := NewAgent("guard-3", d)
	w.Add(old)
	w.Add(NewAgent("guard-4", d))
	fresh := NewAgent("guard-3", d)
	w.Add(fresh)
	require.Same(t, old, w.Agent("guard-3"), "the first one added, as documented")
	require.True(t, w.Remove(old))
	assert.Same(t, fresh, w.Agent("guard-3"))
	require.NoError(t, w.Agent("guard-4").Tell("guard-3", "n", expr.NumberValue(40)))
	w.Tick(0.1)
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(41), fresh.Get("n"), "the told 40, then one inc")
	require.True(t, w.Remove(fresh))
	assert.Nil(t, w.Agent("guard-3"))
}

// TestAddingAnAgentTwicePanics: an agent added to a world it is already in
// (or to a second world) ticked twice a tick, on two workers at once with
// Workers > 1 (a data race on its state); Add now says so at once.
func TestAddingAnAgentTwicePanics(t *testing.T) {
	d := counterDomain(t)
	w := NewWorld(1)
	a := NewAgent("a", d)
	w.Add(a)
	assert.PanicsWithValue(t, `engine: World.Add: agent "a" is already in a world (Remove it first)`, func() { w.Add(a) })
	assert.PanicsWithValue(t, `engine: World.Add: agent "a" is already in a world (Remove it first)`, func() { NewWorld(2).Add(a) })
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(1), a.Get("n"), "ticked once")
	require.True(t, w.Remove(a))
	w2 := NewWorld(2)
	assert.NotPanics(t, func() { w2.Add(a) }, "once removed it may join another world")
}

package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestRemoveAndAddDuringTickWaitForItsEnd: a body that removes its own
// agent (a dead NPC) and another one, and adds a new agent (a spawned
// corpse), all from inside Tick, as a host method or a Go body would. Before,
// the removal shifted World.Agents under the running tick: agents were
// skipped or ticked twice, and the hand-on of the records panicked with an
// index out of range that ended the game. Now a change asked for during
// Tick is made when the tick ends, in the order asked, with any number of
// workers; the tick runs every agent it started with.
func TestRemoveAndAddDuringTickWaitForItsEnd(t *testing.T) {
	for _, workers := range []int{1, 2} {
		var w *World
		var spawn *Domain
		d, err := Compile(RoleSpec{
			Name:  "Mortal",
			State: []Var{{Name: "hp", Value: expr.NumberValue(1)}, {Name: "turns", Value: expr.NumberValue(0)}},
			Goals: []GoalSpec{NewGoal("dead", "hp <= 0", Normal)},
			Actions: []ActionSpec{NewAction("die").Effects("hp = 0").Body(BodyFunc(func(a *Agent, act *Action) (Status, error) {
				if a.Name == "m2" {
					require.True(t, w.Remove(a), "its own agent")
					require.True(t, w.Remove(w.Agent("m4")), "another agent")
					w.Add(NewAgent("corpse", spawn))
				}
				return ApplyEffects(a, act)
			})).Spec()},
		})
		require.NoError(t, err)
		spawn, err = Compile(RoleSpec{Name: "Corpse", State: []Var{{Name: "rot", Value: expr.NumberValue(0)}},
			Decide:  "utility",
			Actions: []ActionSpec{NewAction("rot").Effects("rot = rot + 1").Body(BodyFunc(ApplyEffects)).Spec()}})
		require.NoError(t, err)
		w = NewWorld(1)
		w.Workers = workers
		var lines []string
		w.OnEvent = func(e record.Event) {
			if e.Kind == record.EventStart || e.Kind == record.EventFinish {
				lines = append(lines, e.String())
			}
		}
		for i := range 6 {
			w.Add(NewAgent(fmt.Sprint("m", i), d))
		}
		require.NotPanics(t, func() {
			w.Tick(0.1)
			w.Tick(0.1)
		}, "workers %d", workers)
		names := make([]string, len(w.Agents))
		for i, a := range w.Agents {
			names[i] = a.Name
		}
		assert.Equal(t, []string{"m0", "m1", "m3", "m5", "corpse"}, names, "workers %d", workers)
		assert.Equal(t, 6, w.Agent("corpse").ID, "workers %d: the next ID", workers)
		assert.Nil(t, w.Agent("m2"), "workers %d", workers)
		var who []string
		for _, l := range lines {
			who = append(who, strings.Fields(l)[4])
		}
		// Every agent of tick 1 ran once; the corpse's first tick is the
		// world's second (its records count its own ticks and time: tick 1,
		// t=0).
		assert.Equal(t, []string{"m0", "m0", "m1", "m1", "m2", "m2", "m3", "m3", "m4", "m4", "m5", "m5", "corpse", "corpse"}, who,
			"workers %d:\n%s", workers, strings.Join(lines, "\n"))
		assert.Equal(t, "tick    1  t=  0.000s  corpse       start       action=rot", lines[12], "workers %d", workers)
		assert.Equal(t, expr.NumberValue(1), w.Agent("corpse").Get("rot"), "workers %d", workers)
	}
}

// TestRemoveDuringTickReportsWhetherTheAgentIsInTheWorld: during a tick,
// Remove reports true for an agent of the world, the only one too, and
// false for an agent of another world or of none, which stay where they
// are.
func TestRemoveDuringTickReportsWhetherTheAgentIsInTheWorld(t *testing.T) {
	var w *World
	var got []bool
	var stray *Agent
	other := NewWorld(2)
	d := compileRoles(t, RoleSpec{Name: "Mortal", State: []Var{{Name: "hp", Value: expr.NumberValue(1)}},
		Goals: []GoalSpec{NewGoal("dead", "hp <= 0", Normal)},
		Actions: []ActionSpec{NewAction("die").Effects("hp = 0").Body(BodyFunc(func(a *Agent, act *Action) (Status, error) {
			got = append(got, w.Remove(other.Agents[0]), w.Remove(stray), w.Remove(a))
			return ApplyEffects(a, act)
		})).Spec()}})
	stray = NewAgent("stray", d)
	w = NewWorld(1)
	w.Add(NewAgent("only", d))
	other.Add(NewAgent("elsewhere", d))
	w.Tick(0.1)
	assert.Equal(t, []bool{false, false, true}, got)
	assert.Empty(t, w.Agents)
	assert.Len(t, other.Agents, 1)
}

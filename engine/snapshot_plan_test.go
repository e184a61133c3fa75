package engine_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// A saved plan that the domain given to Restore cannot express (its goal
// or an action gone, a step outside it, another action running) is
// dropped; the agent plans afresh at its next tick.
func TestRestoreDropsAPlanTheDomainCannotExpress(t *testing.T) {
	w, domains := newTestWorld(t, 0, 1)
	run(w, 3)
	require.Equal(t, []string{"fetch", "lay"}, planOf(w.Agents[0]))
	require.Equal(t, "fetch", w.Agents[0].Running().Name)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	saved := buf.Bytes()

	tests := []struct {
		name    string
		edit    func(a map[string]any)
		goal    string
		plan    []string
		running string
	}{
		{name: "as saved", edit: func(map[string]any) {}, goal: "built", plan: []string{"fetch", "lay"}, running: "fetch"},
		{name: "goal gone", edit: func(a map[string]any) { a["goal"] = "razed" }},
		{name: "action gone", edit: func(a map[string]any) { a["plan"] = []any{"fetch", "plaster"} }},
		{name: "step before the plan", edit: func(a map[string]any) { a["step"] = -1 }},
		{name: "step past the plan", edit: func(a map[string]any) { a["step"] = 3 }},
		{name: "running past the plan", edit: func(a map[string]any) { a["step"] = 2 }},
		{name: "at the end, nothing running", edit: func(a map[string]any) { a["step"] = 2; delete(a, "running") },
			goal: "built"},
		{name: "another action running", edit: func(a map[string]any) { a["running"] = "lay" }},
		{name: "the next step, nothing running", edit: func(a map[string]any) { a["step"] = 1; delete(a, "running") },
			goal: "built", plan: []string{"lay"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			require.NoError(t, json.Unmarshal(saved, &doc))
			tc.edit(doc["agents"].([]any)[0].(map[string]any))
			edited, err := json.Marshal(doc)
			require.NoError(t, err)
			r, err := engine.Restore(bytes.NewReader(edited), engine.RestoreOptions{Domains: domains})
			require.NoError(t, err)
			a := r.Agents[0]
			assert.Equal(t, tc.goal, goalOf(a))
			assert.Equal(t, tc.plan, planOf(a))
			running := ""
			if a.Running() != nil {
				running = a.Running().Name
			}
			assert.Equal(t, tc.running, running)
		})
	}
}

// The actions that may not run again for the goal being pursued (NoRerun)
// and already ran are saved, and restored.
func TestSnapshotKeepsTheActionsThatRanForTheGoal(t *testing.T) {
	once := engine.BodyFunc(engine.ApplyEffects)
	d, err := engine.Compile(engine.RoleSpec{Name: "Chain",
		State: []engine.Var{{Name: "a", Value: expr.BoolValue(false)}, {Name: "b", Value: expr.BoolValue(false)},
			{Name: "c", Value: expr.BoolValue(false)}},
		Goals: []engine.GoalSpec{engine.NewGoal("g", "b and c", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("Prep").Effects("a = true").NoRerun().Body(once).Spec(),
			engine.NewAction("Fin").Pre("a").Effects("b = true").Body(once).Spec(),
			engine.NewAction("Last").Pre("b").Effects("c = true").Body(once).Spec(),
		},
	})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	w.Add(engine.NewAgent("x", d))
	w.Tick(0.1)
	w.Tick(0.1)
	require.Equal(t, []string{"Last"}, planOf(w.Agents[0]))
	var first, second bytes.Buffer
	require.NoError(t, w.Snapshot(&first))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(first.Bytes(), &doc))
	assert.Equal(t, []any{"Prep"}, doc["agents"].([]any)[0].(map[string]any)["ran"])

	r, err := engine.Restore(bytes.NewReader(first.Bytes()), engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	require.NoError(t, r.Snapshot(&second))
	assert.Equal(t, first.String(), second.String())
}

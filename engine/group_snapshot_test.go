package engine

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestSnapshotAgentsSavesOnlyTheirGroups: a snapshot of some agents (to
// move them to another shard) saves the groups with a member among them,
// with only those members, and leaves out the other groups, the empty
// ones included; a snapshot of the whole world saves every group.
func TestSnapshotAgentsSavesOnlyTheirGroups(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{"x", expr.NumberValue(0)}}})
	require.NoError(t, err)
	w := NewWorld(1)
	for _, name := range []string{"a", "b", "c"} {
		w.Add(NewAgent(name, d))
	}
	groups := map[string][]string{"squad": {"a", "c"}, "other": {"c"}, "empty": nil}
	for _, name := range []string{"squad", "other", "empty"} {
		g, err := w.NewGroup(name, GroupSpec{Scope: name})
		require.NoError(t, err)
		for _, m := range groups[name] {
			require.NoError(t, g.Join(w.Agent(m)))
		}
	}
	saved := func(snap func(*bytes.Buffer) error) map[string][]int {
		var buf bytes.Buffer
		require.NoError(t, snap(&buf))
		var doc struct{ Groups []groupSnap }
		require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
		out := map[string][]int{}
		for _, g := range doc.Groups {
			out[g.Name] = g.Members
		}
		return out
	}
	assert.Equal(t, map[string][]int{"squad": {0}},
		saved(func(b *bytes.Buffer) error { return w.SnapshotAgents(b, []*Agent{w.Agent("a"), w.Agent("b")}) }))
	assert.Equal(t, map[string][]int{"squad": {0, 2}, "other": {2}, "empty": nil},
		saved(func(b *bytes.Buffer) error { return w.Snapshot(b) }))
}

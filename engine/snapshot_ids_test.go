package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestARestoredWorldNeverReusesASavedID: an agent added to a restored
// world gets an ID no saved agent has, even when the snapshot's next ID
// was damaged to one already given.
func TestARestoredWorldNeverReusesASavedID(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{"x", expr.NumberValue(0)}}})
	require.NoError(t, err)
	w := NewWorld(1)
	for _, name := range []string{"a", "b", "c"} {
		w.Add(NewAgent(name, d))
	}
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	require.Contains(t, buf.String(), `"nextID": 3`)
	for _, next := range []string{`"nextID": 3`, `"nextID": 1`} {
		r, err := Restore(strings.NewReader(strings.Replace(buf.String(), `"nextID": 3`, next, 1)), RestoreOptions{Domains: []*Domain{d}})
		require.NoError(t, err)
		late := NewAgent("late", d)
		r.Add(late)
		assert.Equal(t, 3, late.ID, next)
	}
}

package engine_test

import (
	"bytes"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSnapshotWithoutTheRecorder(t *testing.T) {
	orig, domains := newTestWorld(t, 4, 3)
	run(orig, 300)
	var full, small bytes.Buffer
	require.NoError(t, orig.Snapshot(&full))
	require.NoError(t, orig.SnapshotWith(&small, engine.SnapshotOptions{NoRecorder: true}))
	assert.Less(t, small.Len()*3, full.Len(), "the records are most of a snapshot (%d bytes with, %d without)", full.Len(), small.Len())
	assert.NotContains(t, small.String(), `"ring"`)
	assert.NotContains(t, small.String(), `"counts"`)

	withRec, err := engine.Restore(bytes.NewReader(full.Bytes()), engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	noRec, err := engine.Restore(bytes.NewReader(small.Bytes()), engine.RestoreOptions{Domains: domains})
	require.NoError(t, err)
	for i, a := range noRec.Agents {
		assert.Equal(t, withRec.Agents[i].State, a.State, a.Name)
		assert.Equal(t, 0, a.Recorder.Count(record.EventPlan), "%s: counts start from the load", a.Name)
	}
	evA, evB := run(withRec, 300), run(noRec, 300)
	for name, want := range evA {
		got := evB[name]
		require.Len(t, got, len(want), name)
		for i := range want {
			if want[i].Kind == record.EventSummary {
				continue // its counts differ: they start from the load
			}
			assert.Equal(t, want[i], got[i], "agent %s decides as with its records", name)
		}
	}
}

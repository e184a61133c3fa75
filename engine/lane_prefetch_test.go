package engine_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

// TestAgentsWithoutStateTickInALongLane: agents whose domain has no
// variables have no states to prefetch; a lane long enough that the
// agents ahead are prefetched while one ticks still ticks them all.
func TestAgentsWithoutStateTickInALongLane(t *testing.T) {
	d, err := engine.Compile(engine.RoleSpec{Name: "Empty"})
	require.NoError(t, err)
	w := engine.NewWorld(1)
	w.Workers = 1
	for i := range 20 {
		a := engine.NewAgent(fmt.Sprintf("a%02d", i), d)
		require.Empty(t, a.State)
		w.Add(a)
	}
	require.NotPanics(t, func() {
		w.Tick(1.0 / 60)
		w.Tick(1.0 / 60)
	})
	assert.Equal(t, 2, w.Ticks)
	assert.InDelta(t, 2.0/60, w.Time, 1e-12)
}

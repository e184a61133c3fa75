package bdi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
)

// TestAPlanOnAKindPastTheLastIsRefused: the kinds end at forgotten; a
// plan whose On is the next number, or any later one, is refused like
// the zero kind, and its kind prints as invalid.
func TestAPlanOnAKindPastTheLastIsRefused(t *testing.T) {
	d := domain(t, "bell")
	last := bdi.Forgotten
	require.Equal(t, "forgotten", last.String())
	for _, on := range []bdi.Kind{last + 1, last + 2, 255} {
		_, err := bdi.NewLibrary(d, []*bdi.Plan{
			{Name: "fine", On: last, Body: done(nil), Pos: engine.Pos{File: "r.lua", Line: 1}},
			{Name: "past", On: on, Body: done(nil), Pos: engine.Pos{File: "r.lua", Line: 2}},
		})
		require.Error(t, err, "on = %d", on)
		assert.Equal(t, `r.lua:2: plan "past": on must be one of goal_added, goal_failed, goal_removed, belief_added, belief_removed, perceived, lost, forgotten`,
			err.Error(), "on = %d", on)
		assert.Equal(t, "invalid", on.String())
	}
}

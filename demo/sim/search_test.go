package sim_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestSoldierSearchesWhereItLostSightUntilItGivesUp: in a seeded battle
// of two soldiers a side, blue1 loses sight of its enemy, runs search to
// the place its memory last saw it, 168 px off, arrives there (to the
// pixel: move_to ends on the point when it is walkable), waits, searches
// there again while its memory is still sure enough, and gives up when
// the memory's confidence falls below 0.3, still standing on that spot.
func TestSoldierSearchesWhereItLostSightUntilItGivesUp(t *testing.T) {
	type moment struct {
		kind   record.EventKind
		at     float64
		x, y   float64 // blue1, after the tick
		mx, my float64 // where its memory puts the enemy
		conf   float64
		lost   bool
		seen   expr.Value // enemy_visible
		reason string
	}
	var s *sim.Sim
	var episode []moment
	cfg := sim.Config{Seed: 2, Squad: 2, ScriptsDir: "../../scripts", RoundPause: -1}
	cfg.OnEvent = func(e record.Event) {
		if e.Agent != "blue1" || e.Action != "search" || e.Time < 30 || e.Time > 35 {
			return
		}
		if e.Kind != record.EventStart && e.Kind != record.EventFinish && e.Kind != record.EventInterrupt {
			return
		}
		so := s.Soldier("blue1")
		r, ok := so.Agent.Memory().Recall("enemy", so.Agent.Time())
		require.True(t, ok, "blue1 remembers the enemy at %.3f s", e.Time)
		episode = append(episode, moment{e.Kind, e.Time, so.X, so.Y, r.X, r.Y, r.Confidence, r.Lost, so.Agent.Get("enemy_visible"), e.Reason})
	}
	var err error
	s, err = sim.New(cfg)
	require.NoError(t, err)
	defer s.Close()
	for i := 0; i < 35*60 && s.Winner < 0; i++ {
		s.Step(1.0 / 60)
	}
	require.GreaterOrEqual(t, len(episode), 3, "a search, its end, and more")

	// The search starts away from the place, which the memory keeps.
	start := episode[0]
	require.Equal(t, record.EventStart, start.kind)
	assert.InDelta(t, 30.2, start.at, 0.01)
	assert.InDelta(t, 180.0, start.x, 0.1)
	assert.InDelta(t, 252.0, start.y, 0.1)
	assert.InDelta(t, 345.8, start.mx, 0.1)
	assert.InDelta(t, 278.9, start.my, 0.1)
	assert.True(t, start.lost, "blue1 has lost sight of the enemy")
	assert.Equal(t, expr.BoolValue(false), start.seen)
	assert.Greater(t, math.Hypot(start.mx-start.x, start.my-start.y), 160.0, "it has a way to walk")

	// It gets there: its first search ends on the spot, after the walk
	// (168 px at 90 px a second, around low cover) and the 0.5 s wait.
	end := episode[1]
	require.Equal(t, record.EventFinish, end.kind, "the first search runs to its end: %+v", end)
	assert.InDelta(t, 33.18, end.at, 0.02)
	assert.InDelta(t, start.mx, end.x, 2, "at the last known x")
	assert.InDelta(t, start.my, end.y, 2, "at the last known y")

	// It searches that spot until the memory is no longer sure, then gives
	// up there.
	last := episode[len(episode)-1]
	for _, m := range episode[1 : len(episode)-1] {
		assert.Equal(t, start.mx, m.mx, "every search of the episode goes to the same place")
		assert.Equal(t, start.my, m.my)
		assert.InDelta(t, start.mx, m.x, 2, "%s at %.3f s", m.kind, m.at)
		assert.InDelta(t, start.my, m.y, 2, "%s at %.3f s", m.kind, m.at)
	}
	require.Equal(t, record.EventInterrupt, last.kind, "blue1 gives up: %+v", last)
	assert.InDelta(t, 34.13, last.at, 0.02)
	assert.Contains(t, last.reason, `precondition "!enemy_visible && memory.enemy.lost && memory.enemy.confidence > 0.3" of search no longer holds`)
	assert.Equal(t, expr.BoolValue(false), last.seen, "not because it saw the enemy again")
	assert.True(t, last.lost)
	assert.Less(t, last.conf, 0.3, "the memory is no longer sure enough")
	assert.Greater(t, last.conf, 0.29, "and gave up as soon as it was not")
	assert.InDelta(t, start.mx, last.x, 2, "it gave up at the last known position")
	assert.InDelta(t, start.my, last.y, 2)
}

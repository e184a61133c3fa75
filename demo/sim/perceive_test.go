package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestSoldiersSearchWhereTheyLostSightAndThinkLessFarAway: with the
// level of detail centred on blue1, the soldiers far from it think less
// often than it does, and a soldier that lost sight of its enemy searches
// where it saw it last: each search starts with the enemy lost in its
// memory.
func TestSoldiersSearchWhereTheyLostSightAndThinkLessFarAway(t *testing.T) {
	cfg := sim.Config{Seed: 1, ScriptsDir: "../../scripts", RoundPause: -1}
	var s *sim.Sim
	type search struct {
		soldier string
		x, y    float64
	}
	var searches []search
	cfg.OnEvent = func(e record.Event) {
		if e.Kind != record.EventStart || e.Action != "search" {
			return
		}
		so := s.Soldier(e.Agent)
		r, ok := so.Agent.Memory().Recall("enemy", so.Agent.Time())
		require.True(t, ok, "%s remembers the enemy it searches for", e.Agent)
		assert.True(t, r.Lost, "%s lost sight of it", e.Agent)
		searches = append(searches, search{e.Agent, r.X, r.Y})
	}
	var err error
	s, err = sim.New(cfg)
	require.NoError(t, err)
	defer s.Close()
	s.SetFocus("blue1")
	var line string
	for i := 0; i < 40*60 && s.Winner < 0; i++ {
		s.Step(1.0 / 60)
		if i == 5*60 {
			line = s.LODLine()
		}
	}
	require.NotEmpty(t, searches, "some soldier lost sight of its enemy and searched")
	t.Logf("%d searches, the first %+v; at 5 s: %s", len(searches), searches[0], line)
	blue1 := s.Soldier("blue1").Agent.Ticks()
	fewer := 0
	for _, so := range s.Soldiers {
		if so.Agent.Ticks() < blue1*2/3 {
			fewer++
		}
	}
	assert.Positive(t, fewer, "soldiers far from blue1 thought less often")
	assert.Contains(t, line, "thinking around blue1: ")
}

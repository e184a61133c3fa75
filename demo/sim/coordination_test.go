package sim_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestNoTwoSoldiersGoForTheLastMagazine fights a battle with scarce
// crates (two magazines each, refilled slowly), headless with a fixed
// seed: soldiers contend for crates, the last magazines are taken, and
// yet no soldier reaches the crate it held to find it empty, since a
// crate offers a slot per magazine and a fetch holds one.
func TestNoTwoSoldiersGoForTheLastMagazine(t *testing.T) {
	var starts, waited []string
	fetched := 0
	s, err := sim.New(sim.Config{Seed: 3, ScriptsDir: "../../scripts", RoundPause: -1, CrateStock: 2, CrateRefill: 30,
		OnEvent: func(e record.Event) {
			switch {
			case e.Kind == record.EventStart && e.Action == "fetchMagazine":
				starts = append(starts, e.Agent+" "+e.Peer)
			case e.Kind == record.EventFinish && e.Action == "fetchMagazine":
				fetched++
			case strings.Contains(e.Reason, "which uses a crate") || strings.Contains(e.Reason, "was claimed by"):
				waited = append(waited, e.String())
			}
		}})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	emptied := map[int]bool{}
	for tick := 0; tick < 60*60 && s.Winner < 0; tick++ {
		s.Step(dt)
		for i, c := range s.Crates {
			if c.Stock == 0 {
				emptied[i] = true
			}
		}
	}
	t.Logf("%d fetches started, %d finished, %d waits for a crate, crates emptied %v, empty on arrival %d", len(starts), fetched, len(waited), emptied, s.EmptyClaims)
	require.NotEmpty(t, emptied, "some crate's last magazine was taken")
	require.Greater(t, fetched, 4, "soldiers fetch magazines")
	require.NotEmpty(t, waited, "a soldier found every crate of its half claimed, and waited or did something else")
	for _, st := range starts {
		assert.Regexp(t, `^(blue|red)\d crate\d$`, st, "every fetch holds a crate")
	}
	assert.Zero(t, s.EmptyClaims, "no soldier reached the crate it held to find it empty")
}

// TestASoldierReportsTheEnemyItSpots: in a battle, the first soldier to
// spot an enemy writes where it is to its squad's board, which every mate
// has from the next tick; the other squad's board knows nothing of it.
func TestASoldierReportsTheEnemyItSpots(t *testing.T) {
	s, err := sim.New(sim.Config{Seed: 1, ScriptsDir: "../../scripts", RoundPause: -1})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	var spotter *sim.Soldier
	var at [2]float64
	for tick := 0; tick < 20*60 && spotter == nil; tick++ {
		s.Step(dt)
		for _, so := range s.Soldiers {
			// Of two mates that report in one tick, the later (the higher
			// agent ID) is what the board keeps.
			if slices.Contains(chosen(so), "report the enemy") && (spotter == nil || spotter.Team == so.Team) {
				spotter, at = so, [2]float64{so.Target.X, so.Target.Y}
			}
		}
	}
	require.NotNil(t, spotter, "a soldier spots an enemy within 20 s")
	s.Step(dt)
	for _, so := range s.Soldiers {
		if so.Team != spotter.Team {
			continue // the other squad's board is its own (its soldiers may have spotted one too)
		}
		c := s.Coordination(so)
		assert.GreaterOrEqual(t, c.Sightings, 1.0, "%s has the report", so.Name)
		assert.InDelta(t, at[0], c.EnemyX, 3, "%s: where the enemy was (it moves 1.5 px a tick)", so.Name)
		assert.InDelta(t, at[1], c.EnemyY, 3, "%s", so.Name)
	}
}

// TestAMateTurnsTowardTheEnemyItCannotSee: a soldier that sees no enemy
// turns toward the one its squad's board reports (here written by the
// game, as a mate's report arrives: a belief event from the group).
func TestAMateTurnsTowardTheEnemyItCannotSee(t *testing.T) {
	s := blindSim(t, sim.Config{Seed: 1})
	s.Step(dt)
	g := s.World.Group("blue")
	require.NotNil(t, g, "each team is a squad")
	const ex, ey = 900.0, 300.0
	require.NoError(t, g.Set("enemy_x", expr.NumberValue(ex)))
	require.NoError(t, g.Set("enemy_y", expr.NumberValue(ey)))
	require.NoError(t, g.Set("sightings", expr.NumberValue(1)))
	s.Step(dt)
	for _, so := range s.Soldiers {
		if so.Team != 0 {
			assert.NotContains(t, chosen(so), "mate spotted an enemy", "%s is red", so.Name)
			continue
		}
		assert.Contains(t, chosen(so), "mate spotted an enemy", so.Name)
		assert.InDelta(t, math.Atan2(ey-so.Y, ex-so.X), so.Facing, 1e-9, "%s faces the reported enemy", so.Name)
	}
}

func TestRecordLineShowsClaimsAndSquadWrites(t *testing.T) {
	assert.Equal(t, "  5.2s start fetchMagazine crate3",
		sim.RecordLine(record.Event{Kind: record.EventStart, Time: 5.2, Action: "fetchMagazine", Peer: "crate3"}, 0))
	assert.Equal(t, "  6.0s group-write squad.enemy_x=812 to blue",
		sim.RecordLine(record.Event{Kind: record.EventGroupWrite, Time: 6, Belief: "squad.enemy_x", Value: "812", Peer: "blue"}, 0))
}

func TestCoordinationListsTheClaims(t *testing.T) {
	s := blindSim(t, sim.Config{Seed: 1})
	so := s.Soldier("blue2")
	so.Agent.Set("ammo", expr.NumberValue(0))
	for range 30 {
		s.Step(dt)
		if so.Doing() == "fetchMagazine" {
			break
		}
	}
	require.Equal(t, "fetchMagazine", so.Doing())
	c := s.Coordination(so)
	require.Regexp(t, `^crate\d$`, c.Holds)
	assert.Contains(t, c.Claims, c.Holds+" by blue2")
}

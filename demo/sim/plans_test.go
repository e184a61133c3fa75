package sim_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// records returns the agent's flight-recorder records of one kind.
func records(so *sim.Soldier, kind record.EventKind) []record.Event {
	var out []record.Event
	for _, e := range so.Agent.Recorder.Records() {
		// The round-start orders (TestCommanderOrders) are left out.
		if e.Goal == "orders" || e.Action == "commander's orders" || strings.Contains(e.Reason, "commander model") {
			continue
		}
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// chosen returns the names of the reactive plans chosen for the soldier.
func chosen(so *sim.Soldier) []string {
	var out []string
	for _, e := range records(so, record.EventPlanChosen) {
		out = append(out, e.Action)
	}
	return out
}

// blindSim is a battle where nobody sees anybody (SightRange 1 px) and
// rounds barely hurt, so only what a test does makes a soldier react.
func blindSim(t *testing.T, cfg sim.Config) *sim.Sim {
	t.Helper()
	cfg.ScriptsDir, cfg.RoundPause, cfg.Damage, cfg.SightRange = "../../scripts", -1, 1e-6, 1
	s, err := sim.New(cfg)
	require.NoError(t, err, "squad.lua must load")
	t.Cleanup(s.Close)
	return s
}

func TestHeardShotTurnsTheSoldierAndSendsItToCover(t *testing.T) {
	s := blindSim(t, sim.Config{Seed: 1})
	so := s.Soldier("blue1")
	s.Step(dt)
	require.Empty(t, chosen(so), "nothing to react to yet")
	const sx, sy = 900.0, 300.0
	so.HeardX, so.HeardY, so.HeardAt = sx, sy, s.World.Time // as if red fired from there
	s.Step(dt)

	assert.Equal(t, []string{"shot heard"}, chosen(so), "the heard shot's plan is chosen")
	prints := records(so, record.EventPrint)
	require.Len(t, prints, 1)
	assert.Equal(t, "blue1 heard a shot from 900, 300: taking cover", prints[0].Reason)
	assert.Equal(t, expr.BoolValue(true), so.Agent.Get("alert"))
	assert.Equal(t, "duck", so.Doing(), "the goal braced sends it to cover instead of moving up")

	ducked := false
	for range 5 * 60 {
		s.Step(dt)
		if so.Doing() == "duck" && so.InCover {
			ducked = true
			assert.InDelta(t, math.Atan2(sy-so.Y, sx-so.X), so.Facing, 1e-9, "in cover it faces the shot")
		}
		if so.Agent.Get("alert").Equal(expr.BoolValue(false)) {
			break
		}
	}
	assert.True(t, ducked, "it reached cover (at %.0f, %.0f)", so.X, so.Y)
	assert.Equal(t, expr.BoolValue(false), so.Agent.Get("alert"), "the alert ends once it is in cover")
	s.Step(dt)
	assert.Equal(t, "advance", so.Doing(), "then it moves up again")
	done := records(so, record.EventIntentionDone)
	require.Len(t, done, 1)
	assert.Equal(t, "shot heard", done[0].Action)
}

func TestHeardShotWithAnEnemyInSightIsLeftToTheFight(t *testing.T) {
	s := quietSim(t, 1) // everybody sees an enemy from the start
	so := s.Soldier("blue1")
	s.Step(dt)
	require.Equal(t, expr.BoolValue(true), so.Agent.Get("enemy_visible"))
	so.HeardX, so.HeardY, so.HeardAt = 900, 300, s.World.Time
	s.Step(dt)
	assert.NotContains(t, chosen(so), "shot heard", "the guard refuses: it already sees whom to shoot")
	assert.Equal(t, expr.BoolValue(false), so.Agent.Get("alert"))
}

func TestRunningDryTellsTheSquad(t *testing.T) {
	s := blindSim(t, sim.Config{Seed: 1})
	dry := s.Soldier("blue2")
	s.Step(dt)
	dry.Agent.Set("ammo", expr.NumberValue(0)) // the last round fired, no magazine left
	dry.Agent.Set("magazines", expr.NumberValue(0))
	s.Step(dt)

	assert.Contains(t, chosen(dry), "tell the squad")
	var told []string
	for _, e := range records(dry, record.EventTell) {
		assert.Equal(t, "mate_dry", e.Belief)
		assert.Equal(t, `"blue2"`, e.Value)
		told = append(told, e.Peer)
	}
	assert.Equal(t, []string{"blue1", "blue3", "blue4", "blue5", "blue6"}, told, "every living squad mate, nobody of red")

	s.Step(dt) // told beliefs arrive at the start of the receiver's next tick
	for _, name := range told {
		mate := s.Soldier(name)
		var got []record.Event
		for _, e := range records(mate, record.EventBeliefAdded) {
			if e.Belief == "mate_dry" {
				got = append(got, e)
			}
		}
		require.Len(t, got, 1, "%s got the told belief", name)
		assert.Equal(t, "blue2", got[0].Peer, "%s: told by blue2", name)
		assert.Equal(t, `"blue2"`, got[0].Value)
		assert.Contains(t, chosen(mate), "mate ran dry")
		assert.Equal(t, expr.Value{}, mate.Agent.Get("mate_dry"), "%s forgot it, so the next time is news again", name)
	}
	assert.Equal(t, `  0.0s tell mate_dry="blue2" to blue1`, sim.RecordLine(records(dry, record.EventTell)[0], 0), "the overlay's line")
	for _, e := range records(s.Soldier("blue1"), record.EventBeliefAdded) {
		if e.Belief == "mate_dry" {
			assert.Equal(t, `  0.0s belief-added mate_dry="blue2" from blue2`, sim.RecordLine(e, 0))
		}
	}
	for _, e := range records(s.Soldier("red1"), record.EventBeliefAdded) {
		assert.NotEqual(t, "mate_dry", e.Belief, "red hears nothing of it")
	}
}

func TestEmptyCrateIsRecoveredFromAnotherCrate(t *testing.T) {
	s := blindSim(t, sim.Config{Seed: 1, CrateRefill: 1000})
	so := s.Soldier("blue1")
	s.Step(dt)
	so.Agent.Set("ammo", expr.NumberValue(5)) // low: the goal armed sends it to a crate
	first := -1
	for range 60 {
		s.Step(dt)
		if so.Doing() == "fetchMagazine" {
			break
		}
	}
	require.Equal(t, "fetchMagazine", so.Doing())
	s.Step(dt)
	added := records(so, record.EventGoalAdded)
	require.NotEmpty(t, added)
	for i, c := range s.Crates {
		if strings.Contains(added[0].Goal, fmt.Sprintf("%g, %g", c.X, c.Y)) {
			first = i
		}
	}
	require.GreaterOrEqual(t, first, 0, "the goal names a crate: %s", added[0].Goal)
	stock := make([]int, len(s.Crates))
	for i := range s.Crates {
		stock[i] = s.Crates[i].Stock
	}
	s.Crates[first].Stock = 0 // somebody else emptied it while it walked there
	finished := false
	for range 20 * 60 {
		s.Step(dt)
		for _, e := range records(so, record.EventFinish) {
			finished = finished || e.Action == "fetchMagazine"
		}
		if finished {
			break
		}
	}
	plans := chosen(so)
	require.GreaterOrEqual(t, len(plans), 3, "plans chosen: %v", plans)
	assert.Equal(t, []string{"fetch", "next crate", "fetch"}, plans[:3], "the failed fetch is recovered")
	failed := records(so, record.EventGoalFailed)
	require.NotEmpty(t, failed)
	assert.Contains(t, failed[0].Reason, "is empty")
	assert.True(t, finished, "fetchMagazine finished after all")
	took := -1
	for i := range s.Crates {
		if i != first && s.Crates[i].Stock == stock[i]-1 {
			took = i
		}
	}
	assert.GreaterOrEqual(t, took, 0, "a magazine came from another crate")
	assert.Equal(t, 0, s.Crates[first].Stock)
}

// The squad leaders ask the commander model for orders at the start of a
// round: with none configured they say so and nothing else changes; with
// one, every mate is told the first step.
func TestCommanderOrders(t *testing.T) {
	prints := func(so *sim.Soldier) []string {
		var out []string
		for _, e := range so.Agent.Recorder.Records() {
			if e.Kind == record.EventPrint {
				out = append(out, e.Reason)
			}
		}
		return out
	}
	s := blindSim(t, sim.Config{Seed: 1})
	s.Step(dt)
	assert.Equal(t, []string{"blue1 no orders from the commander model (unavailable)"}, prints(s.Soldier("blue1")))
	assert.Empty(t, prints(s.Soldier("blue2")), "only the leaders ask")

	reply := "```json\n{\"reasoning\": \"hold\", \"steps\": [{\"action\": \"regroup\", \"description\": \"fall back together\"}]}\n```"
	planner, err := llm.NewDynamicPlanner(llm.ClientFunc(func(context.Context, llm.ChatRequest) (string, error) {
		return reply, nil
	})).Build()
	require.NoError(t, err)
	s = blindSim(t, sim.Config{Seed: 1, Commander: planner, CommanderTicks: 3})
	for range 30 {
		s.Step(dt)
	}
	assert.Contains(t, prints(s.Soldier("red1")), "red1 the commander model orders: regroup")
	order, _ := s.Soldier("blue2").Agent.Get("order").AsString()
	assert.Equal(t, "regroup", order)
	assert.Contains(t, prints(s.Soldier("blue2")), "blue2 order from the leader: regroup")
}

package sim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// quietSim is a battle whose rounds barely hurt (Damage 1e-6), so a test
// can set a soldier's health and watch its choice without the fight
// changing it.
func quietSim(t *testing.T, seed uint64) *sim.Sim {
	t.Helper()
	s, err := sim.New(sim.Config{Seed: seed, ScriptsDir: "../../scripts", RoundPause: -1, Damage: 1e-6, SightRange: 2000})
	require.NoError(t, err, "soldier.lua must load")
	t.Cleanup(s.Close)
	return s
}

// coverOf returns the first cover of a team.
func coverOf(s *sim.Sim, team int) sim.Cover {
	for _, c := range s.Covers {
		if c.Team == team {
			return c
		}
	}
	return sim.Cover{}
}

func TestCombatChoice(t *testing.T) {
	tests := []struct {
		name    string
		health  float64
		ammo    float64
		inCover bool
		want    string
		reason  string
	}{
		{"healthy and armed", 100, 30, false, "attack", "a healthy soldier with a full magazine and an enemy in sight attacks"},
		{"healthy in cover", 100, 30, true, "attack", "cover is no reason to stop shooting"},
		{"hurt in the open", 45, 30, false, "takeCover", "below about half health a soldier in the open gets to cover"},
		{"hurt in cover", 45, 30, true, "attack", "a hurt soldier already in cover shoots from there"},
		{"badly hurt in the open", 15, 30, false, "retreat", "a badly hurt soldier falls back to the rally point, not to cover"},
		{"badly hurt in cover", 15, 30, true, "retreat", "even from cover, a badly hurt soldier falls back"},
		{"low on ammo", 100, 5, false, "fetchMagazine", "the goal armed (GOAP, high) comes before any combat pick"},
		{"hurt and low on ammo", 45, 5, false, "fetchMagazine", "supply first, whatever the utility scores say"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := quietSim(t, 1)
			so := s.Soldier("blue2")
			require.NotNil(t, so)
			so.Health = tt.health
			so.Agent.Set("ammo", expr.NumberValue(tt.ammo))
			if tt.inCover {
				c := coverOf(s, so.Team)
				so.X, so.Y = c.SpotX, c.SpotY
			}
			s.Step(dt)
			require.Equal(t, tt.inCover, so.InCover, "the in_cover sensor")
			assert.Equal(t, expr.BoolValue(tt.inCover), so.Agent.Get("in_cover"))
			assert.Equal(t, tt.want, so.Doing(), tt.reason)
		})
	}
}

func TestSensorsWriteDistanceAndCover(t *testing.T) {
	s := quietSim(t, 1)
	so := s.Soldier("blue1")
	s.Step(dt)
	require.NotNil(t, so.Target, "blue1 sees an enemy at the start")
	d, ok := so.Agent.Get("enemy_distance").AsNumber()
	require.True(t, ok)
	assert.InDelta(t, math.Hypot(so.Target.X-so.X, so.Target.Y-so.Y), d, 2, "enemy_distance is the distance to the target (it moved at most a step since)")
	assert.Equal(t, expr.BoolValue(false), so.Agent.Get("in_cover"), "the spawn line is open ground")
}

func TestHurtSquadTakesDistinctCover(t *testing.T) {
	s := quietSim(t, 2)
	s.Step(dt)
	var blue []*sim.Soldier
	for _, so := range s.Soldiers {
		if so.Team == 0 && so.Target != nil { // those who see an enemy; the others advance
			so.Health = 45
			so.Agent.Set("ammo", expr.NumberValue(30))
			blue = append(blue, so)
		}
	}
	require.GreaterOrEqual(t, len(blue), 2, "at least two blue soldiers see an enemy from the spawn line")
	for range 3 * 60 {
		s.Step(dt)
	}
	spots := map[[2]float64]string{}
	for _, so := range blue {
		assert.True(t, so.InCover, "%s took cover (doing %s at %.0f,%.0f)", so.Name, so.Doing(), so.X, so.Y)
		assert.Equal(t, "attack", so.Doing(), "%s shoots from cover", so.Name)
		key := [2]float64{so.X, so.Y}
		assert.Empty(t, spots[key], "%s and %s share a cover spot", so.Name, spots[key])
		spots[key] = so.Name
	}
}

func TestRetreatHealsAtTheRallyPoint(t *testing.T) {
	s := quietSim(t, 3)
	so := s.Soldier("red3")
	so.Health = 15
	r := s.Rallies[so.Team]
	atRally := false
	for range 10 * 60 {
		s.Step(dt)
		if math.Hypot(so.X-r.X, so.Y-r.Y) < 1 {
			atRally = true
		}
		if so.Health >= 30 {
			break
		}
	}
	assert.True(t, atRally, "the badly hurt soldier walked to its rally point")
	assert.GreaterOrEqual(t, so.Health, 30.0, "the medic at the rally point healed it, twice over")
	for range 5 * 60 {
		s.Step(dt)
	}
	assert.NotEqual(t, "retreat", so.Doing(), "healed, it went back to the fight")
}

func TestCoverLowersTheHitChance(t *testing.T) {
	s := quietSim(t, 1)
	shooter, target := s.Soldier("blue1"), s.Soldier("red1")
	d := math.Hypot(target.X-shooter.X, target.Y-shooter.Y)
	target.InCover = false
	open := s.HitChanceAt(shooter, target)
	target.InCover = true
	covered := s.HitChanceAt(shooter, target)
	assert.InDelta(t, sim.HitChance(d), open, 1e-12, "in the open the distance alone counts")
	assert.InDelta(t, 0.35*open, covered, 1e-12, "cover stops about two hits in three (CoverFactor 0.35)")
}

// TestBattleCombatStory plays real battles and checks the picks the
// soldiers made against their health at the time.
func TestBattleCombatStory(t *testing.T) {
	for _, seed := range []uint64{1, 7, 42} {
		var s *sim.Sim
		picks := map[string][]float64{} // action -> health of the soldier when it was picked
		cfg := sim.Config{Seed: seed, ScriptsDir: "../../scripts", RoundPause: -1, OnEvent: func(e record.Event) {
			if e.Kind == record.EventPick {
				so := s.Soldier(e.Agent)
				if e.Action == "attack" && s.Medic[so.Team] < 20 {
					return // with the medic spent, the badly hurt fight on (squad.lua)
				}
				if ammo, _ := so.Agent.Get("ammo").AsNumber(); e.Action == "retreat" && ammo == 0 {
					// Dry, with every crate's magazine claimed by mates,
					// a soldier has nothing to fight with: retreat is the
					// best of what is left, whatever its health.
					return
				}
				// The health it decided on (the sensor's, from before the
				// tick), not so.Health: a round fired later in the same tick
				// may have hit it since.
				h, _ := so.Agent.Get("health").AsNumber()
				picks[e.Action] = append(picks[e.Action], h)
			}
			assert.NotContains(t, e.Reason, "promised effects not met", "seed %d: %s", seed, e)
		}}
		s, err := sim.New(cfg)
		require.NoError(t, err)
		for i := 0; i < 60*60 && s.Winner < 0; i++ {
			s.Step(dt)
		}
		s.Close()
		t.Logf("seed %d: %d attack, %d takeCover, %d retreat picks", seed, len(picks["attack"]), len(picks["takeCover"]), len(picks["retreat"]))
		require.NotEmpty(t, picks["attack"], "seed %d: soldiers attack", seed)
		require.NotEmpty(t, picks["takeCover"], "seed %d: hurt soldiers take cover", seed)
		require.NotEmpty(t, picks["retreat"], "seed %d: badly hurt soldiers retreat", seed)
		for _, h := range picks["attack"] {
			assert.Greater(t, h, 25.0, "seed %d: no soldier attacks when badly hurt", seed)
		}
		for _, h := range picks["takeCover"] {
			assert.Less(t, h, 75.0, "seed %d: only the hurt take cover (two hits of 15 or more)", seed)
			assert.Greater(t, h, 25.0, "seed %d: the badly hurt retreat instead", seed)
		}
		for _, h := range picks["retreat"] {
			// Retreat overtakes takeCover between 30 and 32 health, by
			// the enemy's distance.
			assert.LessOrEqual(t, h, 32.0, "seed %d: only the badly hurt retreat", seed)
		}
		assert.Empty(t, picks["fetchMagazine"], "seed %d: supply is never a utility pick", seed)
		assert.Empty(t, picks["reload"], "seed %d: supply is never a utility pick", seed)
	}
}

func TestOverlay(t *testing.T) {
	s := quietSim(t, 1)
	so := s.Soldier("blue1")
	so.Health = 45
	s.Step(dt)
	require.Equal(t, "takeCover", so.Doing())
	o := s.Overlay(so, 4)

	assert.Equal(t, "blue1", o.Soldier)
	assert.Equal(t, "takeCover", o.Doing)
	assert.Empty(t, o.Goal, "a utility pick serves no goal")
	assert.Equal(t, []string{"takeCover"}, o.Plan)
	assert.Equal(t, engine.UtilityMultiply, o.Mode)
	assert.Equal(t, engine.DefaultCommitment, o.Commitment)
	assert.Equal(t, "takeCover", o.Pick, "the pick the agent runs")

	var names []string
	for i, a := range o.Scores {
		names = append(names, a.Action)
		if i > 0 {
			assert.GreaterOrEqual(t, o.Scores[i-1].Score, a.Score, "best first: %s before %s", o.Scores[i-1].Action, a.Action)
		}
		require.NotEmpty(t, a.Considerations, "%s has consideration rows", a.Action)
	}
	assert.Equal(t, []string{"takeCover", "attack", "retreat", "fetchMagazine"}, names,
		"the actions that apply, best first; reload needs a magazine")
	assert.Equal(t, []sim.Blocked{{Action: "reload", Pre: "magazines > 0"}, {Action: "duck", Pre: "!enemy_visible && alert"},
		{Action: "search", Pre: "!enemy_visible && memory.enemy.lost && memory.enemy.confidence > 0.3"},
		{Action: "advance", Pre: "!enemy_visible"}, {Action: "regroup", Pre: "!enemy_visible && health < 100"}}, o.Blocked,
		"with an enemy in sight nobody ducks, searches, advances or regroups")

	cover := o.Scores[0]
	require.Len(t, cover.Considerations, 3)
	hurt := cover.Considerations[0]
	assert.Equal(t, "hurt", hurt.Name)
	assert.Equal(t, 45.0, hurt.Input, "the raw health")
	assert.InDelta(t, 1/(1+math.Exp(-12*(0.55-0.35))), hurt.Output, 1e-9, "logistic slope 12, offset 0.35 of (100-45)/100")
	assert.Equal(t, 1.0, hurt.Weight)
	assert.Equal(t, "threat near", cover.Considerations[2].Name)
	assert.Equal(t, []sim.ConsiderationScore{{Name: "hasTag(combat)", Input: 0, Output: 0, Weight: 1}},
		o.Scores[3].Considerations, "a supply action scores 0 on the role's hasTag(\"combat\")")
	assert.Zero(t, o.Scores[3].Score)

	require.NotEmpty(t, o.Records)
	assert.LessOrEqual(t, len(o.Records), 4)
	last := o.Records[len(o.Records)-1]
	assert.Equal(t, record.EventStart, last.Kind)
	assert.Equal(t, "  0.0s start takeCover", sim.RecordLine(last, 0))
	var pick *record.Event
	for i := range o.Records {
		if o.Records[i].Kind == record.EventPick {
			pick = &o.Records[i]
		}
	}
	require.NotNil(t, pick, "the pick is among the latest records")
	assert.True(t, strings.HasPrefix(sim.RecordLine(*pick, 0), "  0.0s pick takeCover 0."), sim.RecordLine(*pick, 0))
	assert.Len(t, sim.RecordLine(record.Event{Kind: record.EventFail, Action: "x", Reason: strings.Repeat("r", 100)}, 40), 40,
		"long reasons are cut to the width")
}

func TestOverlayOfTheDead(t *testing.T) {
	s := quietSim(t, 1)
	so := s.Soldier("red1")
	s.Step(dt)
	so.Health = 0
	s.Step(dt)
	require.True(t, so.Dead)
	o := s.Overlay(so, 10)
	assert.Equal(t, "dead", o.Doing)
	assert.Empty(t, o.Scores, "the dead choose nothing")
	assert.NotEmpty(t, o.Records, "its records stay readable")
}

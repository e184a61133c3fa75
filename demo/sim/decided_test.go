package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// lastDecision is the latest plan or pick record of a soldier's recorder.
func lastDecision(so *sim.Soldier) (record.Event, bool) {
	all := so.Agent.Recorder.Records()
	for i := len(all) - 1; i >= 0; i-- {
		if k := all[i].Kind; k == record.EventPlan || k == record.EventPick {
			return all[i], true
		}
	}
	return record.Event{}, false
}

// TestOverlaySaysWhichPlannerDecided sets up the three ways a soldier
// decides and checks the overlay's headline and GOAP line against the
// soldier's own records.
func TestOverlaySaysWhichPlannerDecided(t *testing.T) {
	tests := []struct {
		name, reason       string
		noGOAP             bool
		health, ammo       float64
		decidedBy, goal    string
		unmet              []string
		decision, goapLine string
		record             record.EventKind
	}{
		{name: "utility pick", reason: "hurt, armed and in the open: takeCover is a pick, every goal holds",
			health: 45, ammo: 30, decidedBy: "pick",
			decision: "decides now: the utility pick (no goal needs work); doing takeCover",
			goapLine: "GOAP: every goal holds; no plan runs", record: record.EventPick},
		{name: "goal", reason: "5 rounds: the goal armed (ammo > 10) is planned, fetch then reload",
			health: 100, ammo: 5, decidedBy: "goal", goal: "armed", unmet: []string{"armed"},
			decision: "decides now: the GOAP goal armed (high); doing fetchMagazine",
			goapLine: "GOAP: goal armed, plan fetchMagazine (2) -> reload (1), cost 3", record: record.EventPlan},
		{name: "goal unmet, GOAP off", reason: "with planning off the unmet goal is not planned: the pick attack runs, and the overlay says why",
			noGOAP: true, health: 100, ammo: 5, decidedBy: "pick", unmet: []string{"armed"},
			decision: "decides now: the utility pick (GOAP is off; unmet: armed); doing attack",
			goapLine: "GOAP: GOAP is off; unmet: armed; no plan runs", record: record.EventPick},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sim.New(sim.Config{Seed: 1, ScriptsDir: "../../scripts", RoundPause: -1, Damage: 1e-6,
				SightRange: 2000, NoGOAP: tc.noGOAP})
			require.NoError(t, err)
			defer s.Close()
			so := s.Soldier("blue2")
			so.Health = tc.health
			so.Agent.Set("ammo", expr.NumberValue(tc.ammo))
			s.Step(dt)
			o := s.Overlay(so, 8)

			assert.Equal(t, tc.decidedBy, o.DecidedBy, tc.reason)
			assert.Equal(t, tc.goal, o.Goal, tc.reason)
			assert.Equal(t, tc.unmet, o.Unmet, tc.reason)
			assert.Equal(t, !tc.noGOAP, o.Planning)
			assert.Equal(t, tc.decision, o.Decision(), tc.reason)
			assert.Equal(t, tc.goapLine, o.GOAPLine(), tc.reason)
			e, ok := lastDecision(so)
			require.True(t, ok, "the soldier has a decision record")
			assert.Equal(t, tc.record, e.Kind, "the trace's record agrees with the overlay")
			assert.Equal(t, tc.goal, e.Goal)
		})
	}
}

// TestOverlayAndTraceNeverContradict plays 600 ticks of a battle, with GOAP on and off,
// and, every tick, checks every living soldier's overlay against its latest
// decision record: a "goal" overlay has a plan record for that goal, a
// "pick" one a pick record for the action it runs.
func TestOverlayAndTraceNeverContradict(t *testing.T) {
	for _, noGOAP := range []bool{false, true} {
		t.Run(fmt.Sprintf("noGOAP=%v", noGOAP), func(t *testing.T) {
			s, err := sim.New(sim.Config{Seed: 3, ScriptsDir: "../../scripts", RoundPause: -1, NoGOAP: noGOAP})
			require.NoError(t, err)
			defer s.Close()
			seen := map[string]int{}
			for tick := 1; tick <= 600 && s.Winner < 0; tick++ {
				s.Step(dt)
				for _, so := range s.Soldiers {
					if so.Dead {
						continue
					}
					o := s.Overlay(so, 0)
					e, ok := lastDecision(so)
					if o.DecidedBy == "" || !ok {
						continue
					}
					seen[o.DecidedBy]++
					switch o.DecidedBy {
					case "goal":
						if !assert.Equal(t, record.EventPlan, e.Kind, "tick %d %s: overlay %q, record %s", tick, so.Name, o.Decision(), e) {
							return
						}
						assert.Equal(t, o.Goal, e.Goal, "tick %d %s", tick, so.Name)
						assert.Contains(t, o.Decision(), "the GOAP goal "+e.Goal)
					case "pick":
						if !assert.Equal(t, record.EventPick, e.Kind, "tick %d %s: overlay %q, record %s", tick, so.Name, o.Decision(), e) {
							return
						}
						require.NotEmpty(t, o.Plan)
						assert.Equal(t, e.Action, o.Plan[0], "tick %d %s: the picked action is the one in hand", tick, so.Name)
						assert.Contains(t, o.Decision(), "the utility pick")
						assert.Empty(t, o.Goal)
						if noGOAP && len(o.Unmet) > 0 {
							assert.Contains(t, o.Decision(), "GOAP is off; unmet: ", "tick %d %s", tick, so.Name)
						}
					}
				}
			}
			t.Logf("soldier-ticks by planner: %v", seen)
			if noGOAP {
				assert.Zero(t, seen["goal"], "no goal's plan with GOAP off")
			} else {
				assert.Positive(t, seen["goal"], "some soldiers follow a goal's plan")
			}
			assert.Positive(t, seen["pick"], "some run a utility pick")
		})
	}
}

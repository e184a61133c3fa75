package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// oddPickRole is a utility domain built to trip the fast paths of a
// running pick's re-score (repick, the memo, nothingToCheck): a sensor
// writes a slot the considerations read every tick (the same value most
// of the time), bodies write slots other actions' scores read, one
// sensor tells other agents beliefs the considerations read, one
// action's precondition reads a slot none of its considerations do
// (gate), considerations feed curves that turn NaN and ±Inf inputs into
// NaN or ±Inf scores, one action reads nothing at all (idle), and pad
// slots push the state past 64 variables when pad > 0 (every mask is then
// allSlots).
func oddPickRole(pad int) RoleSpec {
	in := func(name, v string, min, max float64, c *curve.Curve) ConsiderationSpec {
		return ConsiderationSpec{Name: name, Input: v, Min: min, Max: max, Curve: c}
	}
	logit := &curve.Curve{Kind: curve.Logit, Slope: 3, Offset: 0.5}
	poly := &curve.Curve{Kind: curve.Polynomial, Slope: 1, Exponent: -2, Offset: 0.5}
	hunt := NewAction("hunt").Pre("gate > 0").Body(stepsBody{n: 40, every: 2, v: "heat", add: 7}).Spec()
	hunt.Considerations = []ConsiderationSpec{in("hungry", "hunger", 0, 10, logit), in("cool", "heat", 50, 0, nil)}
	rest := NewAction("rest").Pre("hunger < 9 || gate > 2").Body(stepsBody{n: 30, every: 3, v: "hunger", add: 1}).Spec()
	rest.Considerations = []ConsiderationSpec{in("tired", "fatigue", 0, 10, poly), in("warm", "heat", 0, 50, nil)}
	flee := NewAction("flee").Pre("danger != nil").Body(stepsBody{n: 25, every: 5, v: "fatigue", add: 2}).Spec()
	flee.Considerations = []ConsiderationSpec{in("scared", "danger", 0, 1, &curve.Curve{Kind: curve.Logistic, Slope: 9, Offset: 0.6}),
		{Of: []ConsiderationSpec{in("tired", "fatigue", 10, 0, nil), in("hungry", "hunger", 10, 0, logit)}}}
	idle := NewAction("idle").Body(stepsBody{n: 20}).Spec()
	idle.Considerations = []ConsiderationSpec{{Kind: ConsiderValue, Weight: 0.2}}
	vars := []Var{{"hunger", expr.NumberValue(3)}, {"heat", expr.NumberValue(10)}, {"fatigue", expr.NumberValue(2)},
		{"danger", expr.NumberValue(0.3)}, {"gate", expr.NumberValue(1)}, {"tag", expr.StringValue("")}}
	for i := range pad {
		vars = append(vars, Var{fmt.Sprintf("pad%d", i), expr.NumberValue(float64(i))})
	}
	if pad > 0 { // a consideration on a slot of 64 or more
		last := fmt.Sprintf("pad%d", pad-1)
		rest.Considerations = append(rest.Considerations, in("far", last, 0, float64(pad), nil))
	}
	return RoleSpec{Name: "Odd", Decide: "utility", UtilityMode: UtilityAverage, State: vars,
		Sensors: []SensorSpec{{Name: "nose", Run: func(a *Agent, _ float64) error {
			if a.Rand.IntN(4) == 0 {
				x, _ := a.Get("danger").AsNumber()
				a.Set("danger", expr.NumberValue(math.Mod(x+0.37, 1.2)))
			} else {
				a.Set("danger", a.Get("danger")) // the same value
			}
			if a.Rand.IntN(6) == 0 { // a told belief for another agent's next tick
				_ = a.Tell(fmt.Sprintf("o%d", a.Rand.IntN(30)), "hunger", expr.NumberValue(float64(a.Rand.IntN(12))))
			}
			return nil
		}}},
		Actions: []ActionSpec{hunt, rest, flee, idle}}
}

// oddValues are the values the game writes into the odd role's slots.
var oddValues = []expr.Value{expr.NumberValue(math.NaN()), expr.NumberValue(math.Inf(1)), expr.NumberValue(math.Inf(-1)),
	expr.NumberValue(math.Copysign(0, -1)), expr.NumberValue(0), expr.NumberValue(5), expr.NumberValue(1e308), expr.NilValue(),
	expr.StringValue(""), expr.StringValue("x"), expr.BoolValue(true), {}}

// oddPickRun ticks a world of agents of the odd role while the game
// writes odd values between ticks, changes dt every tick (0, tiny, to an
// hour), removes and adds agents, switches between 1 and 2 workers and
// pins agents, and gives agents odd RethinkEvery and Commitment values;
// it returns every record. checkAll makes every check and re-score.
func oddPickRun(t *testing.T, pad int, seed uint64, checkAll bool) []string {
	t.Helper()
	saved := testHooks.checkEverything
	testHooks.checkEverything = checkAll
	t.Cleanup(func() { testHooks.checkEverything = saved })
	d, err := Compile(oddPickRole(pad))
	require.NoError(t, err)
	w := NewWorld(seed)
	var out []string
	w.OnEvent = func(e record.Event) { out = append(out, e.Kind.String()+": "+fmt.Sprintf("%+v", e)) }
	rethinks := []float64{0, -1, 1e-12, 0.05, 0.25, math.Inf(1), math.NaN()}
	commits := []float64{0, -1, 1e-300, 0.3, 1e300, math.NaN(), math.Inf(1)}
	made := 0
	add := func() {
		a := NewAgent(fmt.Sprintf("o%d", made), d)
		a.RethinkEvery = rethinks[made%len(rethinks)]
		a.Commitment = commits[made%len(commits)]
		a.StuckAfter = []float64{0, 0.05, -1}[made%3]
		made++
		w.Add(a)
	}
	for range 20 {
		add()
	}
	r := rand.New(rand.NewPCG(seed, 99))
	dts := []float64{1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 30, 0.1, 1e-9, 0, 0.5, 3600}
	names := []string{"hunger", "heat", "fatigue", "danger", "gate", "tag"}
	for tick := range 700 {
		for _, a := range w.Agents {
			switch p := r.IntN(100); {
			case p < 8:
				a.Set(names[r.IntN(len(names))], oddValues[r.IntN(len(oddValues))])
			case p < 30:
				a.Set(names[r.IntN(5)], expr.NumberValue(float64(r.IntN(12))))
			case p < 34 && pad > 0:
				a.Set(fmt.Sprintf("pad%d", pad-1), expr.NumberValue(float64(r.IntN(2*pad))))
			}
		}
		switch p := r.IntN(100); {
		case p < 3 && len(w.Agents) > 4:
			require.True(t, w.Remove(w.Agents[r.IntN(len(w.Agents))]))
		case p < 6:
			add()
		case p < 8:
			w.Workers = 1 + r.IntN(2)
		case p < 10 && len(w.Agents) > 0:
			w.Pin(r.IntN(len(w.Agents)), r.IntN(3))
		}
		dt := dts[r.IntN(len(dts))]
		if tick%50 < 10 {
			dt = 1.0 / 60 // runs of an unchanged dt (the clock's inline path)
		}
		w.Tick(dt)
	}
	w.Finish()
	return out
}

// TestOddPicksSkipNothing: with odd values (NaN, ±Inf, -0, nil, Unknown,
// strings) in the slots a utility pick's scores read, a sensor telling
// other agents those beliefs, a sensor and bodies
// writing those slots, dt changing every tick, agents removed and added,
// the workers changing, and odd re-score periods and commitments, the
// fast paths (skipped checks and re-scores, scores taken from the memo)
// leave every record as checking everything does; with the state past 64
// slots too.
func TestOddPicksSkipNothing(t *testing.T) {
	for _, pad := range []int{0, 70} {
		for _, seed := range []uint64{1, 2} {
			t.Run(fmt.Sprintf("pad=%d/seed=%d", pad, seed), func(t *testing.T) {
				want := oddPickRun(t, pad, seed, true)
				got := oddPickRun(t, pad, seed, false)
				kinds := map[string]int{}
				for _, l := range want {
					kinds[l[:strings.Index(l, ":")]]++
				}
				for _, k := range []string{record.EventPick.String(), record.EventInterrupt.String(), record.EventFinish.String(), record.EventTell.String()} {
					assert.Greater(t, kinds[k], 20, "the run has %s records", k)
				}
				require.Equal(t, len(want), len(got), "as many records")
				for i := range want {
					require.Equal(t, want[i], got[i], "record %d", i)
				}
			})
		}
	}
}

// tellBudgetRun runs 24 soldiers of skipRole under a world plan budget
// (the sliced planning queue) for 900 ticks while agents tell each other
// beliefs the replanning checks and the scores read (health, ammo,
// enemy_visible, alarm), and the game writes some; it returns every
// record. checkAll makes every check and re-score.
func tellBudgetRun(t *testing.T, budget int, checkAll bool) []string {
	t.Helper()
	d, err := Compile(skipRole())
	require.NoError(t, err)
	w, out := skipWorld(t, d, 9, 24, checkAll)
	w.PlanBudget = budget
	r := rand.New(rand.NewPCG(21, 22))
	for range 900 {
		for _, a := range w.Agents {
			switch p := r.IntN(100); {
			case p < 6:
				to := w.Agents[r.IntN(len(w.Agents))].Name
				require.NoError(t, a.Tell(to, "health", expr.NumberValue(float64(r.IntN(101)))))
			case p < 9:
				to := w.Agents[r.IntN(len(w.Agents))].Name
				require.NoError(t, a.Tell(to, "enemy_visible", expr.BoolValue(r.IntN(3) > 0)))
			case p < 11:
				to := w.Agents[r.IntN(len(w.Agents))].Name
				require.NoError(t, a.Tell(to, "alarm", expr.NumberValue(float64(r.IntN(5)))))
			case p < 13:
				to := w.Agents[r.IntN(len(w.Agents))].Name
				require.NoError(t, a.Tell(to, "ammo", expr.NumberValue(float64(r.IntN(31)))))
			case p < 15:
				a.Set("magazines", expr.NumberValue(0))
			}
		}
		w.Tick(1.0 / 60)
	}
	w.Finish()
	return *out
}

// TestToldBeliefsUnderAPlanBudgetSkipNothing: told beliefs (applied at
// the receiver's next tick) and the sliced planning queue of a world plan
// budget (plans and probes handed to agents between ticks) leave every
// record as checking everything does.
func TestToldBeliefsUnderAPlanBudgetSkipNothing(t *testing.T) {
	for _, budget := range []int{5, 40} {
		t.Run(fmt.Sprintf("budget=%d", budget), func(t *testing.T) {
			want := tellBudgetRun(t, budget, true)
			got := tellBudgetRun(t, budget, false)
			kinds := map[string]int{}
			for _, l := range want {
				kinds[l[:strings.Index(l, ":")]]++
			}
			for _, k := range []string{record.EventTell.String(), record.EventPlan.String(), record.EventInterrupt.String(), record.EventPick.String()} {
				assert.Greater(t, kinds[k], 20, "the run has %s records", k)
			}
			require.Equal(t, len(want), len(got), "as many records")
			for i := range want {
				require.Equal(t, want[i], got[i], "record %d", i)
			}
		})
	}
}

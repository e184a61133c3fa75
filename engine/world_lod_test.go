package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// walker is a body that walks the agent's x towards to at speed units a
// second, as far as each tick's dt takes it, then applies the effects.
// It notes every dt it is given in the agent's Data (a *[]float64).
type walker struct{ to, speed float64 }

func (b walker) Start(a *Agent, act *Action) (Task, error) {
	return &walking{walker: b, a: a, act: act}, nil
}

type walking struct {
	walker
	a   *Agent
	act *Action
}

func (t *walking) Resume(dt float64) (Status, error) {
	if dts, ok := t.a.Data.(*[]float64); ok {
		*dts = append(*dts, dt)
	}
	x, _ := t.a.Get("x").AsNumber()
	x = math.Min(t.to, x+t.speed*dt)
	t.a.Set("x", expr.NumberValue(x))
	if x >= t.to-1e-9 {
		t.a.Set("x", expr.NumberValue(t.to))
		return ApplyEffects(t.a, t.act)
	}
	return Running, nil
}

func (t *walking) Interrupt() {}

// walkerRole walks to x = 10 at 2 units a second (5 s), then bakes for
// 0.5 s.
func walkerRole(t *testing.T, rates ...float64) *Domain {
	d, err := Compile(RoleSpec{
		Name:       "Walker",
		State:      []Var{{"x", expr.NumberValue(0)}, {"there", expr.BoolValue(false)}, {"bread", expr.NumberValue(0)}},
		Goals:      []GoalSpec{NewGoal("fed", "bread >= 1", Normal)},
		ThinkRates: rates,
		Actions: []ActionSpec{
			NewAction("walk").Effects("there = true").Body(walker{to: 10, speed: 2}).Spec(),
			NewAction("bake").Pre("there").Effects("bread = bread + 1").Body(timer{secs: 0.5}).Spec(),
		},
	})
	require.NoError(t, err)
	return d
}

// TestLODThinksAtItsRateWithTheElapsedTime: under a level of detail of
// 60, 10 and 2 thinks a second at 60 ticks a second, the agent at level 0
// ticks every tick with the world's dt, the one at level 1 every sixth
// tick and the one at level 2 every thirtieth, each with the game time
// since it last thought (after a first wait of part of a period, which
// spreads the agents of a level over the ticks); the time they were
// given and the time they are still owed add up to the world's.
func TestLODThinksAtItsRateWithTheElapsedTime(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(a *Agent) int { return a.ID }, Rates: []float64{60, 10, 2}}
	dts := make([][]float64, 3)
	for i := range 3 {
		a := NewAgent(fmt.Sprintf("a%d", i), d)
		a.Data = &dts[i]
		w.Add(a)
	}
	for range 120 {
		w.Tick(1.0 / 60)
	}
	assert.Len(t, dts[0], 120, "level 0 thinks every tick")
	for _, dt := range dts[0] {
		require.Equal(t, 1.0/60, dt, "level 0 ticks with the world's dt, exactly")
	}
	for i, want := range []struct {
		period float64
		thinks int
	}{{0, 0}, {0.1, 20}, {0.5, 4}} {
		if i == 0 {
			continue
		}
		a := w.Agents[i]
		level, rate := a.LODLevel()
		assert.Equal(t, i, level)
		assert.Equal(t, 1/want.period, rate)
		require.Len(t, dts[i], want.thinks, "level %d: the first wait, then one think a period", i)
		sum := 0.0
		for j, dt := range dts[i] {
			if j > 0 {
				assert.InDelta(t, want.period, dt, 1e-9, "level %d think %d", i, j)
			}
			sum += dt
		}
		assert.InDelta(t, w.Time, sum+w.lod.time-a.lod.thought, 1e-9, "level %d: no game time is lost", i)
		assert.Equal(t, a.Ticks(), len(dts[i]), "level %d: a tick is a think", i)
	}
}

// TestThrottledWalkerEndsWhereTheFullRateOneDoes: the same role run at 60,
// 10 and 2 thinks a second reaches the same goal with the same state after
// a long run; the coarser steps only make it finish later, by up to one
// period for each of its two actions.
func TestThrottledWalkerEndsWhereTheFullRateOneDoes(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(a *Agent) int { return a.ID }, Rates: []float64{60, 10, 2}}
	var finished [3]float64
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFinish && e.Action == "bake" {
			finished[w.Agent(e.Agent).ID] = e.Time
		}
	}
	for i := range 3 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	for range 600 {
		w.Tick(1.0 / 60)
	}
	for _, a := range w.Agents {
		assert.Equal(t, w.Agents[0].State, a.State, "%s ends as the full-rate agent", a.Name)
		assert.Nil(t, a.Running(), a.Name)
	}
	assert.Equal(t, expr.NumberValue(1), w.Agents[0].Get("bread"))
	assert.Equal(t, expr.NumberValue(10), w.Agents[0].Get("x"))
	assert.InDelta(t, 5.5, finished[0], 0.05, "5 s of walking and 0.5 s of baking")
	for i, period := range []float64{0, 0.1, 0.5} {
		// A think covers the time since the one before and its records
		// carry the time it began at, so the finish may read earlier too.
		assert.InDelta(t, finished[0], finished[i], 3*period+1e-9, "a%d: off by at most its first wait and a period per action", i)
	}
}

// lodTrace runs 60 walkers at three levels that change over time, under a
// budget (0: none), on the given number of workers, and returns their
// records.
func lodTrace(t *testing.T, workers, budget int) []string {
	d := walkerRole(t)
	w := NewWorld(7)
	w.Workers = workers
	w.LOD = LOD{
		Level:  func(a *Agent) int { return (a.ID + w.Ticks/40) % 3 },
		Rates:  []float64{60, 10, 2},
		Budget: budget,
	}
	var lines []string
	w.OnEvent = func(e record.Event) { lines = append(lines, e.String()) }
	for i := range 60 {
		w.Add(NewAgent(fmt.Sprintf("a%02d", i), d))
	}
	for range 300 {
		before := make([]int, len(w.Agents))
		for i, a := range w.Agents {
			before[i] = a.Ticks()
		}
		w.Tick(1.0 / 60)
		lowered := 0
		for i, a := range w.Agents {
			if _, rate := a.LODLevel(); rate > 0 && a.Ticks() > before[i] {
				lowered++
			}
		}
		if budget > 0 {
			require.LessOrEqual(t, lowered, budget, "the budget caps the agents thinking at a lowered rate")
		}
	}
	return lines
}

// TestLODTracesAreTheSameOnAnyNumberOfWorkers: who thinks when, with what
// dt, and the lod records are decided from each agent's level and its own
// schedule, whichever goroutine decides it, so one and four workers make
// the same records, with a budget and without one.
func TestLODTracesAreTheSameOnAnyNumberOfWorkers(t *testing.T) {
	unbudgeted := lodTrace(t, 1, 0)
	assert.Equal(t, unbudgeted, lodTrace(t, 4, 0), "without a budget, where the workers choose the levels")
	assert.NotEqual(t, unbudgeted, lodTrace(t, 1, 5), "the budget changes who thinks when")
	one := lodTrace(t, 1, 5)
	four := lodTrace(t, 4, 5)
	require.NotEmpty(t, one)
	assert.Equal(t, one, four)
	assert.Contains(t, one, "tick    1  t=  0.000s  a01          lod         reason=\"level 1, 10 Hz\"")
	assert.Contains(t, one, "tick    1  t=  0.000s  a00          plan        goal=fed plan=[walk, bake] cost=2")
	lods := 0
	for _, l := range one {
		if strings.Contains(l, " lod ") {
			lods++
		}
	}
	assert.Greater(t, lods, 60, "every agent's level changes every 40 ticks, and each change is recorded")
}

// TestLODOffTicksEveryAgentWithWhatItIsOwed: setting Level back to nil
// ticks every agent in the next tick with the time since it last
// thought, so no game time is lost, and every tick after with the world's
// dt.
func TestLODOffTicksEveryAgentWithWhatItIsOwed(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 1 }, Rates: []float64{2}}
	var dts []float64
	a := NewAgent("a", d)
	a.Data = &dts
	w.Add(a)
	for range 40 {
		w.Tick(0.1)
	}
	require.Len(t, dts, 8, "a first wait of 0.31 s (thinking at 0.4 s), then every 0.5 s: 0.4, 0.9, ..., 3.9")
	w.LOD.Level = nil
	w.Tick(0.1)
	w.Tick(0.1)
	require.Len(t, dts, 10)
	assert.InDelta(t, 0.2, dts[8], 1e-9, "the 0.1 s owed and this tick's 0.1 s")
	assert.Equal(t, 0.1, dts[9])
	assert.InDelta(t, 4.2, a.Time(), 1e-9)
	level, rate := a.LODLevel()
	assert.Equal(t, 0, level)
	assert.Equal(t, 0.0, rate)
}

// TestRoleThinkRatesReplaceTheWorlds: a domain's think rates are used for
// its agents; the world's for the others.
func TestRoleThinkRatesReplaceTheWorlds(t *testing.T) {
	own := walkerRole(t, 60, 4)
	plain := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 1 }, Rates: []float64{60, 10}}
	w.Add(NewAgent("own", own))
	w.Add(NewAgent("plain", plain))
	w.Tick(0.01)
	_, rate := w.Agents[0].LODLevel()
	assert.Equal(t, 4.0, rate)
	_, rate = w.Agents[1].LODLevel()
	assert.Equal(t, 10.0, rate)

	_, err := Compile(RoleSpec{Name: "Bad", ThinkRates: []float64{60, 0, math.Inf(1)}})
	assert.EqualError(t, err, "think rate 2 must be a positive finite number of thinks per second, not 0\n"+
		"think rate 3 must be a positive finite number of thinks per second, not +Inf")
}

// TestLODTicksDoNotAllocate: under a level of detail whose levels do not
// change, a tick in which nothing else happens makes no allocation.
func TestLODTicksDoNotAllocate(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Worker",
		State:   []Var{{"done", expr.BoolValue(false)}},
		Goals:   []GoalSpec{NewGoal("finish", "done", Normal)},
		Actions: []ActionSpec{NewAction("work").Effects("done = true").Body(ticksBody{n: 1 << 30}).Spec()},
	})
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		w := NewWorld(1)
		w.Workers = workers
		w.LOD = LOD{Level: func(a *Agent) int { return a.ID % 3 }, Rates: []float64{60, 10, 2}, Budget: 3}
		w.OnEvent = func(record.Event) {}
		for i := range 30 {
			w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
		}
		for range 120 {
			w.Tick(1.0 / 60)
		}
		if workers == 1 {
			assert.Zero(t, testing.AllocsPerRun(100, func() { w.Tick(1.0 / 60) }), "workers %d", workers)
		}
	}
}

// TestLODRoundTripsThroughASnapshot: a world saved mid-run under a level
// of detail and restored (the game setting LOD again) thinks on the same
// ticks with the same dts as the world that ran on: each agent ends with
// the same ticks, clock, state and level of detail.
func TestLODRoundTripsThroughASnapshot(t *testing.T) {
	d := walkerRole(t)
	lod := func(w *World) LOD {
		return LOD{Level: func(a *Agent) int { return (a.ID + w.Ticks/50) % 3 }, Rates: []float64{60, 10, 2}, Budget: 2}
	}
	w := NewWorld(3)
	w.LOD = lod(w)
	for i := range 9 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	for range 77 {
		w.Tick(1.0 / 60)
	}
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	require.Contains(t, buf.String(), `"lodOn": true`)
	r, err := Restore(&buf, RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	r.LOD = lod(r)
	for range 200 {
		w.Tick(1.0 / 60)
		r.Tick(1.0 / 60)
	}
	for i, a := range w.Agents {
		b := r.Agents[i]
		assert.Equal(t, a.Ticks(), b.Ticks(), a.Name)
		assert.Equal(t, a.Time(), b.Time(), a.Name)
		assert.Equal(t, a.State, b.State, a.Name)
		assert.Equal(t, a.lod, b.lod, a.Name)
	}
	assert.Equal(t, w.lod.at, r.lod.at, "the schedules")
	assert.Less(t, w.Agents[2].Ticks(), 277, "the agents did think at lowered rates")

	// A snapshot with a bad level of detail is refused.
	buf.Reset()
	require.NoError(t, w.Snapshot(&buf))
	bad := strings.Replace(buf.String(), `"thought": `, `"thought": 1`, 1)
	_, err = Restore(strings.NewReader(bad), RestoreOptions{Domains: []*Domain{d}})
	assert.ErrorContains(t, err, "engine: restore: agent a0: level of detail thought 1")
	assert.ErrorContains(t, err, "thought at most the clock's 4.616666666666")
	bad = strings.Replace(buf.String(), `"lodTime": `, `"lodTime": -`, 1)
	_, err = Restore(strings.NewReader(bad), RestoreOptions{Domains: []*Domain{d}})
	assert.ErrorContains(t, err, "engine: restore: level-of-detail time -4.616666666666")

	// Its bounds: the times within 1e12 seconds of 0, thought not after
	// the clock, rate from 0 to 1e12.
	buf.Reset()
	require.NoError(t, w.Snapshot(&buf))
	saved := buf.Bytes()
	withLOD := func(lodOf map[string]any) error {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(saved, &doc))
		a0 := doc["agents"].([]any)[0].(map[string]any)
		for k, v := range lodOf {
			a0["lod"].(map[string]any)[k] = v
		}
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		_, err = Restore(bytes.NewReader(b), RestoreOptions{Domains: []*Domain{d}})
		return err
	}
	assert.NoError(t, withLOD(map[string]any{"thought": -1e12, "rate": 1e12, "next": 1e12}))
	assert.NoError(t, withLOD(map[string]any{"thought": 0, "rate": 0, "next": -1e12}))
	for _, bad := range []map[string]any{{"thought": -2e12}, {"thought": 5}, {"rate": 2e12}, {"rate": -1}, {"next": 2e12}, {"next": -2e12}} {
		assert.ErrorContains(t, withLOD(bad), "engine: restore: agent a0: level of detail thought ", "%v", bad)
	}
}

// TestLODTickOfNoTimeKeepsTheRates: a tick of dt 0 (a paused game) ticks
// the agents that think every tick, with dt 0, and changes no rate; the
// lowered ones wait on.
func TestLODTickOfNoTimeKeepsTheRates(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(a *Agent) int { return a.ID }, Rates: []float64{60, 2}}
	dts := make([][]float64, 2)
	for i := range 2 {
		a := NewAgent(fmt.Sprintf("a%d", i), d)
		a.Data = &dts[i]
		w.Add(a)
	}
	for range 5 {
		w.Tick(1.0 / 60)
	}
	w.Tick(0)
	w.Tick(1.0 / 60)
	assert.Equal(t, []float64{1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 0, 1.0 / 60}, dts[0])
	_, rate := w.Agents[0].LODLevel()
	assert.Equal(t, 0.0, rate, "still every tick")
	_, rate = w.Agents[1].LODLevel()
	assert.Equal(t, 2.0, rate)
	assert.Empty(t, dts[1], "its first wait (0.31 s) is not over")
}

// TestAgentsOfALoweredRateSpreadTheirFirstThinks: five agents at 2 thinks
// a second (level 0, whose rate is lowered too) under ticks of 0.1 s
// first wait a share of the 0.5 s period
// that their IDs spread (by the golden ratio), so they do not all think
// in the same tick, then think once a period with the time since.
func TestAgentsOfALoweredRateSpreadTheirFirstThinks(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{2}}
	dts := make([][]float64, 5)
	for i := range 5 {
		a := NewAgent(fmt.Sprintf("a%d", i), d)
		a.Data = &dts[i]
		w.Add(a)
	}
	for range 12 {
		w.Tick(0.1)
	}
	for i, want := range [][]float64{{0.4, 0.5}, {0.2, 0.5, 0.5}, {0.5, 0.5}, {0.3, 0.5}, {0.1, 0.5, 0.5}} {
		require.Len(t, dts[i], len(want), "agent %d", i)
		for j := range want {
			assert.InDelta(t, want[j], dts[i][j], 1e-9, "agent %d think %d", i, j)
		}
	}
}

// TestABudgetServesTheDueAgentsInTurn: six agents due every 0.2 s under
// ticks of 0.1 s and a budget of 2 thinks a tick: each tick serves at
// most two, in order of ID from where the last tick stopped, so those
// beyond the budget wait and are served first next.
func TestABudgetServesTheDueAgentsInTurn(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{5}, Budget: 2}
	for i := range 6 {
		w.Add(NewAgent(fmt.Sprintf("a%d", i), d))
	}
	thinks := make([][]int, 6)
	for tick := 1; tick <= 12; tick++ {
		before := make([]int, 6)
		for i, a := range w.Agents {
			before[i] = a.Ticks()
		}
		w.Tick(0.1)
		for i, a := range w.Agents {
			if a.Ticks() != before[i] {
				thinks[i] = append(thinks[i], tick)
			}
		}
	}
	assert.Equal(t, [][]int{{3, 6, 9, 12}, {1, 3, 6, 9, 12}, {4, 7, 10}, {1, 4, 7, 10}, {2, 5, 8, 11}, {2, 5, 8, 11}}, thinks,
		"the ticks at which each agent thinks")
}

// TestARateThatIsNoWholeNumberOfTicksKeepsItsAverage: an agent at 3
// thinks a second under ticks of 0.1 s thinks every third or fourth tick,
// so that over 3 s it thinks 9 times, as its rate says: each next think
// is a period after the one due, not after the tick that served it.
func TestARateThatIsNoWholeNumberOfTicksKeepsItsAverage(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	w.LOD = LOD{Level: func(*Agent) int { return 0 }, Rates: []float64{3}}
	var dts []float64
	a := NewAgent("a", d)
	a.Data = &dts
	w.Add(a)
	for range 30 {
		w.Tick(0.1)
	}
	assert.Len(t, dts, 9, "%v", dts)
}

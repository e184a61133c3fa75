package bdi_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/perception"
)

// perceptionRole is a domain whose plans note every perceived, lost and
// forgotten event of "enemy" (and, by a plan without a filter, of any
// thing forgotten) in the agent's Data, as "kind source@time".
func perceptionRole(t *testing.T) *engine.Domain {
	t.Helper()
	d, err := engine.Compile(engine.RoleSpec{Name: "Watcher",
		Memory: perception.Spec{HalfLife: 1, Forget: 0.25, LoseAfter: 0.5}})
	require.NoError(t, err)
	note := func(a *engine.Agent, ev *bdi.Event, _ any) (any, error) {
		log := a.Data.(*[]string)
		*log = append(*log, fmt.Sprintf("%s %s@%.1f", ev.Kind, ev.Name, a.Time()))
		return nil, nil
	}
	install(t, d, &bdi.Config{},
		&bdi.Plan{On: bdi.Perceived, Source: "enemy", Body: bdi.Func(note)},
		&bdi.Plan{On: bdi.Lost, Source: "enemy", Body: bdi.Func(note)},
		&bdi.Plan{On: bdi.Forgotten, Body: bdi.Func(note)})
	return d
}

// TestPerceptionEventsTriggerPlansOnSchedule: plans react to a thing
// perceived (at the next think), lost (at the first think 0.5 s after its
// last news) and forgotten (at the first think once its confidence is
// below 0.25: 2 half-lives, 2 s after the news); the source filter keeps
// "shot" from the enemy's plans, and a plan without one takes any source.
// A snapshot in the middle restores the memory and the changes still to
// be dispatched, so the restored run makes the same events.
func TestPerceptionEventsTriggerPlansOnSchedule(t *testing.T) {
	d := perceptionRole(t)
	run := func(snapAt int) []string {
		w := engine.NewWorld(1)
		a := engine.NewAgent("a", d)
		var log []string
		a.Data = &log
		w.Add(a)
		for i := range 40 {
			if i == snapAt {
				var buf bytes.Buffer
				require.NoError(t, w.Snapshot(&buf))
				r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{d}})
				require.NoError(t, err)
				w, a = r, r.Agents[0]
				a.Data = &log
			}
			switch i {
			case 2:
				a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 4, Y: 2})
				a.Perceive(perception.Stimulus{Source: "shot", Sense: perception.SenseSound, Strength: 0.3})
			case 5:
				a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 5, Y: 2})
			case 12:
				a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 6, Y: 2})
			}
			w.Tick(0.1)
		}
		return log
	}
	want := []string{
		"perceived enemy@0.2", // perceived at 0.2 (between ticks), dispatched at the think at 0.2
		"forgotten shot@0.5",  // 0.3 at 0.2 is below 0.25 0.26 s later: the think at 0.5
		"lost enemy@1.0",      // last news at 0.5: lost at the think at 1.0
		"perceived enemy@1.2", // found again at 1.2
		"lost enemy@1.7",      // no news since 1.2
		"forgotten enemy@3.3", // 1 at 1.2, below 0.25 after 2 s: the think at 3.3
	}
	got := run(-1)
	assert.Equal(t, want, got)
	assert.Equal(t, want, run(11), "restored with the memory lost, waiting for news")
	assert.Equal(t, want, run(3), "restored with a change waiting for the plans")
	require.True(t, strings.HasPrefix(got[0], "perceived"))
}

// TestPerceptionFiltersAreChecked: a goal or belief filter on a
// perception event, and a source filter on another event, are refused.
func TestPerceptionFiltersAreChecked(t *testing.T) {
	d := domain(t, "bell")
	_, err := bdi.NewLibrary(d, []*bdi.Plan{
		{On: bdi.Lost, Belief: "bell", Body: bdi.Func(done(nil)), Pos: engine.Pos{File: "r.lua", Line: 3}},
		{On: bdi.BeliefAdded, Source: "enemy", Body: bdi.Func(done(nil)), Pos: engine.Pos{File: "r.lua", Line: 4}},
	})
	assert.EqualError(t, err, "r.lua:3: plan #1: a goal or belief filter on a perception event (on = lost): use source = \"name\"\n"+
		"r.lua:4: plan #2: a source filter on a belief_added event: source filters perceived, lost and forgotten")
}

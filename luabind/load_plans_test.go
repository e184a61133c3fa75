package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// prints returns the print lines of the events, in order.
func (wd *world) prints() []string {
	var out []string
	for _, e := range wd.events {
		if e.Kind == record.EventPrint {
			out = append(out, e.Reason)
		}
	}
	return out
}

// kinds returns the events of one agent as "kind detail" lines, for
// checking a sequence.
func (wd *world) trace(agent string) []string {
	var out []string
	for _, e := range wd.events {
		if e.Agent == agent {
			out = append(out, e.String())
		}
	}
	return out
}

func (wd *world) count(agent string, kind record.EventKind) int {
	n := 0
	for _, e := range wd.events {
		if e.Agent == agent && e.Kind == kind {
			n++
		}
	}
	return n
}

func TestBaristaRecoversWithTheFailurePlan(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Barista"}, []string{"bdi/barista.lua"})
	wd.run(5, 0.1)
	a := wd.agents["Barista"]
	assert.Equal(t, []string{
		"Barista I could not prepare the espresso buying beans and trying again",
		"Barista served cup of espresso",
	}, wd.prints())
	assert.Equal(t, expr.StringValue("cup of espresso"), a.Get("served"))
	assert.Equal(t, expr.BoolValue(true), a.Get("beans"))
	// The first prepare failed for want of an applicable plan, and the
	// failure plan's result completed it.
	nop := wd.first("Barista", record.EventNoPlan)
	require.NotNil(t, nop)
	assert.Equal(t, `{"prepare", "espresso"}`, nop.Goal)
	assert.Contains(t, nop.Reason, "no applicable plan (1 relevant, every guard refused)")
	fail := wd.first("Barista", record.EventGoalFailed)
	require.NotNil(t, fail)
	assert.Equal(t, `{"prepare", "espresso"}`, fail.Goal)
	var removed []string
	for _, e := range wd.events {
		if e.Kind == record.EventGoalRemoved {
			removed = append(removed, e.Goal+" -> "+e.Value)
		}
	}
	assert.Equal(t, []string{
		`{"prepare", "espresso"} -> "cup of espresso"`, // the retry, by brew
		`{"prepare", "espresso"} -> "cup of espresso"`, // the first, by the failure plan
		`serve -> "cup of espresso"`,
	}, removed)
}

func TestCountingGoalReachesItsEndInOneTick(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Counter"}, []string{"bdi/counting.lua"})
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Counter Counting... 0", "Counter Counting... 1", "Counter Counting... 2",
		"Counter Counting... 3", "Counter Counting... 4", "Counter done at 5"}, wd.prints())
	assert.Equal(t, expr.NumberValue(5), wd.agents["Counter"].Get("reached"))
	assert.Equal(t, 6, wd.count("Counter", record.EventIntentionDone))
	assert.Empty(t, wd.agents["Counter"].Recorder.Count(record.EventIntentionFailed))
}

func TestPingPongThroughTellForSixRounds(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Ping", "Pong"}, []string{"bdi/ping.lua", "bdi/pong.lua"})
	wd.run(20, 0.1)
	var pongs []string
	for _, p := range wd.prints() {
		if strings.HasPrefix(p, "Pong ") {
			pongs = append(pongs, p)
		}
	}
	assert.Equal(t, []string{"Pong pong 1", "Pong pong 3", "Pong pong 5", "Pong pong 7", "Pong pong 9", "Pong pong 11"}, pongs)
	assert.Equal(t, "Ping game over at 12", wd.prints()[len(wd.prints())-1])
	// A told belief arrives at the start of the receiver's next tick.
	var ticks []int
	for _, e := range wd.events {
		if e.Kind == record.EventBeliefAdded && e.Belief == "ball" {
			ticks = append(ticks, e.Tick)
			assert.NotEmpty(t, e.Peer, "a told belief names its sender")
		}
	}
	assert.Equal(t, []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, ticks)
}

// scriptWorld loads role files from testdata/bdi with require reaching that
// folder, one agent per file, named after its role.
func scriptWorld(t *testing.T, workers int, files ...string) *world {
	t.Helper()
	wd := &world{w: engine.NewWorld(1), agents: map[string]*engine.Agent{}}
	wd.w.OnEvent = func(e record.Event) { wd.events = append(wd.events, e) }
	wd.w.Workers = workers
	n := max(workers, 1)
	rts := make([]*Runtime, n)
	for k := range rts {
		rts[k] = NewRuntime(Options{InstructionBudget: testBudget, ScriptsDir: "testdata/bdi"})
		t.Cleanup(rts[k].Close)
	}
	for i, f := range files {
		d, err := rts[i%n].LoadDomain(f)
		require.NoError(t, err, f)
		a := engine.NewAgent(d.Name, d)
		wd.w.Add(a)
		wd.w.Pin(i, i%n)
		wd.agents[d.Name] = a
	}
	return wd
}

func TestEachTriggerKindFiresForItsEventOnly(t *testing.T) {
	wd := scriptWorld(t, 1, "kinds.lua")
	a := wd.agents["Kinds"]
	require.NoError(t, a.Achieve(reactive.GoalNamed("job")))
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Kinds goal_added job", "Kinds goal_failed job", "Kinds goal_removed job"}, wd.prints())
	failed := wd.first("Kinds", record.EventIntentionFailed)
	require.NotNil(t, failed)
	assert.Equal(t, "testdata/bdi/kinds.lua:7: job cannot be done", failed.Reason, "a body error names its file and line")

	wd.events = nil
	a.Set("bell", expr.BoolValue(true)) // a change by Go, seen at the next tick
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Kinds belief_added bell true false"}, wd.prints())

	wd.events = nil
	require.NoError(t, a.Forget("bell"))
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Kinds belief_removed bell nil true"}, wd.prints())

	wd.events = nil
	a.Set("light", expr.StringValue("on")) // no plan for light: ignored, but recorded
	wd.run(1, 0.1)
	assert.Empty(t, wd.prints())
	ev := wd.first("Kinds", record.EventBeliefAdded)
	require.NotNil(t, ev)
	assert.Equal(t, "light", ev.Belief)
	assert.Equal(t, `"on"`, ev.Value)
	assert.Nil(t, wd.first("Kinds", record.EventNoPlan), "a belief nobody cares about is no failure")
}

func TestGuardRefinesTheContextAndFirstApplicableWins(t *testing.T) {
	wd := scriptWorld(t, 1, "ordered.lua")
	require.NoError(t, wd.agents["Ordered"].Achieve(reactive.GoalNamed("drink")))
	require.NoError(t, wd.agents["Ordered"].Achieve(reactive.GoalNamed("eat")))
	wd.run(1, 0.1)
	// "tea" comes first and its guard's context reaches the body; "water"
	// and the catch-all never run for drink; eat reaches the catch-all.
	assert.Equal(t, []string{"Ordered making tea", "Ordered catch-all eat"}, wd.prints())
}

func TestCatchAllFirstShadowsTheLibrariesAfterIt(t *testing.T) {
	wd := scriptWorld(t, 1, "shadow.lua")
	require.NoError(t, wd.agents["Shadow"].Achieve(reactive.GoalNamed("drink")))
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Shadow catch-all drink"}, wd.prints())
}

func TestWaitEventMatchesAndTimesOut(t *testing.T) {
	wd := scriptWorld(t, 1, "waiter.lua")
	a := wd.agents["Waiter"]
	wd.run(2, 0.1)
	assert.Empty(t, wd.prints())
	a.Set("other", expr.NumberValue(3)) // matches neither wait
	wd.run(1, 0.1)
	assert.Empty(t, wd.prints())
	a.Set("bell", expr.BoolValue(true))
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Waiter heard belief_added bell true false"}, wd.prints())
	assert.Equal(t, 4, wd.events[len(wd.events)-1].Tick)
	wd.run(3, 0.1)
	// 0.5 s after it began at tick 1: the doze times out at tick 6.
	assert.Equal(t, []string{"Waiter heard belief_added bell true false", "Waiter woke nil timeout"}, wd.prints())
	for _, e := range wd.events {
		if e.Kind == record.EventPrint && strings.Contains(e.Reason, "woke") {
			assert.Equal(t, 6, e.Tick)
		}
	}
}

func TestAchieveHandsAGoalToTheGOAPPlanner(t *testing.T) {
	wd := scriptWorld(t, 1, "goap.lua")
	wd.run(10, 0.1)
	a := wd.agents["Gunner"]
	assert.Equal(t, []string{"Gunner armed with 30"}, wd.prints())
	failed := wd.first("Gunner", record.EventIntentionFailed)
	require.NotNil(t, failed, wd.trace("Gunner"))
	assert.Contains(t, failed.Reason, "testdata/bdi/goap.lua:15: achieve fly: goal fly: the GOAP planner found no plan: ")
	plan := wd.first("Gunner", record.EventPlan)
	require.NotNil(t, plan)
	assert.Equal(t, "armed", plan.Goal)
	assert.Equal(t, []string{"fetch", "reload"}, plan.Plan)
	assert.Nil(t, wd.first("Gunner", record.EventPick), "the utility pick scores everything 0")
	_, pursuitFailed := a.PursuitFailed(a.Domain.Goal("fly"))
	assert.False(t, pursuitFailed, "a failed pursuit is released")
}

func TestBrokenPlansAreReportedWithFileAndLine(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	_, err := rt.LoadDomain("testdata/bdi/broken_load.lua")
	require.Error(t, err)
	assert.Equal(t, strings.Join([]string{
		`testdata/bdi/broken_load.lua:5:22: plan "typo": unknown on "goal_addded" (one of goal_added, goal_failed, goal_removed, belief_added, belief_removed, perceived, lost, forgotten) (did you mean "goal_added"?)`,
		`testdata/bdi/broken_load.lua:6:44: plan "mixed": a goal filter on a belief event (on = belief_added): use belief = "name"`,
		`testdata/bdi/broken_load.lua:7:44: plan "no body": body must be a function(npc, ctx), not string`,
	}, "\n"), err.Error())

	// With those fixed, the unknown belief is the library's to report.
	_, err = rt.LoadDomain("testdata/bdi/broken_belief.lua")
	require.Error(t, err)
	assert.Equal(t, `testdata/bdi/broken_belief.lua:8:7: plan "unknown belief": belief "bel" is no state variable of the role (did you mean "bell"?)`, err.Error())
}

func TestBrokenIntentionsFailAloneWithFileAndLine(t *testing.T) {
	wd := scriptWorld(t, 1, "broken_run.lua")
	a := wd.agents["Runner"]
	for _, g := range []string{"guarded", "tell", "ask", "spin"} {
		require.NoError(t, a.Achieve(reactive.GoalNamed(g)))
	}
	wd.run(2, 0.1)
	var failed []string
	for _, e := range wd.events {
		if e.Kind == record.EventIntentionFailed {
			failed = append(failed, e.Reason)
		}
	}
	require.Len(t, failed, 3, wd.trace("Runner"))
	assert.Equal(t, `testdata/bdi/broken_run.lua:11: npc:tell: tell Nobody: no agent "Nobody" in the world`, failed[0])
	assert.Contains(t, failed[1], "testdata/bdi/broken_run.lua:15: instruction budget exceeded")
	assert.Equal(t, `testdata/bdi/broken_run.lua:13: achieve nothing serves this: goal nothing serves this: no relevant plan, and no goal of that name in the role's goals`, failed[2])
	guard := wd.first("Runner", record.EventNoPlan)
	require.NotNil(t, guard)
	assert.Equal(t, `plan "bad guard" guard: testdata/bdi/broken_run.lua:6: attempt to concatenate a nil value`, guard.Reason)
	// The guard's error failed its goal, and the failure plan recovered it.
	assert.Equal(t, []string{"Runner recovered guarded"}, wd.prints())
}

func TestActionBodiesAchieveAndWaitForEvents(t *testing.T) {
	wd := scriptWorld(t, 1, "action_achieve.lua")
	wd.run(10, 0.1)
	a := wd.agents["Worker"]
	assert.Equal(t, expr.BoolValue(true), a.Get("finished"), wd.trace("Worker"))
	assert.Equal(t, expr.NumberValue(1), a.Get("helped"))
	assert.Equal(t, expr.StringValue("help then nil timeout"), a.Get("why"))
	fin := wd.first("Worker", record.EventFinish)
	require.NotNil(t, fin)
	// Start at tick 1; the goal is dispatched at tick 2 and its plan waits
	// 0.1 s (done at tick 3, polled by the body then); the wait runs 0.3 s.
	assert.Equal(t, 6, fin.Tick)
}

func TestQuietBeliefsLeaveOutEventsNoPlanWants(t *testing.T) {
	wd := scriptWorld(t, 1, "quiet.lua")
	a := wd.agents["Quiet"]
	wd.run(1, 0.1)
	a.Set("noise", expr.NumberValue(1))
	a.Set("bell", expr.BoolValue(true))
	wd.run(1, 0.1)
	var beliefs []string
	for _, e := range wd.events {
		if e.Kind == record.EventBeliefAdded {
			beliefs = append(beliefs, e.Belief)
		}
	}
	assert.Equal(t, []string{"bell"}, beliefs)
	assert.Equal(t, []string{"Quiet ding"}, wd.prints())
}

func TestAnActionBodyWaitsForEventsInARoleWithoutPlans(t *testing.T) {
	wd := scriptWorld(t, 1, "late_waiter.lua")
	a := wd.agents["Late"]
	require.Nil(t, a.Reactive(), "no plans: no reactive layer until a body needs one")
	wd.run(30, 0.1) // 3 s of game time pass
	a.Set("go", expr.BoolValue(true))
	wd.run(4, 0.1)
	assert.Equal(t, expr.StringValue(""), a.Get("why"), "the 0.5 s timeout counts from the call, not from the start")
	wd.run(4, 0.1)
	assert.Equal(t, expr.StringValue("timeout"), a.Get("why"))
}

func TestReloadSwapsThePlans(t *testing.T) {
	dir := t.TempDir()
	role := filepath.Join(dir, "greeter.lua")
	write := func(word string) {
		src := `return { name = "Greeter", state = { bell = 0 }, plans = {
  { on = "belief_added", belief = "bell", body = function(npc, b) npc:print("` + word + `", b.value) end } } }`
		require.NoError(t, os.WriteFile(role, []byte(src), 0o644))
	}
	write("hello")
	rt := NewRuntime(Options{ScriptsDir: dir, InstructionBudget: testBudget})
	defer rt.Close()
	d, err := rt.LoadDomain("greeter.lua")
	require.NoError(t, err)
	wd := &world{w: engine.NewWorld(1), agents: map[string]*engine.Agent{}}
	wd.w.OnEvent = func(e record.Event) { wd.events = append(wd.events, e) }
	a := engine.NewAgent("g", d)
	wd.w.Add(a)
	wd.run(1, 0.1)
	a.Set("bell", expr.NumberValue(1))
	wd.run(1, 0.1)
	write("bonjour")
	n, err := rt.Reload("greeter.lua", wd.w.Agents)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	wd.run(1, 0.1) // the new mind's starting beliefs
	a.Set("bell", expr.NumberValue(2))
	wd.run(1, 0.1)
	assert.Equal(t, []string{"g hello 1", "g bonjour 2"}, wd.prints())
}

func TestBadArgumentsFailTheirIntentionWithFileAndLine(t *testing.T) {
	wd := scriptWorld(t, 1, "bad_args.lua")
	a := wd.agents["BadArgs"]
	for _, g := range []string{"field", "kind", "goal", "timeout", "believe", "filter"} {
		require.NoError(t, a.Achieve(reactive.GoalNamed(g)))
	}
	wd.run(1, 0.1)
	a.Set("bell", expr.BoolValue(true)) // an event for the filter function
	wd.run(1, 0.1)
	var failed []string
	for _, e := range wd.events {
		if e.Kind == record.EventIntentionFailed {
			failed = append(failed, e.Reason)
		}
	}
	assert.Equal(t, []string{
		`testdata/bdi/bad_args.lua:6: bad argument #1 to 'wait_event' (filter has no field "nmae" (an event has kind, goal, error, name, value, old, from, source) (did you mean "name"?))`,
		`testdata/bdi/bad_args.lua:7: bad argument #1 to 'wait_event' (filter kind must be one of goal_added, goal_failed, goal_removed, belief_added, belief_removed, perceived, lost, forgotten, not "belief_add" (did you mean "belief_added"?))`,
		`testdata/bdi/bad_args.lua:8: bad argument #1 to 'achieve' (a goal table holds strings, numbers and booleans, not a table at [2])`,
		`testdata/bdi/bad_args.lua:9: bad argument #2 to 'wait_event' (timeout must be seconds > 0, or nil for none)`,
		`testdata/bdi/bad_args.lua:10: npc:believe: believe bel: no state variable "bel" (did you mean "bell"?)`,
		`testdata/bdi/bad_args.lua:12: wait_event with a function filter: testdata/bdi/bad_args.lua:12: attempt to index a non-table object(nil) with key 'x'`,
	}, failed)
}

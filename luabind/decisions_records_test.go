package luabind

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/executor"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// decisionRun is one Lua role of testdata/decisions run in a world: setup
// prepares the agent, change sets a variable before a tick (the world's
// doing), and the trace keeps the records of the kinds named, as
// "tick kind action-or-goal: reason".
type decisionRun struct {
	file   string
	setup  func(a *engine.Agent)
	change map[int]map[string]expr.Value // tick -> variable -> value
	ticks  int
	dt     float64
	kinds  []record.EventKind
}

func (r decisionRun) run(t *testing.T) (*engine.Agent, []string, []record.Event) {
	t.Helper()
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(r.file)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("npc", d)
	w.Add(a)
	if r.setup != nil {
		r.setup(a)
	}
	keep := map[record.EventKind]bool{}
	for _, k := range r.kinds {
		keep[k] = true
	}
	var lines []string
	var all []record.Event
	w.OnEvent = func(e record.Event) {
		all = append(all, e)
		if !keep[e.Kind] {
			return
		}
		what := e.Action
		if what == "" {
			what = e.Goal
		}
		line := fmt.Sprintf("%d %s %s", e.Tick, e.Kind, what)
		if e.Reason != "" {
			line += ": " + e.Reason
		}
		lines = append(lines, line)
	}
	dt := r.dt
	if dt == 0 {
		dt = 0.1
	}
	for i := 1; i <= r.ticks; i++ {
		for name, v := range r.change[i] {
			require.True(t, a.Set(name, v), name)
		}
		w.Tick(dt)
	}
	return a, lines, all
}

// TestDecisionRecordsFromLua runs, from Lua roles, each decision rule that
// an agent's run shows: the records, their ticks and reasons.
func TestDecisionRecordsFromLua(t *testing.T) {
	plan, pfail, start, finish, fail := record.EventPlan, record.EventPlanFailed, record.EventStart, record.EventFinish, record.EventFail
	interrupt, replan, pick, idle := record.EventInterrupt, record.EventReplan, record.EventPick, record.EventIdle
	tests := []struct {
		name, reason string
		run          decisionRun
		want         []string
		check        func(t *testing.T, a *engine.Agent, all []record.Event)
	}{
		{name: "1 restricted actions are planned around", reason: "Rob (authority crime) and Beg (restricted) are left out; Work, cost 5, runs at once",
			run: decisionRun{file: "secured.lua", ticks: 3, kinds: []record.EventKind{plan, start, finish, pfail, fail}},
			want: []string{`1 plan money: left out: Rob (action "Rob" needs authority "crime", and none is granted); Beg (action "Beg" is restricted)`,
				"1 start Work", "1 finish Work"}},
		{name: "1 with the authority", reason: "granted crime, the agent plans the cheaper Rob; Beg stays out",
			run: decisionRun{file: "secured.lua", ticks: 3, kinds: []record.EventKind{plan, start, finish, pfail, fail},
				setup: func(a *engine.Agent) { a.Authorities = []string{"crime"} }},
			want: []string{`1 plan money: left out: Beg (action "Beg" is restricted)`, "1 start Rob", "1 finish Rob"}},
		{name: "2 the world achieves the goal", reason: "inside becomes true at tick 3 while FetchKey waits: interrupted at once, on_interrupt runs",
			run: decisionRun{file: "door.lua", ticks: 8, kinds: []record.EventKind{plan, start, finish, interrupt, replan, idle},
				change: map[int]map[string]expr.Value{3: {"inside": expr.BoolValue(true)}}},
			want: []string{"1 plan in", "1 start FetchKey", "3 interrupt FetchKey: goal in already holds: the world achieved it", "3 idle "},
			check: func(t *testing.T, a *engine.Agent, _ []record.Event) {
				assert.Equal(t, expr.NumberValue(1), a.Get("interrupted"), "on_interrupt ran once")
			}},
		{name: "2 the new plan begins with the running action", reason: "the front closes at tick 3: FetchKey goes on without a restart, then UseBack",
			run: decisionRun{file: "door.lua", ticks: 8, kinds: []record.EventKind{plan, start, finish, interrupt, replan, idle},
				change: map[int]map[string]expr.Value{3: {"front_open": expr.BoolValue(false)}}},
			want: []string{"1 plan in", "1 start FetchKey",
				`3 replan FetchKey: step UseFront of the plan can no longer run (precondition "has_key && front_open"); the new plan begins with the running action, which goes on`,
				"5 finish FetchKey", "6 start UseBack", "6 finish UseBack", "7 idle "},
			check: func(t *testing.T, a *engine.Agent, _ []record.Event) {
				assert.Equal(t, expr.NumberValue(0), a.Get("interrupted"), "FetchKey was not restarted")
			}},
		{name: "3 backed off, not cyclic or too deep", reason: "Work fails at tick 1; until its 1 s back-off ends the reason is BACKED_OFF with the time left, never CYCLIC_PRECONDITION (Invest) or MAX_DEPTH_EXCEEDED (Save x20, Buy)",
			run: decisionRun{file: "backoff.lua", ticks: 12, kinds: []record.EventKind{plan, start, finish, pfail, fail}},
			want: []string{"1 plan money", "1 start Work", "1 fail Work: " + filepath.Join("testdata", "decisions", "backoff.lua") + ":13: the tool broke",
				`2 plan-failed money: BACKED_OFF: a plan exists only through action "Work", which is backed off after a failure (0.9 s left)`,
				"11 plan money", "11 start Work", "11 finish Work"}},
		{name: "7 planning off", reason: "MOONMIND_GOAP=off: the goap role picks Eat once while eat is unmet, then does not pick again",
			run: decisionRun{file: "eat_off.lua", ticks: 6, kinds: []record.EventKind{plan, pick, start, finish},
				setup: func(a *engine.Agent) { a.SetPlannerHandle(nil) }},
			want: []string{"1 pick Eat", "1 start Eat", "1 finish Eat"}},
		{name: "8 exact time and shortest costs", reason: "the plan costs 0.1 + 0.2 = 0.3; ToDoor waits 0.3 s, Open 0.2 s, on 0.1 s ticks",
			run:  decisionRun{file: "readable.lua", ticks: 8, kinds: []record.EventKind{plan, start, finish, idle}},
			want: []string{"1 plan leave", "1 start ToDoor", "4 finish ToDoor", "5 start Open", "7 finish Open", "8 idle "},
			check: func(t *testing.T, _ *engine.Agent, all []record.Event) {
				require.Equal(t, record.EventPlan, all[0].Kind)
				assert.Contains(t, all[0].String(), "plan=[ToDoor, Open] cost=0.3", "not 0.30000000000000004")
				var times []float64
				for _, e := range all {
					if e.Kind == record.EventFinish {
						times = append(times, e.Time)
					}
				}
				assert.Equal(t, []float64{0.3, 0.6}, times, "records at exactly 0.3 s and 0.6 s")
			}},
		{name: "8 a Lua intention's number in shortest form", reason: "the intention waits 0.1 + 0.1 + 0.1 s and returns it: its record says 0.3",
			run:  decisionRun{file: "measure.lua", ticks: 6, kinds: []record.EventKind{record.EventIntentionDone}},
			want: []string{"4 intention-done pace it out"},
			check: func(t *testing.T, a *engine.Agent, all []record.Event) {
				n, _ := a.Get("length").AsNumber()
				require.NotEqual(t, 0.3, n, "the sum really is 0.30000000000000004")
				for _, e := range all {
					if e.Kind == record.EventIntentionDone {
						assert.Equal(t, "0.3", e.Value)
					}
				}
			}},
		{name: "8 pick records carry their considerations", reason: "the pick of eat names hungry and worth with input, output and weight",
			run:  decisionRun{file: "grazer.lua", ticks: 2, kinds: []record.EventKind{pick, start}},
			want: []string{"1 pick eat", "1 start eat"},
			check: func(t *testing.T, _ *engine.Agent, all []record.Event) {
				require.Equal(t, record.EventPick, all[0].Kind)
				assert.InDelta(t, (0.8+2*0.7)/3, all[0].Score, 1e-12, "the weighted average of 0.8 (hunger 80 of 100) and 0.7 ((50 - 10 + 100) / 200) weighing 2")
				assert.Equal(t, []record.ConsiderationScore{
					{Name: "hungry", Input: 80, Output: 0.8, Weight: 1},
					{Name: "worth", Input: 40, Output: 0.7, Weight: 2}, // input: value - cost
				}, all[0].Considerations)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, lines, all := tc.run.run(t)
			assert.Equal(t, tc.want, lines, tc.reason)
			if tc.check != nil {
				tc.check(t, a, all)
			}
		})
	}
}

// TestDecisionPlanningFromLua checks, on Lua roles, the decision rules
// that planning alone shows: per-goal reasons naming the blocking action,
// one rule of candidacy, and the seed's utility formulas.
func TestDecisionPlanningFromLua(t *testing.T) {
	load := func(t *testing.T, file string) *engine.Domain {
		t.Helper()
		rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
		t.Cleanup(rt.Close)
		d, err := rt.LoadDomain(file)
		require.NoError(t, err)
		return d
	}
	tests := []struct {
		name, reason string
		file         string
		check        func(t *testing.T, d *engine.Domain)
	}{
		{name: "1 a handed-in plan with a restricted action is refused", reason: "ExecutePlan and a Planner without the policy under Think refuse Rob before any step runs",
			file: "secured.lua", check: func(t *testing.T, d *engine.Domain) {
				a := engine.NewAgent("npc", d)
				_, err := a.ExecutePlan([]string{"Rob"})
				require.ErrorIs(t, err, engine.ErrRestricted)
				assert.Contains(t, err.Error(), `"crime"`, "the message names the missing authority")
				assert.Equal(t, expr.BoolValue(false), a.Get("rich"), "no step ran")
				bare := executor.New(a)
				bare.Planner = engine.NewPlanner(d)
				ran, err := bare.Think()
				require.ErrorIs(t, err, engine.ErrRestricted, "a bare Planner plans Rob (cost 1); Think refuses it")
				assert.Empty(t, ran)
				assert.Equal(t, expr.BoolValue(false), a.Get("rich"))
				ran, err = executor.New(a).Think()
				require.NoError(t, err, "with the agent's policy the executor plans Work")
				assert.Equal(t, []string{"Work"}, ran)
				assert.Equal(t, expr.BoolValue(true), a.Get("rich"))
			}},
		{name: "3 per goal, and the blocking action named", reason: "armed has no plan (no crate in reach); rest still gets sit",
			file: "armed.lua", check: func(t *testing.T, d *engine.Domain) {
				out := engine.NewPlanner(d).PlanEach(d.NewState())
				require.Len(t, out, 2)
				assert.Equal(t, "armed", out[0].Goal.Name)
				require.NotNil(t, out[0].Err)
				assert.Equal(t, engine.Unreachable, out[0].Err.Reason)
				assert.Equal(t, "fetchMagazine", out[0].Err.Action, "the chain stops at fetchMagazine's at_crate, not at reload")
				assert.Equal(t, `the precondition of "fetchMagazine" never holds, so "reload" ("magazines > 0") can never run`, out[0].Err.Detail)
				assert.Equal(t, "rest", out[1].Goal.Name)
				assert.Nil(t, out[1].Err)
				require.Len(t, out[1].Steps, 1)
				assert.Equal(t, "sit", out[1].Steps[0].Name)
			}},
		{name: "4 fulfills is one rule", reason: "Pray fulfills warm without touching fire: Goal.Candidate, PlanForGoal and ActionsForGoal agree, and the plan is Pray",
			file: "pray.lua", check: func(t *testing.T, d *engine.Domain) {
				warm := d.Goal("warm")
				require.NotNil(t, warm)
				var cands []string
				for _, act := range d.Actions {
					if warm.Candidate(act) {
						cands = append(cands, act.Name)
					}
				}
				assert.Equal(t, []string{"Light", "Pray"}, cands, "Goal.Candidate, the rule")
				handle, err := engine.NewAgent("p", d).PlanForGoal("warm")
				require.NoError(t, err)
				var byHandle []string
				for _, act := range handle {
					byHandle = append(byHandle, act.Name)
				}
				assert.Equal(t, cands, byHandle, "PlanForGoal uses the same rule")
				st := d.NewState()
				st.Set(d.Schema, "wood", expr.NumberValue(2))
				var scored []string
				for _, sa := range engine.NewUtilityPlanner(d).ActionsForGoal(warm, st) {
					scored = append(scored, sa.Action.Name)
				}
				assert.ElementsMatch(t, cands, scored, "ActionsForGoal agrees on the applicable ones")
				p, err := engine.NewPlanner(d).Plan(d.NewState())
				require.NoError(t, err)
				assert.Equal(t, []string{"Pray"}, p.Names())
				assert.Equal(t, 1.0, p.Cost)
			}},
		{name: "6 the seed's utility formulas", reason: "utility() 2 at value 300; cost() 1.5 at cost -50; value() -0.5 at value -50: unclamped, as the seed writes them",
			file: "banquet.lua", check: func(t *testing.T, d *engine.Domain) {
				got := map[string]float64{}
				var order []string
				for _, sa := range engine.NewUtilityPlanner(d).ActionsByUtility(d.NewState()) {
					got[sa.Action.Name] = sa.Score
					order = append(order, sa.Action.Name)
				}
				assert.Equal(t, map[string]float64{"feast": 2, "bribe": 1.5, "snack": 0.8, "sulk": -0.5}, got)
				assert.Equal(t, []string{"feast", "bribe", "snack", "sulk"}, order, "best first")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, load(t, tc.file)) })
	}
}

package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bench guard (run by .ci/bench-guard; see README.md, "Bench guard").
// Each guarded computation is timed against a reference computation in the
// same process, in alternating samples (guarded, reference, guarded, ...),
// on the process CPU clock, with the collector off during a sample and a
// collection (untimed) before each. The guard compares the ratio of the two
// medians (ns per op) with a ceiling, and the guarded computation's
// allocations per op with an exact ceiling. Load on the machine slows both
// sides alike, so the ratio stays put; a change that makes the guarded
// code slower moves it.
//
// The tests here run only when MOONMIND_BENCH_GUARD is set, so a plain
// go test ./... never times anything:
//
//	MOONMIND_BENCH_GUARD=1 go test -run '^TestBenchGuard$' -count 1 -v ./bench/
//
// MOONMIND_BENCH_GUARD_SLOWDOWN=3 makes every guarded computation 3 times
// slower in the guard proper (which then fails): each op runs it 3 times;
// MOONMIND_BENCH_GUARD_ONLY
// is a regular expression that picks the items by name.

const (
	guardRounds    = 21        // rounds of samples per attempt, at most
	guardMinRounds = 7         // rounds per attempt, at least
	guardSampleNs  = 1000000   // CPU time one sample aims at, in nanoseconds
	guardAttemptNs = 400000000 // CPU time an attempt aims at, at most, in nanoseconds
	guardAttempts  = 2         // an item fails only when every attempt is over its ceiling
	guardDisturbed = 1.8       // an attempt whose reference took over this many times the fastest attempt's is left out
)

// guardItem is one guarded figure: a computation, the reference it is
// divided by, and its ceilings.
type guardItem struct {
	name string
	ref  string // what the reference is, for the report
	// maxRatio is the ceiling of median(guarded) / median(reference).
	maxRatio float64
	// maxAllocs is the ceiling of the guarded computation's allocations
	// per op, the mean over allocRuns ops (testing.AllocsPerRun, which
	// floors it to a whole number).
	maxAllocs float64
	allocRuns int // 0 means 100
	// stateful marks a guarded computation that moves on with every op
	// (the world's ticks). Its samples are one op each, not calibrated, so
	// every run times the same ticks, and it gets one attempt (a second
	// would time later ones). Its slowed-down op runs the next ticks, in
	// the same rounds, so both see the same phases of the game.
	stateful bool
	// noCollect keeps the collector running as usual during the samples
	// (see measureAll), for an item whose live heap makes a collection
	// before every sample costly and whose reference makes no garbage.
	noCollect bool
	// setup builds both computations and a cleanup; it runs once per
	// guard run.
	setup func(tb testing.TB) (guarded, reference func(), cleanup func())
}

// guardItems are the guarded figures. Each ceiling is about the geometric
// middle between the highest ratio seen in normal runs and the lowest seen
// with the guarded computation 3x slower, on the shared 2-core machine at
// load 10 to 25 and with four busy loops (see README.md), so noise has
// room both ways.
func guardItems() []guardItem {
	var items []guardItem
	planCeil := map[string]float64{"soldier": 0.060, "deep": 0.013, "maze": 0.052, "synthetic100": 0.0012}
	for _, c := range PlannerCases() {
		items = append(items, plannerItem("Planner/"+c.Name, c, c, planCeil[c.Name]))
	}
	// The maze in its other encoding, one boolean fact per location.
	items = append(items, plannerItem("PlannerMazeFacts", MazeFacts(), MazeFacts(), 0.036))
	// The baseline takes 0.55 s on 1,000 actions at depth 6 and 0.1 s on
	// 100 actions at depth 10, too long for a sample: the scaling items are
	// divided by the baseline on 100 actions at depth 3 (about 2 ms). The
	// ceilings of the synthetic and fact-maze items were retuned after the
	// relaxed estimate (issue 14's fourth session, see README.md).
	items = append(items,
		plannerItem("PlannerScale/actions=1000/depth=6", Synthetic(1000, 6), Synthetic(100, 3), 0.27),
		plannerItem("PlannerScale/actions=100/depth=10", Synthetic(100, 10), Synthetic(100, 3), 0.045),
		plannerItem("PlannerScale/actions=1000/depth=10", Synthetic(1000, 10), Synthetic(100, 3), 0.53))
	items = append(items,
		guardItem{name: "Condition5", ref: "the baseline's interpreter on a map state", maxRatio: 0.44, maxAllocs: 0,
			setup: setupCondition},
		guardItem{name: "Effect3", ref: "the baseline's interpreter, map copy and effects", maxRatio: 0.155, maxAllocs: 0,
			setup: setupEffect},
		guardItem{name: "UtilityGo/average", ref: "a plain loop: map-based preconditions, the same 4 functions, weighted mean",
			maxRatio: 1.55, maxAllocs: 0, setup: setupUtilityGo(utilityActions)},
		guardItem{name: "UtilityScale/actions=100/consider=go", ref: "the same plain loop over the 100 actions",
			maxRatio: 1.6, maxAllocs: 0, setup: setupUtilityGo(100)},
		guardItem{name: "UtilityLua", ref: "one resume of a Lua body running 1,000 loop iterations (bench/testdata/lua_loop.lua)",
			maxRatio: 0.157, maxAllocs: 2, setup: setupUtilityLua},
		guardItem{name: "LuaAttackResume", ref: "one resume of a Lua body running 1,000 loop iterations (bench/testdata/lua_loop.lua)",
			// No allocation per resume: a started body resumes through
			// gopher-lua's coroutine.resume into the runtime's spare
			// result slice (luabind/resume.go; gopher-lua's Resume made a
			// new one, and the ceiling was 2 until issue 14's sixth
			// session), npc:shoot's first call runs in the runtime's
			// spare handle with its spare argument room. The
			// ceiling was 0.075 until the Lua side's fourth session (the
			// mirrored npc.state, goWait, the host methods' colon check
			// in Go) moved the ratio: normal 0.035-0.046 before,
			// 0.028-0.032 after; at 3x 0.092-0.136 before, 0.080-0.101
			// after (bench/README.md, "Issue 14, fourth session").
			maxRatio: 0.058, maxAllocs: 0, setup: setupLuaAttack},
		guardItem{name: "BDIDispatch/none-relevant", ref: "a plain queue and a linear scan of the 20 plans' (kind, belief) for the event",
			maxRatio: 0.64, maxAllocs: 0, setup: setupBDIDispatch},
		guardItem{name: "LLMWaitingTick", ref: "a plain loop polling 100 channels (select with default) and writing a map state each",
			maxRatio: 2.2, maxAllocs: 0, setup: setupLLMWaiting},
		guardItem{name: "WorldTick/soldiers=10000/workers=2", ref: "a plain tick: the soldier's 5 conditions on 10,000 map states, 2 goroutines",
			// 0.3 allocation per agent-tick (1.0 until issue 14's sixth
			// session): the op the guard counts (the second and third
			// after setup) made 5,061, and over 60 ops from setup 5,338
			// on average and 28,399 at most (while the first bursts of
			// body starts still make their coroutines; 14,394 and 40,066
			// before the session: 10,020 per 6 ticks on average and
			// 45,035 at most in a whole cycle before that, 57,000 and
			// 210,000 before issue 14's Lua rounds).
			// The op is 12 ticks, the 3x op burns twice its own CPU time
			// (slowedByBurning) and all 21 rounds run, so the samples cover
			// most of a cycle: ratios 1.87-1.99 at load about 1, at 3x
			// 5.49-5.91 (bench/README.md, "Bench guard"). The engine
			// side's fourth session (11 lines of an agent per tick,
			// sleeping bodies not resumed) moved them: 1.29-1.79 at load
			// 1.5-6, at 3x 3.89-5.43 (8 runs, one in bash .ci/run); the
			// ceiling was 3.2, then 2.6, the geometric middle of 1.79 and
			// 3.89. In issue 14's sixth session the guarded op's CPU time
			// stayed at 36-45 ms but the reference's median read 48-62 ms
			// in some runs instead of 32-39 (the collector runs during
			// these samples, and the host was busy): ratios 0.80-1.21, at
			// 3x 2.37-3.55 in 9 runs (the old code 1.06-1.16 and
			// 3.36-3.46 in 3), and 2.6 failed the 3x self-test in 3 of
			// them. The ceiling is now 2.2, under the lowest 3x figure and
			// over the 1.79 seen under load.
			maxRatio: 2.2, maxAllocs: 12 * 3000, allocRuns: 2, stateful: true, noCollect: true, setup: setupWorldTick},
	)
	return items
}

// plannerItem guards planning c from its initial state with a warm
// Planner, divided by the baseline A* (BaselinePlan) on refCase.
func plannerItem(name string, c, refCase PlannerCase, ceil float64) guardItem {
	ref := "BaselinePlan (map-based textbook A*)"
	if refCase.Name != c.Name {
		ref = "BaselinePlan on " + refCase.Name
	}
	return guardItem{name: name, ref: ref, maxRatio: ceil, maxAllocs: 0,
		setup: func(tb testing.TB) (func(), func(), func()) {
			pl, st := compileCase(tb, c)
			_, err := pl.Plan(st)
			require.NoError(tb, err, name)
			bd, err := NewBaselineDomain(refCase)
			require.NoError(tb, err)
			start := bd.Start()
			return func() {
					if _, err := pl.Plan(st); err != nil {
						panic(err)
					}
				}, func() {
					if _, _, ok := bd.BaselinePlan(start); !ok {
						panic("bench: the baseline found no plan")
					}
				}, func() {}
		},
	}
}

func setupCondition(tb testing.TB) (func(), func(), func()) {
	sc, st := exprSchema(tb)
	c, err := engine.CompileCondition(condition5, sc)
	require.NoError(tb, err)
	vars, ms := mapOf(sc, st)
	mc, err := EvalMapCond(condition5, vars)
	require.NoError(tb, err)
	require.True(tb, c.Eval(st))
	require.True(tb, mc(ms))
	var sink bool
	return func() { sink = c.Eval(st) }, func() { sink = mc(ms) }, func() { _ = sink }
}

func setupEffect(tb testing.TB) (func(), func(), func()) {
	sc, st := exprSchema(tb)
	e, err := engine.CompileEffect(effect3, sc)
	require.NoError(tb, err)
	dst := st.Clone()
	vars, ms := mapOf(sc, st)
	me, err := ApplyMapEffects(effect3, vars)
	require.NoError(tb, err)
	mdst := MapState{}
	return func() {
			copy(dst, st)
			_ = e.Apply(dst, st)
		}, func() {
			for k, v := range ms {
				mdst[k] = v
			}
			me(ms, mdst)
		}, func() {}
}

// mapOf returns the variables of sc and st as a MapState.
func mapOf(sc *engine.Schema, st engine.State) ([]string, MapState) {
	ms := MapState{}
	var vars []string
	for slot := range sc.Len() {
		name := sc.Name(slot)
		vars = append(vars, name)
		ms[name] = st[slot].Interface()
	}
	return vars, ms
}

// setupUtilityGo guards SelectBestAction (average mode) over n actions
// (utilityRoleN) and the 4 Go considerations against a plain loop doing
// the same on a map state.
func setupUtilityGo(n int) func(tb testing.TB) (func(), func(), func()) {
	return func(tb testing.TB) (func(), func(), func()) { return setupUtilityGoN(tb, n) }
}

func setupUtilityGoN(tb testing.TB, n int) (func(), func(), func()) {
	role := utilityRoleN(n)
	role.UtilityMode = engine.UtilityAverage
	d, err := engine.Compile(role)
	require.NoError(tb, err)
	u := engine.NewUtilityPlanner(d)
	u.Considerations = goConsiderations(d)
	st := d.NewState()
	require.Len(tb, u.ActionsByUtility(st), n, "every action must apply")
	cs := u.Considerations
	vars, ms := mapOf(u.Domain.Schema, st)
	pres := make([]func(MapState) bool, len(role.Actions))
	for i, a := range role.Actions {
		if a.Pre != "" {
			var err error
			pres[i], err = EvalMapCond(a.Pre, vars)
			require.NoError(tb, err)
		}
	}
	actions := u.Domain.Actions
	var pick *engine.Action
	ref := func() {
		best := math.Inf(-1)
		pick = nil
		for i, a := range actions {
			if pres[i] != nil && !pres[i](ms) {
				continue
			}
			var sum, wsum float64
			for _, c := range cs {
				sum += c.Weight * c.Score(a, st)
				wsum += c.Weight
			}
			if s := sum / wsum; s > best {
				best, pick = s, a
			}
		}
	}
	ref()
	require.NotNil(tb, pick)
	return func() {
		if u.SelectBestAction(st) == nil {
			panic("bench: no pick")
		}
	}, ref, func() {}
}

// luaUtility is BenchmarkUtilityLua's planner: 20 actions, 4 Lua
// considerations; step changes the state before each choice.
func luaUtility(tb testing.TB) (u *engine.UtilityPlanner, step func(), done func()) {
	rt := luabind.NewRuntime(luabind.Options{})
	d, err := rt.LoadDomain(utilityLua(tb))
	require.NoError(tb, err)
	u = engine.NewUtilityPlanner(d)
	st := d.NewState()
	require.Len(tb, u.ActionsByUtility(st), utilityActions, "every action must apply")
	// The state changes before every choice, as it does between ticks, so
	// no result is reused from the choice before.
	health, ok := d.Schema.Lookup("health")
	require.True(tb, ok)
	i := 0
	step = func() {
		i++
		st[health] = engine.NumberValue(float64(60 + i%10))
		if u.SelectBestAction(st) == nil {
			panic("bench: no pick")
		}
	}
	return u, step, rt.Close
}

func setupUtilityLua(tb testing.TB) (func(), func(), func()) {
	u, step, done := luaUtility(tb)
	task, _, doneLoop := luaTask(tb, "lua_loop.lua", luabind.Options{})
	return step, func() {
			if st, err := task.Resume(1.0 / 60); st != engine.Running {
				panic(fmt.Sprint("bench: the Lua loop stopped: ", st, err))
			}
		}, func() {
			if n, err := u.LastError(); err != nil {
				tb.Errorf("%d consideration errors, the last: %v", n, err)
			}
			done()
			doneLoop()
		}
}

// setupLuaAttack guards one resume of the soldier's attack loop, taking
// 10,000 bodies in turn (BenchmarkLuaAttackResume), against a resume of
// the plain Lua loop.
func setupLuaAttack(tb testing.TB) (func(), func(), func()) {
	const n = 10000
	agents, tasks, done := attackBodies(tb, n)
	task, _, doneLoop := luaTask(tb, "lua_loop.lua", luabind.Options{})
	i := 0
	return func() {
			resumeAttack(tb, agents, tasks, i)
			if i++; i == n {
				i = 0
			}
		}, func() {
			if st, err := task.Resume(1.0 / 60); st != engine.Running {
				panic(fmt.Sprint("bench: the Lua loop stopped: ", st, err))
			}
		}, func() {
			done()
			doneLoop()
		}
}

func setupWorldTick(tb testing.TB) (func(), func(), func()) {
	const n, workers = 10000, 2
	w, done := staggeredSoldierWorld(tb, n, workers)
	rt := luabind.NewRuntime(luabind.Options{Host: soldierHost()})
	role, err := rt.LoadRole(filepath.Join("..", "scripts", "soldier.lua"))
	rt.Close()
	require.NoError(tb, err)
	var vars []string
	start := MapState{}
	for _, v := range role.State {
		vars = append(vars, v.Name)
		start[v.Name] = v.Value.Interface()
	}
	var conds []func(MapState) bool
	for _, g := range role.Goals {
		c, err := EvalMapCond(g.Condition, vars)
		require.NoError(tb, err)
		conds = append(conds, c)
	}
	for _, a := range role.Actions {
		if a.Pre != "" {
			c, err := EvalMapCond(a.Pre, vars)
			require.NoError(tb, err)
			conds = append(conds, c)
		}
	}
	require.Len(tb, conds, 5, "the soldier's goal and four preconditions")
	states := make([]MapState, n)
	for i := range states {
		states[i] = MapState{}
		for k, v := range start {
			states[i][k] = v
		}
		states[i]["enemy_visible"] = true
		states[i]["enemy_health"] = 1e12
	}
	holds := make([]int, workers)
	part := func(k int) {
		for i := k; i < n; i += workers {
			s := states[i]
			for _, c := range conds {
				if c(s) {
					holds[k]++
				}
			}
			s["enemy_distance"] = s["enemy_distance"].(float64) + 1
		}
	}
	ref := func() {
		var wg sync.WaitGroup
		for k := 1; k < workers; k++ {
			wg.Go(func() { part(k) })
		}
		part(0)
		wg.Wait()
	}
	// One op is 12 ticks on both sides: 0.2 s of game, the attack body's
	// wait (so every op holds each group's resumes: the 6 groups start 13
	// ticks apart, on 6 different ticks of every 12) and two re-scoring
	// periods. An op of 6 ticks held all the resumes in every other op,
	// and the guard's 1x and 3x samples, taken in turn, then timed
	// different work.
	return func() {
			for range 12 {
				w.Tick(1.0 / 60)
			}
		}, func() {
			for range 12 {
				ref()
			}
		}, done
}

func setupBDIDispatch(tb testing.TB) (func(), func(), func()) {
	_, dispatch := bdiDispatch(bdiDomain(tb, false, true))
	type plan struct{ kind, belief string }
	plans := make([]plan, 20)
	for i := range plans {
		plans[i] = plan{"belief-added", "v" + strconv.Itoa(i+1)}
	}
	type event struct {
		kind, name string
		old, new   float64
	}
	queue := make([]event, 0, 4)
	hits, n := 0, 0.0
	ref := func() {
		n++
		queue = append(queue, event{"belief-added", "x", n - 1, n})
		for len(queue) > 0 {
			e := queue[0]
			queue = queue[1:]
			for _, p := range plans {
				if p.kind == e.kind && p.belief == e.name {
					hits++
				}
			}
		}
		queue = queue[:0]
	}
	return dispatch, ref, func() {
		if hits != 0 {
			tb.Errorf("the reference found %d relevant plans", hits)
		}
	}
}

func setupLLMWaiting(tb testing.TB) (func(), func(), func()) {
	w, done := llmWaitingWorld(tb)
	const agents = 100
	chans := make([]chan []string, agents)
	states := make([]MapState, agents)
	for i := range chans {
		chans[i] = make(chan []string, 1)
		states[i] = MapState{"done": false, "waited": 0.0}
	}
	ref := func() {
		for i, c := range chans {
			select {
			case plan := <-c:
				states[i]["done"] = len(plan) > 0
			default:
				states[i]["waited"] = states[i]["waited"].(float64) + 1.0/60
			}
		}
	}
	return func() { w.Tick(1.0 / 60) }, ref, func() {
		for _, a := range w.Agents {
			if v, _ := a.Get("done").AsBool(); v {
				tb.Error("an agent got an answer from a server that never answers")
			}
		}
		done()
	}
}

// staggeredSoldierWorld is soldierWorld with the soldiers out of step:
// they join the world in 6 groups 13 ticks apart (then 20 ticks of warm-up
// for all). Soldiers that start in step re-score together every 0.1 s (6
// ticks), which makes one tick in six many times dearer than the others;
// 13 ticks apart, each group re-scores on its own tick of the six.
func staggeredSoldierWorld(tb testing.TB, n, workers int) (*engine.World, func()) {
	return buildSoldierWorld(tb, n, workers, 6, 13, 20)
}

// guardResult is the outcome of one item.
type guardResult struct {
	item             guardItem
	slowdown         int
	ratio            float64 // the lowest of the attempts' ratios
	guardedNs, refNs float64 // medians of the attempt with that ratio
	ratios           []float64
	rounds           int // rounds of the attempt with that ratio
	allocs           float64
	failures         []string
	notes            string
	disturbed        []float64 // ratios of attempts left out (see runGuard)
}

// runGuard sets up each item once and times it at every slowdown at once
// (see measureAll: the guarded computation made that many times slower),
// in guardAttempts attempts, one for a stateful item; an attempt whose
// reference ran over guardDisturbed times slower than the fastest
// attempt's is left out. For each slowdown the rule is the guard's: an
// attempt within the ceiling passes; a slowdown fails only when every
// attempt counted is over. It returns, per slowdown, one result per item.
func runGuard(t *testing.T, items []guardItem, slowdowns ...int) [][]guardResult {
	out := make([][]guardResult, len(slowdowns))
	for _, it := range items {
		guarded, ref, cleanup := it.setup(t)
		runs := it.allocRuns
		if runs == 0 {
			runs = 100
		}
		allocs := testing.AllocsPerRun(runs, guarded)
		ops := make([]func(), len(slowdowns))
		rs := make([]guardResult, len(slowdowns))
		for k, sd := range slowdowns {
			if it.stateful {
				ops[k] = slowedByBurning(guarded, sd)
			} else {
				ops[k] = slowed(guarded, sd)
			}
			rs[k] = guardResult{item: it, slowdown: sd, ratio: math.Inf(1), allocs: allocs}
		}
		attempts := guardAttempts
		if it.stateful {
			attempts = 1 // a second attempt would time later ticks
		}
		// Every attempt runs (no early stop), so that an attempt whose
		// reference ran much slower than in the other is seen: something
		// else in the process or on the core (a burst of load on the
		// sibling hyperthread) slowed it, and a slowed reference makes
		// every ratio of that attempt read low, which would let a slower
		// build pass. Such an attempt (reference over guardDisturbed times
		// the fastest attempt's) is left out; the fastest always counts.
		type attempt struct {
			meds   []float64
			refNs  float64
			rounds int
		}
		var tries []attempt
		minRef := math.Inf(1)
		for range attempts {
			meds, refNs, rounds := measureAll(ops, ref, !it.noCollect, it.stateful)
			tries = append(tries, attempt{meds, refNs, rounds})
			minRef = min(minRef, refNs)
		}
		for _, a := range tries {
			disturbed := a.refNs > guardDisturbed*minRef
			for k := range rs {
				r := &rs[k]
				ratio := a.meds[k] / a.refNs
				if disturbed {
					r.disturbed = append(r.disturbed, ratio)
					continue
				}
				if r.ratio <= it.maxRatio {
					continue // passed at an earlier attempt
				}
				r.ratios = append(r.ratios, ratio)
				if ratio < r.ratio {
					r.ratio, r.guardedNs, r.refNs, r.rounds = ratio, a.meds[k], a.refNs, a.rounds
				}
			}
		}
		cleanup()
		for k := range rs {
			r := &rs[k]
			if r.ratio > it.maxRatio {
				r.failures = append(r.failures, fmt.Sprintf("ratio %.4g over its ceiling %.4g in every attempt %v", r.ratio, it.maxRatio, fmtRatios(r.ratios)))
			} else if len(r.ratios) > 1 {
				r.notes = "passed at attempt " + strconv.Itoa(len(r.ratios)) + " " + fmtRatios(r.ratios)
			}
			if len(r.disturbed) > 0 {
				r.notes = strings.TrimSpace(r.notes + " (left out, reference slowed: " + fmtRatios(r.disturbed) + ")")
			}
			if r.allocs > it.maxAllocs {
				r.failures = append(r.failures, fmt.Sprintf("%g allocs/op over its ceiling %g", r.allocs, it.maxAllocs))
			}
			out[k] = append(out[k], *r)
		}
		runtime.GC()
	}
	return out
}

// slowed returns guarded made slowdown times slower: run slowdown times
// per op.
func slowed(guarded func(), slowdown int) func() {
	if slowdown <= 1 {
		return guarded
	}
	return func() {
		for range slowdown {
			guarded()
		}
	}
}

// slowedByBurning is slowed for a stateful computation (the world): each
// call runs it once, taking d of the process's CPU time (cpuNow, the
// guard's clock), then spins on its own locked thread for (slowdown-1)·d
// of that thread's CPU time, so the op costs at least slowdown times as
// much while the world moves on at its normal pace. Running a stateful op
// several times instead would time later ticks, which cost differently
// (after issue 14's coroutine reuse, less: the 3x world once read only
// 1.98 against its ceiling of 1.9); spinning on the process clock would
// count the collector's workers running beside the spin.
func slowedByBurning(guarded func(), slowdown int) func() {
	if slowdown <= 1 {
		return guarded
	}
	return func() {
		start := cpuNow()
		guarded()
		burn := int64(slowdown-1) * (cpuNow() - start)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for t0 := threadCPUNow(); threadCPUNow()-t0 < burn; {
		}
	}
}

func fmtRatios(rs []float64) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = strconv.FormatFloat(r, 'g', 4, 64)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// measureAll returns the median CPU ns per op of each of ops and of ref,
// and the number of rounds: each round takes one sample of every op, then
// one of ref, so every op is timed beside the same reference samples in
// the same moments. A sample runs a calibrated number of ops (about
// guardSampleNs of CPU, at least one; one op of a stateful computation).
// There are guardRounds rounds, fewer (down to guardMinRounds, odd) when a
// round would take more than guardAttemptNs / guardRounds of CPU, except
// for a stateful computation, which keeps them all. With
// collect, the collector is off during the samples and collects (untimed)
// before each, so neither side pays for the other's garbage and a sample's
// time does not depend on where a collector cycle happens to fall;
// without, the collector runs as usual.
func measureAll(ops []func(), ref func(), collect, stateful bool) (meds []float64, refNs float64, rounds int) {
	ns := make([]int, len(ops))
	var perRound float64
	for k, op := range ops {
		var perOp float64
		if stateful {
			ns[k], perOp = 1, float64(timeOne(op))
		} else {
			ns[k], perOp = calibrate(op)
		}
		perRound += float64(ns[k]) * perOp
	}
	nr, perRef := calibrate(ref)
	perRound += float64(nr) * perRef
	rounds = guardRounds
	// A stateful item has one attempt and its samples time different ticks,
	// so it keeps every round: a median of 21 samples, not 7, each side.
	if !stateful && perRound*float64(rounds) > guardAttemptNs {
		rounds = max(guardMinRounds, int(guardAttemptNs/perRound)|1)
	}
	if collect {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	samples := make([][]float64, len(ops))
	var rs []float64
	for range rounds {
		for k, op := range ops {
			samples[k] = append(samples[k], sample(op, ns[k], collect))
		}
		rs = append(rs, sample(ref, nr, collect))
	}
	meds = make([]float64, len(ops))
	for k := range ops {
		meds[k] = median(samples[k])
	}
	return meds, median(rs), rounds
}

// sample returns the CPU ns per op of n calls of f, after a collection
// (untimed) when collect is set.
func sample(f func(), n int, collect bool) float64 {
	if collect {
		runtime.GC()
	}
	t0 := cpuNow()
	for range n {
		f()
	}
	return float64(cpuNow()-t0) / float64(n)
}

// calibrate returns how many calls of f take about guardSampleNs of CPU
// (at least one) and the CPU ns of one call.
func calibrate(f func()) (n int, perOp float64) {
	n = 1
	for {
		t0 := cpuNow()
		for range n {
			f()
		}
		el := cpuNow() - t0
		if el >= guardSampleNs/4 || n >= 1<<30 {
			perOp = float64(max(el, 1)) / float64(n)
			return max(1, int(guardSampleNs/perOp)), perOp
		}
		n *= 4
	}
}

// timeOne returns the CPU ns of one call of f.
func timeOne(f func()) int64 {
	t0 := cpuNow()
	f()
	return cpuNow() - t0
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// guardSelection returns the items MOONMIND_BENCH_GUARD_ONLY picks (all
// when unset), or skips t when MOONMIND_BENCH_GUARD is not set.
func guardSelection(t *testing.T) []guardItem {
	if os.Getenv("MOONMIND_BENCH_GUARD") == "" {
		t.Skip("the bench guard runs only with MOONMIND_BENCH_GUARD=1 (see .ci/bench-guard)")
	}
	items := guardItems()
	if only := os.Getenv("MOONMIND_BENCH_GUARD_ONLY"); only != "" {
		re, err := regexp.Compile(only)
		require.NoError(t, err, "MOONMIND_BENCH_GUARD_ONLY")
		items = slices.DeleteFunc(items, func(it guardItem) bool { return !re.MatchString(it.name) })
		require.NotEmpty(t, items, "MOONMIND_BENCH_GUARD_ONLY=%s picks no item", only)
	}
	return items
}

func logResults(t *testing.T, title string, rs []guardResult) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, medians, GOMAXPROCS %d):\n", title, cpuClockKind, runtime.GOMAXPROCS(0))
	fmt.Fprintf(&b, "  %-36s %12s %12s %6s %8s %8s %7s %7s  %s\n", "item", "guarded ns", "ref ns", "rounds", "ratio", "ceiling", "allocs", "ceiling", "status")
	for _, r := range rs {
		status := "ok"
		if r.notes != "" {
			status = "ok, " + r.notes
		}
		if len(r.failures) > 0 {
			status = "FAIL: " + strings.Join(r.failures, "; ")
		}
		fmt.Fprintf(&b, "  %-36s %12.1f %12.1f %6d %8.4f %8.4g %7g %7g  %s\n", r.item.name, r.guardedNs, r.refNs, r.rounds, r.ratio,
			r.item.maxRatio, r.allocs, r.item.maxAllocs, status)
	}
	t.Log(b.String())
}

// TestBenchGuard is the guard and its self-test. The guard: every item
// within its ratio and allocation ceilings (MOONMIND_BENCH_GUARD_SLOWDOWN
// makes the guarded computations that many times slower, to see it fail).
// The self-test, on the same set-up right after: with every guarded
// computation made 3 times slower, every item is over its ratio ceiling,
// so a 3x slower planner (or condition, effect, utility choice or tick)
// cannot pass.
func TestBenchGuard(t *testing.T) {
	items := guardSelection(t)
	slowdown := 1
	if s := os.Getenv("MOONMIND_BENCH_GUARD_SLOWDOWN"); s != "" {
		var err error
		slowdown, err = strconv.Atoi(s)
		require.NoError(t, err, "MOONMIND_BENCH_GUARD_SLOWDOWN")
	}
	rs := runGuard(t, items, slowdown, 3)
	logResults(t, fmt.Sprintf("bench guard, slowdown %dx", slowdown), rs[0])
	logResults(t, "bench guard self-test, slowdown 3x (every ratio must be over its ceiling)", rs[1])
	t.Run("guard", func(t *testing.T) {
		for _, r := range rs[0] {
			assert.Empty(t, r.failures, r.item.name)
		}
	})
	t.Run("selftest3x", func(t *testing.T) {
		for _, r := range rs[1] {
			assert.Greater(t, r.ratio, r.item.maxRatio, "%s: a 3x slowdown must be over the ceiling", r.item.name)
		}
	})
}

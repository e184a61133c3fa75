package luabind

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tickRun ticks one agent of file (testdata/tickbudget) in a world of its
// own for ticks ticks of 0.1 s and returns the agent and its records.
func tickRun(t *testing.T, opts Options, file string, ticks int) (*engine.Agent, []record.Event) {
	t.Helper()
	_, a, events := runRole(t, opts, filepath.Join("testdata", "tickbudget", file), ticks)
	return a, events
}

// runRole is tickRun for a role file at path; it returns the runtime too.
func runRole(t *testing.T, opts Options, path string, ticks int) (*Runtime, *engine.Agent, []record.Event) {
	t.Helper()
	rt := NewRuntime(opts)
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var events []record.Event
	w.OnEvent = func(e record.Event) { events = append(events, e) }
	a := engine.NewAgent("s", d)
	w.Add(a)
	for range ticks {
		w.Tick(0.1)
	}
	return rt, a, events
}

// ofKind returns the records of kind in tick (every tick when tick is 0).
func ofKind(events []record.Event, kind record.EventKind, tick int) []record.Event {
	var out []record.Event
	for _, e := range events {
		if e.Kind == kind && (tick == 0 || e.Tick == tick) {
			out = append(out, e)
		}
	}
	return out
}

// tickBudgetLine matches a tick-budget record's line (Event.String).
var tickBudgetLine = regexp.MustCompile(`^tick\s+\d+\s+t=\s*\S+\s+\S+\s+tick-budget `)

var tickWorkRE = regexp.MustCompile(`\(([a-z_ ]+ \d+(?:, [a-z_ ]+ \d+)*)\)`)

// tickSpentBy reads "where the work went" of a tick-budget record: work
// units by kind of script.
func tickSpentBy(t *testing.T, reason string) map[string]int64 {
	t.Helper()
	m := tickWorkRE.FindStringSubmatch(reason)
	require.NotNil(t, m, reason)
	out := map[string]int64{}
	for _, part := range strings.Split(m[1], ", ") {
		i := strings.LastIndexByte(part, ' ')
		n, err := strconv.ParseInt(part[i+1:], 10, 64)
		require.NoError(t, err)
		out[part[:i]] = n
	}
	return out
}

func TestGuardsOfOneTickShareTheTickBudget(t *testing.T) {
	// Each guard spends about 300,000 units: with a tick budget of
	// 400,000 one guard runs to its end, the second is cut and the other
	// 198 are not run at all.
	_, events := tickRun(t, Options{TickBudget: 400_000}, "guardstorm.lua", 2)
	var ran, refused, cut int
	for _, e := range ofKind(events, record.EventNoPlan, 1) {
		switch {
		case strings.Contains(e.Reason, "every guard refused"):
			ran++
		case strings.Contains(e.Reason, `the guard of plan "heavy" not run: agent "s" spent this tick's budget of 400000 work units`):
			refused++
		case strings.Contains(e.Reason, "guardstorm.lua:12: tick budget exceeded"):
			cut++
		}
	}
	// A guard that ran and refused is one no-plan record per event; a
	// guard's error is one record per tick and guard (the cut, here), and
	// an event whose one relevant guard failed has no other: the events
	// left are those whose guard was not run.
	beliefs := len(ofKind(events, record.EventBeliefAdded, 1))
	assert.Equal(t, []int{1, 1, 0, 198}, []int{ran, cut, refused, beliefs - ran - cut},
		"guards that ran, were cut, recorded as not run, not run")
	recs := ofKind(events, record.EventTickBudget, 0)
	require.Len(t, recs, 1, "one tick-budget record, in the tick that spent it")
	r := recs[0]
	assert.Equal(t, 1, r.Tick)
	assert.Equal(t, "s", r.Agent)
	assert.Contains(t, r.Reason, `agent "s" spent this tick's budget of 400000 work units (`)
	assert.Contains(t, r.Reason, `cut the guard of plan "heavy" at testdata/tickbudget/guardstorm.lua:12`)
	by := tickSpentBy(t, r.Reason)
	assert.Equal(t, int64(400_001), by["guards"]+by["intentions"], "the work stops at the first unit past the budget: %v", by)
	assert.Greater(t, by["intentions"], int64(0))

	// The default tick budget is two instruction budgets: three guards run.
	_, events = tickRun(t, Options{}, "guardstorm.lua", 1)
	ran, failed := 0, 0
	for _, e := range ofKind(events, record.EventNoPlan, 1) {
		if strings.Contains(e.Reason, "every guard refused") {
			ran++
		} else {
			failed++
		}
	}
	beliefs = len(ofKind(events, record.EventBeliefAdded, 1))
	assert.Equal(t, []int{3, 1, 197}, []int{ran, failed, beliefs - ran},
		"guards that ran, the one record of the guard's failures, guards cut or not run")
	recs = ofKind(events, record.EventTickBudget, 0)
	require.Len(t, recs, 1)
	by = tickSpentBy(t, recs[0].Reason)
	assert.Equal(t, int64(DefaultTickBudgetCalls*DefaultInstructionBudget+1), by["guards"]+by["intentions"])
}

func TestSensorsShareTheTickBudgetAndEachTickStartsAfresh(t *testing.T) {
	// Each sensor spends about 320,000 units: three run in a tick of the
	// default 1,000,000, the fourth is cut, six are not run, and the body
	// waits (is not resumed) every tick.
	a, events := tickRun(t, Options{}, "slowsensors.lua", 4)
	assert.Equal(t, "12", a.Get("ran").String(), "three sensors ran to their end in each of 4 ticks")
	assert.Equal(t, "0", a.Get("resumes").String(), "the body never ran: the sensors spent every tick's budget")
	recs := ofKind(events, record.EventTickBudget, 0)
	require.Len(t, recs, 4, "one record per tick")
	for i, r := range recs {
		assert.Equal(t, i+1, r.Tick)
		assert.Equal(t, "s3", r.Action)
		assert.Contains(t, r.Reason, `cut the sensor "s3" at testdata/tickbudget/slowsensors.lua:11`)
		assert.Equal(t, map[string]int64{"sensors": DefaultTickBudgetCalls*DefaultInstructionBudget + 1}, tickSpentBy(t, r.Reason))
	}
	failed := ofKind(events, record.EventSensorFailed, 0)
	require.Len(t, failed, 7, "s3 cut, s4-s9 not run: each recorded once, not every tick")
	assert.Equal(t, "s3", failed[0].Action)
	assert.Contains(t, failed[0].Reason, "slowsensors.lua:11: tick budget exceeded")
	assert.Equal(t, "s9", failed[6].Action)
	assert.Contains(t, failed[6].Reason, `luabind: the sensor "s9" not run: agent "s" spent this tick's budget of 1000000 work units`)

	// With a tick budget larger than all ten, everything runs.
	a, events = tickRun(t, Options{TickBudget: 4_000_000}, "slowsensors.lua", 2)
	assert.Equal(t, "20", a.Get("ran").String())
	assert.Equal(t, "2", a.Get("resumes").String(), "the body ran in tick 1 and tick 2")
	assert.Empty(t, ofKind(events, record.EventTickBudget, 0))
	// And with none, the same.
	a, events = tickRun(t, Options{TickBudget: -1}, "slowsensors.lua", 2)
	assert.Equal(t, "20", a.Get("ran").String())
	assert.Empty(t, ofKind(events, record.EventTickBudget, 0))
}

func TestConsiderationFunctionsShareTheTickBudget(t *testing.T) {
	_, events := tickRun(t, Options{}, "slowcons.lua", 1)
	recs := ofKind(events, record.EventTickBudget, 0)
	require.Len(t, recs, 1)
	assert.Contains(t, recs[0].Reason, `cut the consideration "function@10" at testdata/tickbudget/slowcons.lua:10`)
	assert.Equal(t, map[string]int64{"considerations": DefaultTickBudgetCalls*DefaultInstructionBudget + 1}, tickSpentBy(t, recs[0].Reason))
	assert.Empty(t, ofKind(events, record.EventConsiderationFailed, 0),
		"considerations the tick budget cut or refused are in its record, not one record each")
	picks := ofKind(events, record.EventPick, 1)
	require.Len(t, picks, 1)
	assert.Equal(t, "a0", picks[0].Action)
	scores := map[string]float64{}
	for _, s := range picks[0].Scores {
		scores[s.Action] = s.Score
	}
	// a0-a2 were scored (0.5 each), a3 was cut and the rest scored 0
	// without running.
	assert.Equal(t, map[string]float64{"a0": 0.5, "a1": 0.5, "a2": 0.5, "a3": 0, "a4": 0, "a5": 0, "a6": 0, "a7": 0,
		"a8": 0, "a9": 0}, scores)
}

func TestTickBudgetNeverTouchesAnotherAgent(t *testing.T) {
	rt := NewRuntime(Options{})
	t.Cleanup(rt.Close)
	heavy, err := rt.LoadDomain(filepath.Join("testdata", "tickbudget", "slowsensors.lua"))
	require.NoError(t, err)
	light, err := rt.LoadDomain(filepath.Join("testdata", "tickbudget", "light.lua"))
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var events []record.Event
	w.OnEvent = func(e record.Event) { events = append(events, e) }
	h1, l, h2 := engine.NewAgent("h1", heavy), engine.NewAgent("l", light), engine.NewAgent("h2", heavy)
	w.Add(h1)
	w.Add(l)
	w.Add(h2)
	for range 3 {
		w.Tick(0.1)
	}
	assert.Equal(t, "3", l.Get("seen").String(), "the light agent's sensor ran every tick")
	assert.Equal(t, "9", h1.Get("ran").String())
	assert.Equal(t, "9", h2.Get("ran").String(), "the second heavy agent has its own budget")
	per := map[string]int{}
	for _, e := range ofKind(events, record.EventTickBudget, 0) {
		per[e.Agent]++
	}
	assert.Equal(t, map[string]int{"h1": 3, "h2": 3}, per)
}

// traceOf ticks one agent of each file, on workers workers with one
// runtime per worker, and returns every record as a line.
func traceOf(t *testing.T, opts Options, workers, ticks int, files ...string) []string {
	t.Helper()
	w := engine.NewWorld(7)
	w.Workers = workers
	rts := make([]*Runtime, workers)
	for k := range rts {
		rts[k] = NewRuntime(opts)
		t.Cleanup(rts[k].Close)
	}
	for i, f := range files {
		d, err := rts[i%workers].LoadDomain(f)
		require.NoError(t, err, f)
		w.Add(engine.NewAgent(strconv.Itoa(i)+":"+d.Name, d))
		w.Pin(i, i%workers)
	}
	var lines []string
	w.OnEvent = func(e record.Event) {
		e.Duration = 0
		lines = append(lines, e.String())
	}
	for range ticks {
		w.Tick(0.1)
	}
	return lines
}

func TestTickBudgetSameWithOneOrTwoWorkers(t *testing.T) {
	dir := filepath.Join("testdata", "tickbudget")
	files := []string{filepath.Join(dir, "slowsensors.lua"), filepath.Join(dir, "light.lua"),
		filepath.Join(dir, "slowcons.lua"), filepath.Join(dir, "guardstorm.lua")}
	one := traceOf(t, Options{}, 1, 3, files...)
	two := traceOf(t, Options{}, 2, 3, files...)
	require.NotEmpty(t, one)
	assert.Equal(t, one, two)
	n := 0
	for _, l := range one {
		if tickBudgetLine.MatchString(l) {
			n++
		}
	}
	assert.Equal(t, 3+3+1, n, "slowsensors and slowcons every tick, guardstorm once")
}

func TestHonestRolesDoNotNoticeTheTickBudget(t *testing.T) {
	files := []string{soldierPath(), filepath.Join("testdata", "utility_soldier.lua"),
		filepath.Join("..", "scripts", "examples", "ping.lua"), filepath.Join("..", "scripts", "examples", "pong.lua")}
	with := traceOf(t, Options{}, 1, 60, files...)
	without := traceOf(t, Options{TickBudget: -1}, 1, 60, files...)
	require.Greater(t, len(with), 20)
	assert.Equal(t, without, with, "the default tick budget changes nothing for the shipped scripts")
	for _, l := range with {
		assert.NotContains(t, l, " tick-budget ")
		assert.NotContains(t, l, " consideration-failed ")
	}
}

func TestFailingConsiderationIsRecordedOncePerTick(t *testing.T) {
	a, events := tickRun(t, Options{}, "badcons.lua", 3)
	failed := ofKind(events, record.EventConsiderationFailed, 0)
	byAction := map[string][]record.Event{}
	for _, e := range failed {
		byAction[e.Action] = append(byAction[e.Action], e)
	}
	// Each is recorded once in each tick it is scored in (the pick of
	// tick 1, the re-scores of ticks 2 and 3), not once per call.
	for _, act := range []string{"writes", "huge", "inf", "nan"} {
		var ticks []int
		for _, e := range byAction[act] {
			ticks = append(ticks, e.Tick)
		}
		assert.Equal(t, []int{1, 2, 3}, ticks, act)
	}
	w := byAction["writes"][0]
	assert.Equal(t, "s", w.Agent)
	assert.Regexp(t, `^consideration "function@8" \(testdata/tickbudget/badcons.lua:8:\d+\) scored 0: testdata/tickbudget/badcons.lua:8: .*read-only in a consideration`, w.Reason)
	for act, val := range map[string]string{"huge": "math.huge (or 1/0)", "inf": "math.huge (or 1/0)", "nan": "nan (0/0)"} {
		assert.Contains(t, byAction[act][0].Reason, "scored 0: returned "+val+", not a finite number", act)
	}
	assert.Empty(t, byAction["fine"])
	// A non-finite result scores 0: the one honest action wins the pick.
	picks := ofKind(events, record.EventPick, 0)
	require.NotEmpty(t, picks)
	assert.Equal(t, "fine", picks[0].Action)
	for _, s := range picks[0].Scores {
		if s.Action != "fine" {
			assert.Zero(t, s.Score, s.Action)
		}
	}
	n, err := a.Utility().LastError()
	assert.Greater(t, n, 0)
	require.Error(t, err)
}

func TestOnlyACallThatRanPastTheTickBudgetIsRecordedAsCut(t *testing.T) {
	// A call the tick budget armed with less than its own limit can also
	// stop for another reason (here its memory limit) with its work at or
	// under the tick's limit: that is no cut of the tick budget, and the
	// tick's record is left to the call the budget refuses next.
	for _, tc := range []struct {
		name   string
		over   int64 // work units past the tick's limit when the call stops
		memory bool  // stopped by the memory limit, not by the work
		cut    bool
	}{
		{name: "memory under the limit", over: -10, memory: true},
		{name: "memory at the limit", over: 0, memory: true},
		{name: "work past the limit", over: 1, cut: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{InstructionBudget: 100_000, TickBudget: 50_000})
			t.Cleanup(rt.Close)
			d, err := rt.LoadDomain(filepath.Join("testdata", "tickbudget", "light.lua"))
			require.NoError(t, err)
			w := engine.NewWorld(1)
			var events []record.Event
			w.OnEvent = func(e record.Event) { events = append(events, e) }
			a := engine.NewAgent("s", d)
			w.Add(a)
			w.Tick(0.1)
			require.Empty(t, ofKind(events, record.EventTickBudget, 0), "the light sensor fits the tick")

			rt.site = callSite{kind: siteSensor, name: "probe"}
			s := rt.begin(a, modeSensor)
			b := rt.budget
			require.True(t, b.tickCut, "the tick's rest (under 50,000) is below the call's own 100,000")
			b.n = b.limit + tc.over
			if tc.memory {
				b.spend(memoryExceeded(1<<20, "a probe"))
			} else {
				b.spend(b.overrun())
			}
			rt.end(s)
			w.Tick(0.1)

			recs := ofKind(events, record.EventTickBudget, 0)
			if !tc.cut {
				assert.Empty(t, recs, "no call ran past the tick's budget and none was refused")
				return
			}
			require.Len(t, recs, 1)
			assert.Contains(t, recs[0].Reason, `cut the sensor "probe"`)
		})
	}
}

// TestAConditionTestedBeforeTheFirstTickIsNotChargedToATick: Go code
// that tests an agent's conditions before it has ticked
// (Agent.RefreshConditions, as `moonmind plan` does) has the whole
// instruction budget, however small the tick budget.
func TestAConditionTestedBeforeTheFirstTickIsNotChargedToATick(t *testing.T) {
	path := writeRole(t, "busy.lua", `return { name = "Busy", state = { n = 0 }, decide = "utility",
  conditions = { big = function(npc) local x = 0 for i = 1, 2000 do x = x + i end return x > 1000 end },
  actions = { { name = "count", effects = "n = n + 1", run = function(npc) end } } }
`)
	rt := NewRuntime(Options{TickBudget: 1000})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	require.Zero(t, a.Ticks())
	a.RefreshConditions()
	assert.Equal(t, "true", a.Get("big").String())
}

// TestATickBudgetSpentExactlyRefusesTheNextScript: a sensor that spends
// exactly what is left of the tick budget runs to its end, and the
// agent's next script that tick (its condition) is refused, not started
// and cut.
func TestATickBudgetSpentExactlyRefusesTheNextScript(t *testing.T) {
	path := writeRole(t, "exact.lua", `return { name = "Exact", state = { n = 0 }, decide = "utility",
  sensors = { { name = "look", run = function(npc) local x = 0 for i = 1, 500 do x = x + i end npc.state.n = x end } },
  conditions = { ready = function(npc) return npc.state.n > 0 end },
  actions = { { name = "rest", effects = "n = n + 1", run = function(npc) npc:wait(1) end } } }
`)
	run := func(budget int64) (*Runtime, *engine.Agent, []record.Event) {
		return runRole(t, Options{TickBudget: budget}, path, 1)
	}
	rt, a, events := run(1 << 40)
	require.Empty(t, ofKind(events, record.EventTickBudget, 0))
	sensor := rt.bdi.work[a].by[siteSensor]
	require.Greater(t, sensor, int64(500))

	rt, a, events = run(sensor)
	assert.Equal(t, sensor, rt.bdi.work[a].spent, "the sensor ran to its end")
	assert.Equal(t, "125250", a.Get("n").String())
	recs := ofKind(events, record.EventTickBudget, 0)
	require.Len(t, recs, 1)
	assert.Contains(t, recs[0].Reason, `: refused the condition "ready";`)
	assert.Equal(t, map[string]int64{"sensors": sensor}, tickSpentBy(t, recs[0].Reason))
}

// TestACallWhoseBudgetEqualsWhatIsLeftOfTheTickStopsAtItsOwnLimit: when
// what is left of the tick budget is exactly the call's own instruction
// budget, a runaway call is stopped by its instruction budget (a script
// error), not cut by the tick budget.
func TestACallWhoseBudgetEqualsWhatIsLeftOfTheTickStopsAtItsOwnLimit(t *testing.T) {
	path := writeRole(t, "loop.lua", `return { name = "Loop", state = { n = 0 }, decide = "utility",
  sensors = { { name = "spin", run = function(npc) while true do end end } },
  actions = { { name = "rest", effects = "n = n + 1", run = function(npc) npc:wait(1) end } } }
`)
	rt, _, events := runRole(t, Options{InstructionBudget: 10_000, TickBudget: 10_000}, path, 1)
	fails := ofKind(events, record.EventSensorFailed, 0)
	require.Len(t, fails, 1)
	assert.Contains(t, fails[0].Reason, "loop.lua:2: instruction budget exceeded: more than 10000 work units")
	assert.Equal(t, 1, rt.ScriptErrors())
}

// TestEachRecordedConsiderationFailureIsAScriptError: ScriptErrors counts
// a failing consideration once per tick, as its record does.
func TestEachRecordedConsiderationFailureIsAScriptError(t *testing.T) {
	rt, _, events := runRole(t, Options{}, filepath.Join("testdata", "tickbudget", "badcons.lua"), 3)
	require.Len(t, ofKind(events, record.EventConsiderationFailed, 0), 12, "four failing considerations, three ticks")
	assert.Equal(t, 12, rt.ScriptErrors())
}

// TestALengthScanPastTheTickBudgetIsChargedOneUnitPastIt: #t over a long
// run of trailing nils is charged as far as the budget left can pay and
// one unit more, so the cut call's record shows the tick's budget plus
// one, not the whole scan.
func TestALengthScanPastTheTickBudgetIsChargedOneUnitPastIt(t *testing.T) {
	path := writeRole(t, "holes.lua", `return { name = "Holes", state = { n = 0 }, decide = "utility",
  sensors = { { name = "scan", run = function(npc)
    local t = {}
    t[40000] = 1
    t[40000] = nil
    npc.state.n = #t
  end } },
  actions = { { name = "rest", effects = "n = n + 1", run = function(npc) npc:wait(1) end } } }
`)
	_, _, events := runRole(t, Options{TickBudget: 12_000}, path, 1)
	recs := ofKind(events, record.EventTickBudget, 0)
	require.Len(t, recs, 1)
	assert.Contains(t, recs[0].Reason, `cut the sensor "scan" at `+path+":6")
	assert.Equal(t, map[string]int64{"sensors": 12_001}, tickSpentBy(t, recs[0].Reason))
}

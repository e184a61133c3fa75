package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["test"] = command{what: "run the scenario tests written in Lua beside a role",
		usage: "test FILE|DIR... [--json]", run: testCmd}
	helps["test"] = helpText{
		args: "FILE|DIR...  test files (*_test.lua), or directories: each *_test.lua file in one",
		example: "moonmind test scripts/tests\n" +
			"  ok    scripts/tests/soldier_test.lua: an empty gun is reloaded first\n" +
			"  FAIL  scripts/tests/soldier_test.lua: armed, it attacks\n" +
			"          - pick: attack\n" +
			"          + pick: takeCover",
		exits: "1  a test failed (each failure printed with what was expected, -, and what came, +)\n" +
			"2  a test file or its role does not load, or a test is malformed",
		more: "A test file returns { role = \"FILE\", tests = { ... } }; role is relative to the test file. Each test has\n" +
			"a name, the state it starts from (state = { ammo = 0 }; beliefs = { ... } too, as beliefs are state),\n" +
			"and one or more expectations:\n" +
			"  expect_plan = { \"fetchMagazine\", \"reload\" }   the GOAP plan, every unsatisfied goal in priority order\n" +
			"                                               (goal = \"armed\" plans that goal alone; {} expects none)\n" +
			"  expect_pick = \"attack\"                        the utility planner's pick (\"\" expects none)\n" +
			"  action = \"reload\", expect_why_not = \"...\"     text moonmind why-not prints for that action\n" +
			"  ticks = 40, expect_state = { ammo = 30 }      the state after that many ticks of moonmind run's\n" +
			"                                               training ground (dt = 0.1 s unless dt is given);\n" +
			"                                               host = { nearest = { 40, 0 } } makes a host method\n" +
			"                                               answer those values at once\n" +
			"--json prints a list of {file, test, pass, failures}.",
	}
}

// scenarioResult is one test of moonmind test.
type scenarioResult struct {
	File     string   `json:"file"`
	Test     string   `json:"test"`
	Pass     bool     `json:"pass"`
	Failures []string `json:"failures"` // "- expected" and "+ got" lines
}

func testCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("test", stderr)
	asJSON := fs.Bool("json", false, "print the results as a JSON list of {file, test, pass, failures}")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "moonmind test: expected one or more test files or directories")
		return 2
	}
	files, ok := expandPaths("test", pos, testFilesIn, stderr)
	if !ok {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "moonmind test: no *_test.lua files in", strings.Join(pos, ", "))
		return 2
	}
	results := []scenarioResult{}
	for _, f := range files {
		rs, err := runTestFile(f)
		if err != nil {
			fmt.Fprintln(stderr, loadErrorText("test", err))
			return 2
		}
		results = append(results, rs...)
	}
	failed := 0
	for _, r := range results {
		if !r.Pass {
			failed++
		}
	}
	if *asJSON {
		writeJSON(stdout, results)
	} else {
		colour := colourFor(stdout)
		for _, r := range results {
			if r.Pass {
				fmt.Fprintf(stdout, "ok    %s: %s\n", r.File, r.Test)
				continue
			}
			fmt.Fprintf(stdout, "%s  %s: %s\n", paint(colour, colourRed, "FAIL"), r.File, r.Test)
			for _, l := range r.Failures {
				fmt.Fprintf(stdout, "        %s\n", l)
			}
		}
		fmt.Fprintf(stdout, "%d tests, %d failed\n", len(results), failed)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// scenario is one test of a test file, as written.
type scenario struct {
	name, goal, action, whyNot string
	state                      []string // k=v, as --state takes them
	plan                       []string
	hasPlan, hasPick           bool
	pick                       string
	ticks                      int
	dt                         float64
	expectState                map[string]any
	host                       map[string][]expr.Value // method -> the values it answers
}

// runTestFile loads one test file and its role and runs its tests. The
// error is a test file or role that does not load, or a malformed test.
func runTestFile(path string) ([]scenarioResult, error) {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(path)})
	data, err := rt.LoadData(path)
	rt.Close()
	if err != nil {
		return nil, err
	}
	top, ok := data.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected a table { role = \"FILE\", tests = { ... } }", path)
	}
	roleName, _ := top["role"].(string)
	if roleName == "" {
		return nil, fmt.Errorf("%s: role = \"FILE\" is missing (the role file, relative to the test file)", path)
	}
	role := roleName
	if !filepath.IsAbs(role) {
		role = filepath.Join(filepath.Dir(path), roleName)
	}
	list, _ := top["tests"].([]any)
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: tests = { ... } is missing or empty", path)
	}
	var out []scenarioResult
	for i, raw := range list {
		sc, err := parseScenario(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: test %d: %v", path, i+1, err)
		}
		fails, err := sc.run(role)
		if err != nil {
			return nil, fmt.Errorf("%s: test %q: %s", path, sc.name, scenarioError(err))
		}
		out = append(out, scenarioResult{File: path, Test: sc.name, Pass: len(fails) == 0, Failures: append([]string{}, fails...)})
	}
	return out, nil
}

func parseScenario(raw any) (*scenario, error) {
	t, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected a table with a name and expectations")
	}
	known := map[string]bool{"name": true, "state": true, "beliefs": true, "goal": true, "expect_plan": true,
		"expect_pick": true, "action": true, "expect_why_not": true, "ticks": true, "dt": true, "expect_state": true,
		"host": true}
	var keys []string
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			var names []string
			for n := range known {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("unknown field %s%s", k, engine.DidYouMean(k, names))
		}
	}
	sc := &scenario{dt: 0.1}
	sc.name, _ = t["name"].(string)
	if sc.name == "" {
		return nil, fmt.Errorf("name = \"...\" is missing")
	}
	for _, field := range []string{"state", "beliefs"} {
		m, _ := t[field].(map[string]any)
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			sc.state = append(sc.state, k+"="+literal(m[k]))
		}
	}
	sc.goal, _ = t["goal"].(string)
	if p, ok := t["expect_plan"]; ok {
		sc.hasPlan = true
		switch x := p.(type) {
		case []any:
			for _, s := range x {
				sc.plan = append(sc.plan, fmt.Sprint(s))
			}
		case map[string]any: // {} is an empty table
		default:
			return nil, fmt.Errorf("expect_plan must be a list of action names")
		}
	}
	if p, ok := t["expect_pick"]; ok {
		sc.hasPick = true
		sc.pick = fmt.Sprint(p)
	}
	sc.action, _ = t["action"].(string)
	sc.whyNot, _ = t["expect_why_not"].(string)
	if (sc.action == "") != (sc.whyNot == "") {
		return nil, fmt.Errorf("action and expect_why_not go together")
	}
	if n, ok := t["ticks"].(float64); ok {
		sc.ticks = int(n)
	}
	if dt, ok := t["dt"].(float64); ok && dt > 0 {
		sc.dt = dt
	}
	sc.expectState, _ = t["expect_state"].(map[string]any)
	if h, ok := t["host"]; ok {
		m, ok := h.(map[string]any)
		if !ok || sc.ticks == 0 {
			return nil, fmt.Errorf("host = { method = { values... } } goes with ticks")
		}
		sc.host = map[string][]expr.Value{}
		for name, raw := range m {
			vals, _ := raw.([]any)
			if _, single := raw.(map[string]any); !single && vals == nil {
				vals = []any{raw} // one value, written alone
			}
			for _, v := range vals {
				val, err := stateLiteral(literal(v), false)
				if err != nil {
					return nil, fmt.Errorf("host %s: %v", name, err)
				}
				sc.host[name] = append(sc.host[name], val)
			}
		}
	}
	if (sc.ticks > 0) != (sc.expectState != nil) {
		return nil, fmt.Errorf("ticks and expect_state go together")
	}
	if !sc.hasPlan && !sc.hasPick && sc.action == "" && sc.ticks == 0 {
		return nil, fmt.Errorf("nothing is expected: give expect_plan, expect_pick, expect_why_not or expect_state")
	}
	return sc, nil
}

// literal writes a value of a test's state as --state takes it.
func literal(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return "nil"
}

// run runs the scenario's expectations on role and returns the failures,
// each as "- expected" and "+ got" lines.
func (sc *scenario) run(role string) ([]string, error) {
	var fails []string
	diff := func(what, want, got string) {
		if want != got {
			fails = append(fails, "- "+what+": "+want, "+ "+what+": "+got)
		}
	}
	if sc.hasPlan || sc.hasPick {
		var errOut bytes.Buffer
		rt, d, st, code := loadWithState("test", []string{role}, sc.state, &errOut)
		if code != 0 {
			return nil, fmt.Errorf("%s", strings.TrimSpace(errOut.String()))
		}
		if sc.hasPlan {
			pl := depthPlanner(d, engine.DefaultMaxDepth)
			var outcomes []engine.GoalOutcome
			if sc.goal != "" {
				g := d.Goal(sc.goal)
				if g == nil {
					rt.Close()
					return nil, fmt.Errorf("goal %q: the role has no such goal%s", sc.goal, engine.DidYouMean(sc.goal, d.GoalNames()))
				}
				outcomes = planOneGoal(pl, g, st.Clone())
			} else {
				outcomes = pl.PlanEach(st.Clone())
			}
			var got []string
			for _, o := range outcomes {
				if o.Err != nil {
					got = append(got, "(no plan for "+o.Err.Goal+": "+o.Err.Message()+")")
					continue
				}
				got = append(got, names(o.Steps)...)
			}
			diff("plan", strings.Join(sc.plan, ", "), strings.Join(got, ", "))
		}
		if sc.hasPick {
			// The agent's pick: the best action that scores more than 0
			// (an action that scores 0 is never picked).
			u := engine.NewUtilityPlanner(d)
			u.Explain = true
			_, e := u.Pick(st.Clone(), nil)
			got := "(nothing)"
			for _, ax := range e.Actions {
				if ax.Score > 0 && !ax.Action.Restricted {
					got = ax.Action.Name
					break
				}
			}
			want := sc.pick
			if want == "" {
				want = "(nothing)"
			}
			diff("pick", want, got)
		}
		rt.Close()
	}
	if sc.action != "" {
		args := []string{"why-not", role, "--action", sc.action}
		if sc.goal != "" {
			args = append(args, "--goal", sc.goal)
		}
		for _, s := range sc.state {
			args = append(args, "--state", s)
		}
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code == 2 {
			return nil, fmt.Errorf("%s", strings.TrimSpace(errOut.String()))
		}
		if !strings.Contains(out.String(), sc.whyNot) {
			fails = append(fails, "- why-not "+sc.action+" says: "+sc.whyNot)
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				fails = append(fails, "+ "+l)
			}
		}
	}
	if sc.ticks > 0 {
		got, err := stateAfter(role, sc.state, sc.ticks, sc.dt, sc.host)
		if err != nil {
			return nil, err
		}
		var ks []string
		for k := range sc.expectState {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			want, err := stateLiteral(literal(sc.expectState[k]), false)
			if err != nil {
				return nil, fmt.Errorf("expect_state %s: %v", k, err)
			}
			v, ok := got[k]
			gotText := "(not a state variable)"
			if ok {
				gotText = v.String()
			}
			if !ok || !v.Equal(want) {
				fails = append(fails, fmt.Sprintf("- %s after %d ticks: %s", k, sc.ticks, want), fmt.Sprintf("+ %s after %d ticks: %s", k, sc.ticks, gotText))
			}
		}
	}
	return fails, nil
}

// stateAfter runs one agent of role on moonmind run's training ground for
// ticks ticks of dt seconds from the given state, and returns its state by
// name. answers replaces host methods: each answers its values at once.
func stateAfter(role string, states []string, ticks int, dt float64, answers map[string][]expr.Value) (map[string]expr.Value, error) {
	host := newTrainingGround().host()
	for name, vals := range answers {
		host[name] = func(c *luabind.HostCall) (bool, error) {
			c.Results = append(c.Results[:0], vals...)
			return true, nil
		}
	}
	rt := luabind.NewRuntime(luabind.Options{Host: host, ScriptsDir: filepath.Dir(role)})
	defer rt.Close()
	d, err := rt.LoadDomain(role)
	if err != nil {
		return nil, err
	}
	w := engine.NewWorld(1)
	a := newAgent("test", d)
	if err := applyStates(d, a.State, states); err != nil {
		return nil, err
	}
	w.Add(a)
	for range ticks {
		w.Tick(dt)
	}
	w.Finish()
	out := map[string]expr.Value{}
	for i, n := range d.Schema.Names() {
		if i < len(a.State) {
			out[n] = a.State[i]
		}
	}
	return out, nil
}

// scenarioError is the text of an error a scenario's run met, in the test
// file's terms: the scenarios run the commands' own code, whose messages
// begin "moonmind plan: " or name a --state flag the test file wrote as
// state = { ... }.
func scenarioError(err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "moonmind "); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			msg = after
		}
	}
	if rest, ok := strings.CutPrefix(msg, "--state "); ok {
		msg = "state " + rest
	}
	return msg
}

// testFilesIn lists a directory's *_test.lua files in name order.
func testFilesIn(dir string) ([]string, error) {
	found, err := filepath.Glob(filepath.Join(dir, "*_test.lua"))
	sort.Strings(found)
	return found, err
}

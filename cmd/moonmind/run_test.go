package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// soldierScenario is the golden run: four soldiers on the training
// ground with a dummy of 500 health in sight, 600 ticks of 0.05 s.
func soldierScenario(workers string, extra ...string) []string {
	return append([]string{"run", soldier, "--ticks", "600", "--dt", "0.05", "--agents", "4",
		"--workers", workers, "--seed", "3", "--state", "enemy_visible=true", "--state", "enemy_health=500"}, extra...)
}

func TestSoldierGoldenTrace(t *testing.T) {
	out, errOut, code := runMain(soldierScenario("1")...)
	require.Equal(t, 0, code, errOut)
	golden := filepath.Join("testdata", "soldier_600.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(out), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run the test with -update to create the golden file")
	assert.Equal(t, string(want), out)

	out4, errOut, code := runMain(soldierScenario("4")...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, string(want), out4, "four workers give the same trace as one")
}

func TestRunWritesTraceAsJSONLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	out, errOut, code := runMain(soldierScenario("2", "--trace", path)...)
	require.Equal(t, 0, code, errOut)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var kinds []string
	sc := bufio.NewScanner(f)
	n, inputs := 0, 0
	for sc.Scan() {
		var e struct {
			Kind  string `json:"kind"`
			Agent string `json:"agent"`
			Tick  int    `json:"tick"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), sc.Text())
		if e.Kind == "input" {
			inputs++
			continue
		}
		kinds = append(kinds, e.Kind)
		n++
	}
	assert.Positive(t, inputs, "the host methods' answers follow the records, for moonmind replay")
	require.NotEmpty(t, kinds)
	assert.Equal(t, "run", kinds[0], "the first line is the run header, for moonmind replay")
	assert.Equal(t, strings.Count(out, "\n"), n-1, "then one record per printed line")
	assert.Contains(t, kinds, record.EventPlan.String())
	assert.Contains(t, kinds, record.EventStart.String())
	assert.Contains(t, kinds, record.EventFinish.String())
	assert.Equal(t, record.EventSummary.String(), kinds[len(kinds)-1], "the run ends with one summary per agent")
}

// TestBodyBeliefIsRecordedTheTickAfter keeps the example of
// docs/reactive-plans.md true: a belief the body writes in its last resume
// (tick 3) is dispatched, and recorded, at the next tick's reactive phase.
func TestBodyBeliefIsRecordedTheTickAfter(t *testing.T) {
	out, errOut, code := runMain("run", filepath.Join("testdata", "roles", "bell.lua"), "--ticks", "6", "--dt", "0.1")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{
		"tick    3  t=  0.200s  Ringer       finish      goal=done action=ring\n",
		"tick    4  t=  0.300s  Ringer       belief-added belief=bell value=true old=false\n",
		"tick    4  t=  0.300s  Ringer       plan-chosen action=plan #1 intention=#1 belief=bell\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "tick    3  t=  0.200s  Ringer       belief-added", "not in the tick the body wrote it")
}

// TestRunFailsOnAScriptErrorOnly: a body that raises an error (a misspelt
// state variable) fails the run with exit status 1 and a last line that
// counts the errors, after the records that show each; a body that fails
// by returning false, reason is how the game went, and the run exits 0.
func TestRunFailsOnAScriptErrorOnly(t *testing.T) {
	dir := t.TempDir()
	role := func(name, body string) string {
		file := filepath.Join(dir, name+".lua")
		require.NoError(t, os.WriteFile(file, []byte(`return {
  name = "Farmer",
  state = { hunger = 5 },
  goals = { { name = "fed", condition = "hunger < 1" } },
  actions = {
    { name = "eat", effects = "hunger = 0",
      run = function(npc)
        `+body+`
      end },
  },
}
`), 0o644))
		return file
	}
	typo := role("typo", "npc.state.hungr = 0")
	trace := filepath.Join(dir, "typo.jsonl")
	out, errOut, code := runMain("run", typo, "--ticks", "12", "--trace", trace)
	assert.Equal(t, 1, code, "a script error fails the run")
	assert.Contains(t, out, `fail        goal=fed action=eat reason="`+typo+`:8: npc.state.hungr: no such state variable (did you mean \"hunger\"?)"`)
	assert.Equal(t, "moonmind run: the scripts raised 2 errors while the agents ran (each is a record above, with its file and line)\n", errOut,
		"the body runs at tick 1 and again after its back-off of 1 s")
	same, errOut, code := runMain("replay", trace)
	assert.Equal(t, 0, code, "the failed run's trace replays: %s", errOut)
	assert.Equal(t, "identical: 9 records over 12 ticks\n", same)

	refused := role("refused", `return false, "the pantry is empty"`)
	out, errOut, code = runMain("run", refused, "--ticks", "12")
	assert.Equal(t, 0, code, "an action that fails in the game is not a broken script")
	assert.Empty(t, errOut)
	assert.Contains(t, out, `fail        goal=fed action=eat reason="the pantry is empty"`)
}

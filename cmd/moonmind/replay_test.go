package main

import (
	"slices"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recordSoldier(t *testing.T, extra ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	args := append([]string{"run", soldier, "--ticks", "200", "--state", "ammo=12", "--state", "enemy_visible=true",
		"--state", "enemy_health=100", "--trace", path}, extra...)
	_, errOut, code := runMain(args...)
	require.Equal(t, 0, code, errOut)
	return path
}

func TestReplayIdentical(t *testing.T) {
	path := recordSoldier(t)
	out, errOut, code := runMain("replay", path)
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "identical: 9 records over 200 ticks\n", out)

	// Several workers and several files replay as well.
	path = recordSoldier(t, "--agents", "3", "--workers", "2")
	out, errOut, code = runMain("replay", path)
	assert.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "identical: "), out)

	multi := filepath.Join(t.TempDir(), "multi.jsonl")
	_, errOut, code = runMain("run", pingFile, pongFile, baristaFile, "--ticks", "12", "--trace", multi)
	require.Equal(t, 0, code, errOut)
	out, errOut, code = runMain("replay", multi)
	assert.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "identical: "), out)
}

func TestReplayFindsTheFirstDifference(t *testing.T) {
	path := recordSoldier(t)
	src, err := os.ReadFile(soldier)
	require.NoError(t, err)
	edited := strings.Replace(string(src), "cost = 2,", "cost = 20,", 1)
	require.NotEqual(t, string(src), edited, "the edit applies")
	file := filepath.Join(t.TempDir(), "soldier.lua")
	require.NoError(t, os.WriteFile(file, []byte(edited), 0o644))

	out, errOut, code := runMain("replay", path, file)
	assert.Equal(t, 1, code, errOut)
	assert.Equal(t, "differs at record 4, tick 22, agent Soldier:\n"+
		"  recorded: tick   22  t=  2.100s  Soldier      plan        goal=armed plan=[fetchMagazine, reload] cost=3\n"+
		"  new:      tick   22  t=  2.100s  Soldier      plan        goal=armed plan=[fetchMagazine, reload] cost=21\n", out)
}

func TestReplayBadInput(t *testing.T) {
	path := recordSoldier(t)
	_, errOut, code := runMain("replay", path, soldier, soldier)
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind replay: the trace ran 1 file(s), and 2 were given\n", errOut)

	bare := filepath.Join(t.TempDir(), "bare.jsonl")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	_, rest, _ := strings.Cut(string(data), "\n")
	require.NoError(t, os.WriteFile(bare, []byte(rest), 0o644))
	_, errOut, code = runMain("replay", bare)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "has no run header")

	back, _, code := runMain("trace", path, "--kind", "finish")
	assert.Equal(t, 0, code, "trace reads a trace with a run header")
	assert.Contains(t, back, "Soldier      finish      action=attack")
}

// weatherGround adds a host method weather() that answers w: the host of
// a replay may answer differently from the recorded run's.
func weatherGround(w string) func(map[string]luabind.HostFunc) map[string]luabind.HostFunc {
	return func(m map[string]luabind.HostFunc) map[string]luabind.HostFunc {
		m["weather"] = func(c *luabind.HostCall) (bool, error) {
			c.Results = []expr.Value{expr.StringValue(w)}
			return true, nil
		}
		return m
	}
}

func TestReplayFeedsTheRecordedHostInputsBack(t *testing.T) {
	role := filepath.Join("testdata", "replay", "weather.lua")
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var out, errOut strings.Builder
	code := runWith([]string{role, "--ticks", "30", "--trace", path}, &out, &errOut, runHooks{ground: weatherGround("rain")})
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "plan=[umbrella]", "in the rain the walker takes its umbrella")

	_, _, inputs, code := readTrace(path, &errOut)
	require.Equal(t, 0, code, errOut.String())
	var sensed, answered bool
	for _, in := range inputs {
		sensed = sensed || in.From == "sensor" && in.Name == "sky" && slices.Contains(in.Writes, inputWrite{Var: "weather", Value: `"rain"`})
		answered = answered || in.From == "host" && in.Name == "weather" && slices.Equal(in.Results, []string{`"rain"`})
	}
	assert.True(t, sensed, "the trace holds what the sensor wrote: %v", inputs)
	assert.True(t, answered, "the trace holds what the host method answered: %v", inputs)

	// moonmind trace shows them.
	shown, errText, code := runMain("trace", path, "--kind", "input", "--tick", "1:2")
	require.Equal(t, 0, code, errText)
	assert.Equal(t, "tick    1  Walker       input       sensor sky wrote noise=100, weather=\"rain\"\n"+
		"tick    1  Walker       input       npc:weather() -> \"rain\"\n", shown)

	// Today's host says sun; the replay feeds the recorded rain back.
	out.Reset()
	errOut.Reset()
	code = replayWith([]string{path}, &out, &errOut, weatherGround("sun"))
	assert.Equal(t, 0, code, errOut.String())
	assert.Equal(t, "identical: 5 records over 30 ticks\n", out.String())

	// Without the recorded inputs, the new host's sun changes the first plan.
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var kept []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(line, `{"kind":"input",`) {
			kept = append(kept, line)
		}
	}
	bare := filepath.Join(t.TempDir(), "bare.jsonl")
	require.NoError(t, os.WriteFile(bare, []byte(strings.Join(kept, "")), 0o644))
	out.Reset()
	code = replayWith([]string{bare}, &out, &errOut, weatherGround("sun"))
	assert.Equal(t, 1, code, errOut.String())
	assert.Contains(t, out.String(), "differs at record 1, tick 1, agent Walker:\n")
	assert.Contains(t, out.String(), "new:      tick    1  t=  0.000s  Walker       plan        goal=sheltered plan=[hat] cost=1")
}

func TestReplayRunsAnEditedSensorAgain(t *testing.T) {
	role := filepath.Join("testdata", "replay", "weather.lua")
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var out, errOut strings.Builder
	code := runWith([]string{role, "--ticks", "30", "--trace", path}, &out, &errOut, runHooks{ground: weatherGround("rain")})
	require.Equal(t, 0, code, errOut.String())

	src, err := os.ReadFile(role)
	require.NoError(t, err)
	edit := func(old, new string) string {
		edited := strings.Replace(string(src), old, new, 1)
		require.NotEqual(t, string(src), edited, "the edit applies")
		file := filepath.Join(t.TempDir(), "weather.lua")
		require.NoError(t, os.WriteFile(file, []byte(edited), 0o644))
		return file
	}

	// An edit of an action: the recorded rain is fed back, and the new
	// cost is the first difference.
	out.Reset()
	code = replayWith([]string{path, edit(`name = "umbrella",`, `name = "umbrella", cost = 4,`)}, &out, &errOut, weatherGround("sun"))
	assert.Equal(t, 1, code, errOut.String())
	assert.Equal(t, "differs at record 1, tick 1, agent Walker:\n"+
		"  recorded: tick    1  t=  0.000s  Walker       plan        goal=sheltered plan=[umbrella] cost=1\n"+
		"  new:      tick    1  t=  0.000s  Walker       plan        goal=sheltered plan=[umbrella] cost=4\n", out.String())

	// An edit of the sensor: it runs again, and what it writes now counts.
	out.Reset()
	code = replayWith([]string{path, edit(`npc.state.weather = npc:weather()`, `npc.state.weather = "sun"`)}, &out, &errOut, weatherGround("rain"))
	assert.Equal(t, 1, code, errOut.String())
	assert.Equal(t, "sensor Walker/sky changed since the recorded run: it ran again instead of replaying its recorded values\n"+
		"differs at record 1, tick 1, agent Walker:\n"+
		"  recorded: tick    1  t=  0.000s  Walker       plan        goal=sheltered plan=[umbrella] cost=1\n"+
		"  new:      tick    1  t=  0.000s  Walker       plan        goal=sheltered plan=[hat] cost=1\n", out.String())
}

func TestReplaceFilesSkipsFlagValuesButNotBoolFlags(t *testing.T) {
	out, n := replaceFiles([]string{"--timing", "a.lua", "--ticks", "5", "b.lua", "-timing", "--seed=3"}, []string{"x.lua", "y.lua"})
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"--timing", "x.lua", "--ticks", "5", "y.lua", "-timing", "--seed=3"}, out)
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	out, errOut, code := runMain("check", soldier)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "ok: role Soldier")

	bad := filepath.Join("..", "..", "luabind", "testdata", "invalid.lua")
	out, _, code = runMain("check", bad)
	assert.Equal(t, 1, code, "a role that does not load is a finding")
	assert.Contains(t, out, bad+`:5:48: error: goal "armed": unknown key "priorty" (did you mean "priority"?)`)

	_, errOut, code = runMain("check", filepath.Join("testdata", "nothing-here"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "moonmind check: stat testdata/nothing-here: no such file or directory")
}

// TestCheckFindsEachPlantedProblem checks every file of testdata/faulty:
// exactly one finding, at the line marked "-- planted: TEXT", holding TEXT.
func TestCheckFindsEachPlantedProblem(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "faulty", "*.lua"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 10)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			wantLine, wantText := 0, ""
			for i, l := range strings.Split(string(src), "\n") {
				if _, text, ok := strings.Cut(l, "-- planted: "); ok {
					require.Zero(t, wantLine, "one planted problem per file")
					wantLine, wantText = i+1, strings.TrimSpace(text)
				}
			}
			require.NotZero(t, wantLine, "the file marks its planted problem")
			out, errOut, code := runMain("check", f)
			re := regexp.MustCompile(`^(.+):(\d+):(\d+): (error|warning|note): (.+)$`)
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if re.MatchString(l) {
					lines = append(lines, l)
				}
			}
			require.Len(t, lines, 1, "exactly one finding:\n%s", out)
			m := re.FindStringSubmatch(lines[0])
			if m[4] == "note" {
				assert.Equal(t, 0, code, "a note alone leaves the role sound: %s", errOut)
			} else {
				assert.Equal(t, 1, code, errOut)
			}
			assert.Equal(t, f, m[1])
			assert.Equal(t, strconv.Itoa(wantLine), m[2], "the finding is at the planted line: %s", lines[0])
			assert.Contains(t, m[5], wantText)
		})
	}
}

func TestCheckDirectoriesAndJSON(t *testing.T) {
	scripts := filepath.Join("..", "..", "scripts")
	out, errOut, code := runMain("check", scripts, filepath.Join(scripts, "examples"))
	require.Equal(t, 0, code, out+errOut)
	assert.NotContains(t, out, "coffee_plans.lua", "a module another file requires is no role")
	checkGolden(t, filepath.Join("check", "scripts.golden"), out)

	out, _, code = runMain("check", filepath.Join("testdata", "faulty"))
	assert.Equal(t, 1, code)
	checkGolden(t, filepath.Join("check", "faulty.golden"), out)

	js, _, code := runMain("check", "--json", filepath.Join("testdata", "faulty", "wrong_way.lua"))
	assert.Equal(t, 1, code)
	var got []findingJSON
	require.NoError(t, json.Unmarshal([]byte(js), &got), js)
	require.Len(t, got, 1)
	assert.Equal(t, findingJSON{File: filepath.Join("testdata", "faulty", "wrong_way.lua"), Line: 5, Col: 22, Severity: "error",
		Message: `goal "rich": gold >= 10 needs gold to move, and no action's effect raises it or sets it to a number`, ID: "no-progress:rich"}, got[0])

	js, _, code = runMain("check", "--json", soldier)
	assert.Equal(t, 0, code)
	assert.Equal(t, "[]\n", js, "no finding is an empty list")
}

func TestTraceReadsWhatRunWrote(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	out, errOut, code := runMain(soldierScenario("1", "--trace", path)...)
	require.Equal(t, 0, code, errOut)
	back, errOut, code := runMain("trace", path)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, out, back, "the trace prints the same lines as the run")

	starts, _, code := runMain("trace", path, "--agent", "Soldier#2", "--kind", "start")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(starts), "\n")
	require.NotEmpty(t, lines)
	for _, l := range lines {
		assert.Contains(t, l, "Soldier#2    start")
	}
}

func TestExtendsResolvesBesideTheFile(t *testing.T) {
	child := filepath.Join("testdata", "roles", "child.lua")
	out, errOut, code := runMain("plan", child, "--json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"plan":["chop"]`, "the child's wood = 1 wins over the parent's 0")
}

func TestTraceFilters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	_, errOut, code := runMain(soldierScenario("1", "--trace", path)...)
	require.Equal(t, 0, code, errOut)
	all, _, code := runMain("trace", path, "--agent", "Soldier#2")
	require.Equal(t, 0, code)

	span, errOut, code := runMain("trace", path, "--agent", "Soldier#2", "--tick", "10:200")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(span), "\n")
	require.NotEmpty(t, lines)
	assert.Less(t, len(lines), len(strings.Split(strings.TrimSpace(all), "\n")), "the span drops records")
	for _, l := range lines {
		var tick int
		_, err := fmt.Sscanf(l, "tick %d", &tick)
		require.NoError(t, err, l)
		assert.True(t, tick >= 10 && tick <= 200, "tick %d is in 10:200", tick)
	}

	for _, tc := range []struct {
		name, reason string
		args         []string
		want         string
	}{
		{"unknown agent", "a misspelt agent name must not print nothing and succeed",
			[]string{"--agent", "Soldeir#3"}, "moonmind trace: --agent Soldeir#3: no record of " + path + " names that agent (did you mean \"Soldier#3\"?)\n"},
		{"unknown kind", "a misspelt kind is named with the closest kind",
			[]string{"--kind", "strat"}, "moonmind trace: --kind strat: no record has that kind (did you mean \"start\"?)\n"},
		{"kind prefix", "a kind's first word lists the kinds it starts (belief for belief-added and belief-removed)",
			[]string{"--kind", "belief"}, "moonmind trace: --kind belief: no record has that kind (did you mean one of belief-added, belief-removed?)\n"},
		{"reversed span", "A must not exceed B",
			[]string{"--tick", "20:10"}, "moonmind trace: --tick 20:10: expected A:B, A:, :B or A, with whole tick numbers A <= B\n"},
		{"not a number", "ticks are whole numbers",
			[]string{"--tick", "x:3"}, "moonmind trace: --tick x:3: expected A:B, A:, :B or A, with whole tick numbers A <= B\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"trace", path}, tc.args...)...)
			assert.Equal(t, 2, code, tc.reason)
			assert.Empty(t, out)
			assert.Equal(t, tc.want, errOut, tc.reason)
		})
	}
}

func TestTraceOfAFileThatIsNoTrace(t *testing.T) {
	_, errOut, code := runMain("trace", "../../scripts/soldier.lua")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "../../scripts/soldier.lua:1: not a JSON Lines trace (one record per line, as moonmind run --trace writes)")
}

// TestFaultyCorpusCoversEveryCheck keeps the corpus complete: every check
// of moonmind check has a faulty role with plain tables and one with the
// mm.* helpers (the table in testdata/faulty/README.md).
func TestFaultyCorpusCoversEveryCheck(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("testdata", "faulty", "README.md"))
	require.NoError(t, err)
	rows := 0
	for _, line := range strings.Split(string(readme), "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 || !strings.HasSuffix(strings.TrimSpace(cells[1]), ".lua") {
			continue
		}
		rows++
		plain := strings.TrimSpace(cells[1])
		helpers := strings.Fields(strings.TrimSpace(cells[2]))[0]
		helpers = strings.TrimSuffix(helpers, ",")
		for _, f := range []string{plain, helpers} {
			src, err := os.ReadFile(filepath.Join("testdata", "faulty", f))
			require.NoError(t, err, "%s: %s", cells[0], f)
			assert.Contains(t, string(src), "-- planted: ", f)
			assert.Equal(t, f == helpers, strings.Contains(string(src), `require("moonmind")`), "%s: %s uses the helpers only in the helpers column", cells[0], f)
		}
	}
	assert.Equal(t, 18, rows, "one row per check")
}

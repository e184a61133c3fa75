package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var hostileDir = filepath.Join("..", "..", "luabind", "testdata", "hostile")

// hostileWant reads a corpus file's "-- want: " line, with the corpus's
// own path (testdata/hostile/...) made this test's, whether it is a
// regular expression and whether the file asks for a budget of its own
// (moonmind run has the default one).
func hostileWant(t *testing.T, path string) (want string, re, budget bool) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() && strings.HasPrefix(sc.Text(), "--") {
		if w, ok := strings.CutPrefix(sc.Text(), "-- want: "); ok {
			want = w
		}
		re = re || strings.HasPrefix(sc.Text(), "-- match: regexp")
		budget = budget || strings.HasPrefix(sc.Text(), "-- budget: ")
	}
	require.NotEmpty(t, want)
	if re {
		return strings.Replace(want, `^testdata/hostile/`, "^"+regexp.QuoteMeta(hostileDir+"/"), 1), true, budget
	}
	return strings.Replace(want, "testdata/hostile/", hostileDir+"/", 1), false, budget
}

// TestHostileCorpusThroughTheCommandLine: every hostile script of the
// luabind corpus goes through check, plan and run without a panic or a
// hang; run records the corpus's exact message (check and plan name the
// ones that fail at load), at the script's file and line.
func TestHostileCorpusThroughTheCommandLine(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(hostileDir, "*.lua"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 20)
	// The training ground's "nearest" finds something, unlike the corpus
	// test's host, so this script finishes.
	hostDependent := map[string]bool{"host_error.lua": true}
	for _, path := range files {
		file := filepath.Base(path)
		t.Run(strings.TrimSuffix(file, ".lua"), func(t *testing.T) {
			if raceEnabled && strings.HasPrefix(file, "mem_") {
				t.Skip("the memory bombs take tens of seconds under the race detector; the plain run tests them")
			}
			want, re, ownBudget := hostileWant(t, path)
			checkOut, checkErr, checkCode := runMain("check", path)
			planOut, planErr, planCode := runMain("plan", path)
			runOut, runErr, runCode := runMain("run", path, "--ticks", "25")
			got := runErr
			if runCode != 2 { // 2: broken at load; else it fails as it runs
				got = firstFailure(runOut, "Hostile")
				if got == "" {
					got = firstSensorFailure(runOut)
				}
			}
			got = strings.TrimSpace(got)
			switch {
			case hostDependent[file]:
				assert.Empty(t, got)
				assert.Contains(t, runOut, "finish      goal=finished action=work")
				assert.Equal(t, 0, runCode, runErr)
			case ownBudget:
				// Under the default budget the same line fails, maybe for
				// the budget rather than for memory.
				loc, _, _ := strings.Cut(strings.TrimPrefix(want, path+":"), ":")
				assert.True(t, strings.HasPrefix(got, path+":"+loc+": "), got)
			case re:
				assert.Regexp(t, want, got)
			default:
				assert.Equal(t, want, got)
			}
			if !hostDependent[file] && runCode != 2 {
				// A script error as the agent runs fails the run.
				assert.Equal(t, 1, runCode, "a script error at run time fails the run")
				assert.Contains(t, runErr, "moonmind run: the scripts raised ")
			}
			if runCode == 2 {
				// Broken at load: check and plan say the same.
				assert.Equal(t, 1, checkCode, checkOut+checkErr)
				assert.Contains(t, checkOut+checkErr, strings.TrimPrefix(want, "^"))
				assert.NotEqual(t, 0, planCode)
				assert.Contains(t, planErr, strings.TrimPrefix(want, "^"))
			} else {
				assert.Equal(t, 0, planCode, planErr)
				assert.Contains(t, planOut, "work")
			}
		})
	}
}

// firstSensorFailure returns the reason of the first sensor-failed record.
func firstSensorFailure(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if _, reason, ok := strings.Cut(l, " sensor-failed "); ok {
			_, r, _ := strings.Cut(reason, `reason="`)
			return strings.ReplaceAll(strings.TrimSuffix(r, `"`), `\"`, `"`)
		}
	}
	return ""
}

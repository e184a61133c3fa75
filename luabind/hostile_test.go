package luabind

import (
	"bufio"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// updateCorpus rewrites the "-- want: " line of each hostile corpus file
// with the message it gives now: go test ./luabind -run HostileCorpus -update-corpus.
var updateCorpus = flag.Bool("update-corpus", false, "rewrite the want lines of testdata/hostile")

// hostileHost are the host methods the hostile corpus calls.
func hostileHost() map[string]HostFunc {
	return map[string]HostFunc{
		"nearest": func(c *HostCall) (bool, error) {
			kind, _ := c.Args[0].AsString()
			return true, errors.New("no kind " + strconv.Quote(kind) + " in the world")
		},
	}
}

// corpusHeader reads the "-- want: " and optional "-- budget: " lines at
// the top of a corpus file, and whether a "-- match: regexp" line makes
// the want line a regular expression (the memory figures of a heap
// measurement vary from run to run; the rest does not).
func corpusHeader(t *testing.T, path string) (want string, budget int64, prefix bool) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "--") {
			break
		}
		if w, ok := strings.CutPrefix(line, "-- want: "); ok {
			want = w
		}
		if strings.HasPrefix(line, "-- match: regexp") {
			prefix = true
		}
		if b, ok := strings.CutPrefix(line, "-- budget: "); ok {
			budget, err = strconv.ParseInt(b, 10, 64)
			require.NoError(t, err)
		}
	}
	require.NotEmpty(t, want, "%s has no -- want: line", path)
	return want, budget, prefix
}

// runHostile loads one corpus file next to a waiter and returns the load
// error or the first failure the hostile agent records, and the world.
func runHostile(t *testing.T, file string, budget int64) (string, *world) {
	t.Helper()
	rt := NewRuntime(Options{InstructionBudget: budget, Host: hostileHost()})
	t.Cleanup(rt.Close)
	path := filepath.Join("testdata", "hostile", file)
	d, err := rt.LoadDomain(path)
	if err != nil {
		return err.Error(), nil
	}
	wd := newWorld(t, rt, []string{"waiter"}, []string{"waiter.lua"})
	a := engine.NewAgent("hostile", d)
	wd.w.Add(a)
	wd.agents["hostile"] = a
	wd.run(25, 0.1)
	for _, e := range wd.events {
		if e.Agent == "hostile" && (e.Kind == record.EventFail || e.Kind == record.EventSensorFailed) {
			return e.Reason, wd
		}
	}
	return "no failure", wd
}

// TestHostileCorpus runs every script of testdata/hostile next to a
// healthy agent: each fails with exactly the message on its "-- want:"
// line, naming its own file and line, and the healthy agent finishes.
func TestHostileCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "hostile", "*.lua"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 15)
	for _, path := range files {
		file := filepath.Base(path)
		t.Run(strings.TrimSuffix(file, ".lua"), func(t *testing.T) {
			want, budget, prefix := corpusHeader(t, path)
			got, wd := runHostile(t, file, budget)
			if prefix {
				assert.Regexp(t, want, got)
				return
			}
			if *updateCorpus {
				src, err := os.ReadFile(path)
				require.NoError(t, err)
				out := strings.Replace(string(src), "-- want: "+want+"\n", "-- want: "+got+"\n", 1)
				require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
				return
			}
			assert.Equal(t, want, got)
			if wd != nil {
				assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent kept running")
			}
		})
	}
}

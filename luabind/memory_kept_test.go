package luabind

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// heapNow is the Go heap's live bytes after a collection.
func heapNow() int64 {
	// Collect until the heap stops shrinking: what a finalizer keeps
	// (a closed runtime of an earlier subtest) is freed only by a
	// collection after the finalizer has run.
	var m runtime.MemStats
	last := int64(-1)
	for range 5 {
		runtime.GC()
		runtime.ReadMemStats(&m)
		if last >= 0 && last-int64(m.HeapAlloc) < 1<<20 {
			break
		}
		last = int64(m.HeapAlloc)
		time.Sleep(10 * time.Millisecond) // let the finalizers run
	}
	return int64(m.HeapAlloc)
}

// TestMemoryKeptOutsideLuaCounts: strings a body keeps in its agent's
// state and tables it keeps in its facts count against its memory limit,
// which fires before the agent holds twice the limit of real heap.
func TestMemoryKeptOutsideLuaCounts(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory skews the heap figures")
	}
	for _, tc := range []struct{ file, line string }{{"hoard_state.lua", ":9: "}, {"hoard_facts.lua", ":10: "}, {"deep_threads.lua", ":17: "}} {
		t.Run(tc.file, func(t *testing.T) {
			rt := NewRuntime(Options{})
			defer rt.Close()
			path := filepath.Join("testdata", tc.file)
			d, err := rt.LoadDomain(path)
			require.NoError(t, err)
			w := engine.NewWorld(1)
			var fail string
			w.OnEvent = func(e record.Event) {
				if e.Kind == record.EventFail && fail == "" {
					fail = e.Reason
				}
			}
			base := heapNow()
			w.Add(engine.NewAgent("hoarder", d))
			var most int64
			for tick := 0; tick < 60 && fail == ""; tick++ {
				w.Tick(0.1)
				// Every tick: the limit fires a few ticks in, and the tick
				// that fires drops what the body held.
				most = max(most, heapNow()-base)
			}
			require.NotEmpty(t, fail, "the limit fired (the heap grew by %d MiB)", most>>20)
			assert.Contains(t, fail, path+tc.line+"memory limit exceeded (64 MiB): ")
			assert.Less(t, most, int64(2*DefaultMemoryLimit), "the agent never held twice its limit")
			assert.Greater(t, most, int64(DefaultMemoryLimit/2), "it held a good part of it")
			t.Logf("%s: %s; the heap grew by at most %d MiB", tc.file, fail, most>>20)
		})
	}
}

// TestPrintRecordsKeepTheirFirst8KiB: a print record, which the agent's
// recorder keeps, holds at most the first 8 KiB of the text.
func TestPrintRecordsKeepTheirFirst8KiB(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "long_print.lua"))
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var prints []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPrint {
			prints = append(prints, e.Reason)
		}
	}
	w.Add(engine.NewAgent("talker", d))
	w.Tick(0.1)
	require.Len(t, prints, 1)
	want := "talker " + strings.Repeat("x", maxErrorBytes) + " ... (" + strconv.Itoa(100000-maxErrorBytes) + " more bytes cut)"
	assert.Equal(t, want, prints[0])
}

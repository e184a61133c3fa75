package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liveHeapForTests is the watchdog's figure of the live heap, after a
// collection if none was counted yet, so that the growths the tests
// below give (a few KB) can be subtracted from it.
func liveHeapForTests(t *testing.T) uint64 {
	t.Helper()
	startGCWatch()
	if gcWatch.live.Load() < 1<<20 {
		collectNow(t)
	}
	live := gcWatch.live.Load()
	require.GreaterOrEqual(t, live, uint64(64<<10), "the live heap after a collection")
	return live
}

// stableLive calls f with the watchdog's figure of the live heap until
// no collection changed that figure while f ran, so that f saw the
// figure it was given (a collection in between is rare; f is run again
// from the start when one happens).
func stableLive(t *testing.T, f func(live uint64)) {
	t.Helper()
	liveHeapForTests(t)
	for range 1000 {
		live := gcWatch.live.Load()
		f(live)
		if gcWatch.live.Load() == live {
			return
		}
	}
	require.Fail(t, "a collection ended during each of 1000 tries")
}

// TestTheHeapWatchdogMeasuresOnlyGrowthPastWhatTheBodyMayStillHold: after
// a collection, the watchdog measures the running code only when the
// live heap grew since the resume began by more than the agent's limit
// less what the body held at its last walk, asks the walk to stop one
// byte past the limit, and stops the code only when the walk found more
// than the limit. The walk is a stand-in here, and the heap's growth is
// set against the figure the watchdog reads, so no collection's timing
// decides the outcome.
func TestTheHeapWatchdogMeasuresOnlyGrowthPastWhatTheBodyMayStillHold(t *testing.T) {
	const limit, held = 10_000, 4_000 // the body may still take 6,000 bytes
	const stopped = "memory limit exceeded (1 MiB): the running code holds about 1 MiB (see luabind.Options.MemoryLimit)"
	for _, c := range []struct {
		name     string
		growth   int64 // of the live heap since the resume began
		measured int64 // what the walk finds
		stops    []int64
		err      string
		reason   string
	}{
		{"the heap shrank", -1, 1 << 20, nil, "", "no growth: nothing measured"},
		{"grown by what the body may still take", 6_000, 1 << 20, nil, "", "the limit less what the body held: nothing measured"},
		{"grown by a byte more", 6_001, 10_001, []int64{10_001}, stopped, "measured, up to a byte past the limit, and found past it"},
		{"grown by a byte more, holding exactly the limit", 6_001, 10_000, []int64{10_001}, "", "measured; the limit itself is allowed"},
		{"grown by the limit", 10_000, 10_001, []int64{10_001}, stopped, "past the limit less what the body held, below the limit plus it: measured"},
	} {
		var stops []int64
		var spent error
		var live0, given uint64
		stableLive(t, func(live uint64) {
			b := &budget{mem: memoryWatch{limit: limit, held: held, live0: live - uint64(c.growth), cycles: ^uint64(0)}}
			stops = nil
			b.measure = func(stop int64) int64 {
				stops = append(stops, stop)
				return c.measured
			}
			b.watchHeap()
			spent, live0, given = b.spent, b.mem.live0, live
		})
		if c.stops != nil {
			assert.Equal(t, given, live0, "%s: a measure counts the growth afresh from there", c.name)
		}
		assert.Equal(t, c.stops, stops, "%s: %s", c.name, c.reason)
		if c.err == "" {
			assert.NoError(t, spent, "%s: %s", c.name, c.reason)
		} else if assert.Error(t, spent, "%s: %s", c.name, c.reason) {
			assert.Equal(t, c.err, spent.Error(), c.name)
		}
	}
}

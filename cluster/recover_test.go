package cluster

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moonmind-ai/moonmind/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%03d", prefix, i)
	}
	return out
}

// xs returns the x of every agent of a zone, as its last tick left them.
func (c *census) xs(key string) map[string]float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]float64{}
	for k, v := range c.zones[key] {
		out[k] = v
	}
	return out
}

// firstXs returns the x of every agent of a zone at the zone's first tick
// with agents.
func (c *census) firstXs(key string) map[string]float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first[key]
}

// A shard dies: the other shard takes its zone over when the lease
// expires and restores every agent from the zone's last snapshot.
func TestDeadShardsZoneIsRestoredElsewhere(t *testing.T) {
	tz := newZones(t, nil, names("w", 40), nil)
	require.Eventually(t, func() bool { return len(tz.c.xs("a/west")) == 40 }, 10*time.Second, 10*time.Millisecond)
	var saved map[string]float64
	require.Eventually(t, func() bool {
		saved = snapshotXs(t, tz.stores["b"], "west", tz.d)
		if len(saved) != 40 {
			return false
		}
		for _, x := range saved {
			if x < 1 {
				return false
			}
		}
		return true
	}, 10*time.Second, 20*time.Millisecond, "a snapshot of west holds every agent, each having walked")
	tz.shards["a"].Kill()
	require.Eventually(t, func() bool { return len(tz.c.xs("b/west")) == 40 }, 15*time.Second, 20*time.Millisecond)
	last := tz.c.xs("a/west")
	first := tz.c.firstXs("b/west")
	for name, x := range saved {
		// Snapshots only move forward, and each is of a tick a made: b's
		// first tick starts from a snapshot at least as late as the one
		// seen above, and no later than a's last tick.
		assert.GreaterOrEqual(t, first[name], x, "%s resumes from the last snapshot, not an earlier one", name)
		assert.LessOrEqual(t, first[name], last[name], "%s resumes from a tick a made", name)
	}
	owners, err := tz.stores["b"].Owners(testCtx(t))
	require.NoError(t, err)
	assert.Len(t, owners, 40)
	for _, name := range names("w", 40) {
		assert.Equal(t, "west", owners[name])
	}
	west := startsOf(tz.c.kinds(ZoneStarted), "west")
	require.GreaterOrEqual(t, len(west), 2)
	assert.Equal(t, "a", west[0].Shard, "a started west")
	started := west[len(west)-1]
	assert.Positive(t, started.Latency, "the time from the claim to the start")
	started.Latency = 0
	assert.Equal(t, Record{Kind: ZoneStarted, Shard: "b", Zone: "west", Count: 40}, started)
	assert.Empty(t, tz.c.kinds(Lost))
}

// A shard that drains writes a final snapshot and releases its leases:
// the other shard takes the zone at once and loses no progress.
func TestDrainedShardsZoneLosesNothing(t *testing.T) {
	tz := newZones(t, nil, names("w", 20), nil)
	require.Eventually(t, func() bool { return len(tz.c.xs("a/west")) == 20 }, 10*time.Second, 10*time.Millisecond)
	tz.stop["a"]()
	require.NoError(t, <-tz.done["a"])
	tz.done["a"] <- nil // for the cleanup
	last := tz.c.xs("a/west")
	require.Eventually(t, func() bool { return len(tz.c.xs("b/west")) == 20 }, 10*time.Second, 20*time.Millisecond)
	stopped := tz.c.kinds(ZoneStopped)
	require.Len(t, stopped, 1)
	assert.Equal(t, Record{Kind: ZoneStopped, Shard: "a", Zone: "west", Count: 20}, stopped[0])
	west := startsOf(tz.c.kinds(ZoneStarted), "west")
	require.GreaterOrEqual(t, len(west), 2)
	assert.Equal(t, "a", west[0].Shard, "a started west")
	started := west[len(west)-1]
	assert.Positive(t, started.Latency, "the time from the claim to the start")
	started.Latency = 0
	assert.Equal(t, Record{Kind: ZoneStarted, Shard: "b", Zone: "west", Count: 20}, started)
	first := tz.c.xs("b/west")
	for name, x := range last {
		assert.GreaterOrEqual(t, first[name], x, "%s continues from its last tick on the drained shard", name)
	}
}

// snapshotXs returns the x of every agent in a zone's last snapshot, or
// none when the zone has no snapshot yet.
func snapshotXs(t *testing.T, st *Store, zone string, d *engine.Domain) map[string]float64 {
	// Called from require.Eventually's goroutine, so never FailNow: a read
	// that fails is tried again, a snapshot that does not restore fails
	// an assertion.
	zs, err := st.lastZoneSnap(testCtx(t), zone)
	if zs == nil || err != nil {
		return nil
	}
	w, err := zs.restore(engine.RestoreOptions{Domains: []*engine.Domain{d}})
	if !assert.NoError(t, err, "the last snapshot of %s restores", zone) {
		return nil
	}
	out := map[string]float64{}
	for _, a := range w.Agents {
		out[a.Name], _ = a.Get("x").AsNumber()
	}
	return out
}

// startsOf returns the zone-started records of one zone, in order. A
// loaded machine may start a zone again (a renewal late past the lease's
// TTL), so tests look at a zone's first and last starts.
func startsOf(started []Record, zone string) []Record {
	var out []Record
	for _, r := range started {
		if r.Zone == zone {
			out = append(out, r)
		}
	}
	return out
}

// drainWest spawns 20 walkers in west on shard a, which snapshots only
// when it drains, lets them walk, and drains a with lapse called just
// before west checks its lease for the final snapshot. It returns a's
// error and the walkers' x as a last ticked them.
func drainWest(t *testing.T, lapse func(tz *twoZones, z *Zone)) (*twoZones, map[string]float64, error) {
	var tz *twoZones
	hooks := map[string]*testHooks{"a": {beforeFinal: func(z *Zone) { lapse(tz, z) }}}
	tz = newZonesWith(t, hooks, names("w", 20), nil, func(o *Options) {
		if o.Name == "a" {
			o.SnapshotEvery = time.Hour
		}
	})
	require.Eventually(t, func() bool {
		xs := tz.c.xs("a/west")
		return len(xs) == 20 && xs["w019"] >= 30
	}, 10*time.Second, 10*time.Millisecond)
	tz.stop["a"]()
	err := <-tz.done["a"]
	tz.done["a"] <- nil // for the cleanup
	return tz, tz.c.xs("a/west"), err
}

// A drain whose lease lapsed on the shard only (its renewal came late)
// renews it and still writes the final snapshot: nothing is lost.
func TestDrainRenewsALapsedLease(t *testing.T) {
	tz, last, err := drainWest(t, func(_ *twoZones, z *Zone) {
		z.setLease(z.lease(), time.Now().Add(-time.Second))
	})
	require.NoError(t, err)
	stopped := tz.c.kinds(ZoneStopped)
	require.Len(t, stopped, 1)
	assert.Equal(t, Record{Kind: ZoneStopped, Shard: "a", Zone: "west", Count: 20}, stopped[0])
	require.Eventually(t, func() bool { return len(tz.c.xs("b/west")) == 20 }, 10*time.Second, 20*time.Millisecond)
	first := tz.c.firstXs("b/west")
	for name, x := range last {
		assert.GreaterOrEqual(t, first[name], x, "%s continues from its last tick on the drained shard", name)
	}
	assert.Empty(t, tz.c.kinds(Lost))
}

// A drain whose lease another shard took meanwhile writes no final
// snapshot (the zone may be running elsewhere already) and says so. The
// zone's new owner restores it from its previous snapshot (here none)
// and the hand-off stream: every agent comes back exactly once, as it
// was in the last snapshot or, when it arrived after it (here: spawned),
// as it arrived; what it did since is lost.
func TestDrainThatLostItsLeaseLeavesTheZoneToItsNextOwner(t *testing.T) {
	tz, last, err := drainWest(t, func(tz *twoZones, z *Zone) {
		ctx := testCtx(t)
		// On west's goroutine: assert, not require.
		assert.NoError(t, tz.stores["a"].Release(ctx, z.lease()))
		_, err := tz.stores["b"].Claim(ctx, "west", "b")
		assert.NoError(t, err)
		z.setLease(z.lease(), time.Now().Add(-time.Second))
	})
	require.ErrorIs(t, err, ErrLeaseLost)
	assert.ErrorContains(t, err, "cluster: drain west: no final snapshot")
	assert.Empty(t, tz.c.kinds(ZoneStopped))
	require.Eventually(t, func() bool { return len(tz.c.xs("b/west")) == 20 }, 10*time.Second, 20*time.Millisecond)
	first := tz.c.firstXs("b/west")
	for name, x := range last {
		assert.Equal(t, 0.0, first[name], "%s comes back as it was spawned (the stream), not at %v", name, x)
	}
	owners, err := tz.stores["b"].Owners(testCtx(t))
	require.NoError(t, err)
	for _, name := range names("w", 20) {
		assert.Equal(t, "west", owners[name])
		assert.Equal(t, []string{"west"}, tz.c.where(name, tz.shards))
	}
	assert.Empty(t, tz.c.kinds(Lost))
}

// A zone that stopped ticking because its renewal came late, while its
// lease still names the shard, is started again and drained with the
// others: it gets its final snapshot.
func TestDrainFinishesAZoneThatStoppedTicking(t *testing.T) {
	hooks := map[string]*testHooks{"a": {beforeDrain: func(s *Shard) {
		z := s.Zone("west")
		if !assert.NotNil(t, z) {
			return
		}
		z.setLease(z.lease(), time.Now().Add(-time.Second)) // as a late renewal leaves it
		assert.Eventually(t, func() bool { return s.Zone("west") == nil }, 10*time.Second, 5*time.Millisecond)
	}}}
	tz := newZones(t, hooks, names("w", 20), nil)
	require.Eventually(t, func() bool { return len(tz.c.xs("a/west")) == 20 }, 10*time.Second, 10*time.Millisecond)
	tz.stop["a"]()
	require.NoError(t, <-tz.done["a"])
	tz.done["a"] <- nil // for the cleanup
	lost := tz.c.kinds(ZoneLost)
	require.Len(t, lost, 1)
	assert.Equal(t, Record{Kind: ZoneLost, Shard: "a", Zone: "west"}, lost[0])
	assert.Len(t, startsOf(tz.c.kinds(ZoneStarted), "west"), 2, "a started west, and again for its drain")
	stopped := tz.c.kinds(ZoneStopped)
	require.Len(t, stopped, 1)
	assert.Equal(t, Record{Kind: ZoneStopped, Shard: "a", Zone: "west", Count: 20}, stopped[0])
	in, err := tz.stores["b"].ZoneAgents(testCtx(t), "west")
	require.NoError(t, err)
	assert.Equal(t, names("w", 20), in, "the final snapshot holds every agent")
	require.Eventually(t, func() bool { return len(tz.c.xs("b/west")) == 20 }, 10*time.Second, 20*time.Millisecond)
	assert.Empty(t, tz.c.kinds(Lost))
}

// A draining zone takes back an agent whose hand-off its target never
// committed, even when the write that takes it back is made but its reply
// is lost: the shard reads the entry back, finds it moved on from the
// hand-off's revision to its own owner, and keeps the agent in its final
// snapshot, where the zone's next owner restores it.
func TestDrainTakesBackAnAgentWhoseTakeBackReplyIsLost(t *testing.T) {
	var armed atomic.Bool
	var replies atomic.Int32
	hooks := map[string]*testHooks{
		"a": {ownerReplyLost: func(agent string) bool {
			return armed.Load() && agent == "w1" && replies.Add(1) == 1
		}},
		"b": {lose: func(zone, agent string) bool { return agent == "w1" }}, // east never gets w1
	}
	tz := newTwoZones(t, hooks)
	require.Eventually(t, func() bool { return len(tz.c.xs("a/west")) == 1 }, 10*time.Second, 10*time.Millisecond)
	armed.Store(true) // the next owner write of w1 is the take-back
	tz.move.Store(true)
	require.Eventually(t, func() bool { return len(tz.c.kinds(Sent)) == 1 }, 10*time.Second, 10*time.Millisecond)
	tz.stop["a"]()
	require.NoError(t, <-tz.done["a"])
	tz.done["a"] <- nil // for the cleanup
	assert.Equal(t, int32(1), replies.Load(), "the take-back's reply was lost once")
	took := tz.c.kinds(TookBack)
	require.Len(t, took, 1)
	assert.Equal(t, "w1", took[0].Agent)
	assert.Equal(t, "east", took[0].Peer)
	in, err := tz.stores["b"].ZoneAgents(testCtx(t), "west")
	require.NoError(t, err)
	assert.Equal(t, []string{"w1"}, in, "the final snapshot holds the agent taken back")
	assert.Equal(t, "west", tz.owner(t, "w1"))
	assert.Empty(t, tz.c.kinds(Lost))
}

package cluster

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLeaseClaimRenewAndTakeOver(t *testing.T) {
	srv := testServer(t)
	a, b := testStore(t, srv), testStore(t, srv)
	ctx := testCtx(t)

	var mu sync.Mutex
	var seen []Lease
	var released []bool // the shard's own watch also tells a release from an expiry
	require.NoError(t, b.watchLeases(ctx, func(l Lease, rel bool) {
		mu.Lock()
		seen = append(seen, Lease{Zone: l.Zone, Shard: l.Shard})
		released = append(released, rel)
		mu.Unlock()
	}))

	la, err := a.Claim(ctx, "north", "shard-a")
	require.NoError(t, err)
	assert.Equal(t, "shard-a", la.Shard)

	_, err = b.Claim(ctx, "north", "shard-b")
	require.ErrorIs(t, err, ErrLeaseHeld)
	assert.Equal(t, "cluster: claim north: cluster: lease held by another shard (shard-a)", err.Error())

	// Renewing keeps the lease past its TTL.
	for i := 0; i < 3; i++ {
		time.Sleep(400 * time.Millisecond)
		la, err = a.Renew(ctx, la)
		require.NoError(t, err)
	}
	h, err := b.Holder(ctx, "north")
	require.NoError(t, err)
	assert.Equal(t, "shard-a", h.Shard)

	// A stale revision is a lost lease.
	_, err = a.Renew(ctx, Lease{Zone: "north", Shard: "shard-a", Revision: la.Revision - 1})
	require.ErrorIs(t, err, ErrLeaseLost)

	// Shard a stops renewing: the lease expires, the watch says so, and
	// shard b takes the zone over.
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) > 0 && seen[len(seen)-1] == Lease{Zone: "north"}
	}, 10*time.Second, 50*time.Millisecond)
	mu.Lock()
	assert.False(t, released[len(released)-1], "an expiry is no release")
	mu.Unlock()
	lb, err := b.Claim(ctx, "north", "shard-b")
	require.NoError(t, err)
	assert.Equal(t, "shard-b", lb.Shard)

	// The old holder's renewal now fails: it must stop ticking the zone.
	_, err = a.Renew(ctx, la)
	require.ErrorIs(t, err, ErrLeaseLost)

	// Claiming a lease one already holds renews it; release frees it.
	again, err := b.Claim(ctx, "north", "shard-b")
	require.NoError(t, err)
	assert.Greater(t, again.Revision, lb.Revision)
	require.NoError(t, b.Release(ctx, again))
	h, err = a.Holder(ctx, "north")
	require.NoError(t, err)
	assert.Equal(t, "", h.Shard)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) > 0 && seen[len(seen)-1] == Lease{Zone: "north"} && released[len(released)-1]
	}, 10*time.Second, 10*time.Millisecond, "the watch sees the release as one")

	_, err = a.Claim(ctx, "no.dots", "shard-a")
	require.Error(t, err)
	assert.Equal(t, `cluster: zone "no.dots": use letters, digits, - and _`, err.Error())
}

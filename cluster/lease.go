package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrLeaseHeld is returned by Claim when another shard holds the zone's
// lease; ErrLeaseLost by Renew when the lease expired or was taken since
// the revision renewed.
var (
	ErrLeaseHeld = errors.New("cluster: lease held by another shard")
	ErrLeaseLost = errors.New("cluster: lease lost")
)

// Lease is a shard's hold on a zone: the zone's key in the lease bucket,
// written by the shard at Revision. It lasts the store's LeaseTTL after
// that write.
type Lease struct {
	Zone, Shard string
	Revision    uint64
}

// Claim takes the zone's lease for shard: it creates the zone's key, which
// only succeeds when no live lease has it (never claimed, released, or
// expired: a lease not renewed for LeaseTTL is gone). When shard already
// holds it (a shard that resumes a zone it stopped ticking), Claim renews
// it. Otherwise the error wraps ErrLeaseHeld and names the holder.
func (s *Store) Claim(ctx context.Context, zone, shard string) (Lease, error) {
	if !nameRE.MatchString(zone) {
		return Lease{}, fmt.Errorf("cluster: zone %q: use letters, digits, - and _", zone)
	}
	rev, err := s.leases.Create(ctx, zone, []byte(shard))
	if err == nil {
		return Lease{Zone: zone, Shard: shard, Revision: rev}, nil
	}
	if !casConflict(err) {
		return Lease{}, fmt.Errorf("cluster: claim %s: %w", zone, err)
	}
	cur, err := s.Holder(ctx, zone)
	if err != nil {
		return Lease{}, err
	}
	if cur.Shard == shard {
		return s.Renew(ctx, cur)
	}
	return Lease{}, fmt.Errorf("cluster: claim %s: %w (%s)", zone, ErrLeaseHeld, cur.Shard)
}

// Renew writes the lease again at its revision (a compare-and-set), so it
// lasts another LeaseTTL, and returns it with its new revision. When the
// key changed since (the lease expired and another shard claimed it) the
// error wraps ErrLeaseLost: the shard must stop ticking the zone.
func (s *Store) Renew(ctx context.Context, l Lease) (Lease, error) {
	rev, err := s.leases.Update(ctx, l.Zone, []byte(l.Shard), l.Revision)
	if err != nil {
		if casConflict(err) || errors.Is(err, jetstream.ErrKeyNotFound) {
			return Lease{}, fmt.Errorf("cluster: renew %s: %w", l.Zone, ErrLeaseLost)
		}
		return Lease{}, fmt.Errorf("cluster: renew %s: %w", l.Zone, err)
	}
	l.Revision = rev
	return l, nil
}

// Release gives the lease up at once (a draining shard), when it is still
// the one at l.Revision.
func (s *Store) Release(ctx context.Context, l Lease) error {
	if err := s.leases.Delete(ctx, l.Zone, jetstream.LastRevision(l.Revision)); err != nil {
		return fmt.Errorf("cluster: release %s: %w", l.Zone, err)
	}
	return nil
}

// Holder returns the zone's live lease; Shard is empty when none holds it.
func (s *Store) Holder(ctx context.Context, zone string) (Lease, error) {
	e, err := s.leases.Get(ctx, zone)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return Lease{Zone: zone}, nil
	}
	if err != nil {
		return Lease{}, fmt.Errorf("cluster: lease of %s: %w", zone, err)
	}
	return Lease{Zone: zone, Shard: string(e.Value()), Revision: e.Revision()}, nil
}

// WatchLeases calls f from its own goroutine with every change of a
// lease, first with every live lease: a claim or renewal (Shard set) or an
// expiry or release (Shard empty). It stops when ctx ends.
func (s *Store) WatchLeases(ctx context.Context, f func(Lease)) error {
	return s.watchLeases(ctx, func(l Lease, _ bool) { f(l) })
}

// watchLeases is WatchLeases, telling a release (released true) from an
// expiry.
func (s *Store) watchLeases(ctx context.Context, f func(l Lease, released bool)) error {
	w, err := s.leases.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("cluster: watch leases: %w", err)
	}
	go func() {
		for e := range w.Updates() {
			if e == nil {
				continue // the end of the live leases
			}
			l := Lease{Zone: e.Key(), Revision: e.Revision()}
			if e.Operation() == jetstream.KeyValuePut {
				l.Shard = string(e.Value())
			}
			// Release deletes the key; an expiry leaves a marker that
			// reads as a purge.
			f(l, e.Operation() == jetstream.KeyValueDelete)
		}
	}()
	return nil
}

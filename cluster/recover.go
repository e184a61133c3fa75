package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/moonmind-ai/moonmind/engine"
)

// saveSnapshot encodes a zone's snapshot and stores it in the object
// store, off the zone's goroutine.
func (s *Shard) saveSnapshot(z *Zone, seq uint64, zs *zoneSnap) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		b, err := zs.encode()
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
		defer cancel()
		_ = s.putSnapshot(ctx, z, seq, b)
	}()
}

// snapSlot orders the writes of one zone's snapshots: seq is the newest
// written.
type snapSlot struct {
	mu  sync.Mutex
	seq uint64
}

// putSnapshot writes a zone's snapshot made as the shard's seq-th, unless
// a newer one of the zone is written already: a slow periodic write must
// not replace a drain's final snapshot. The snapshot is stored under a
// name of its own and becomes the zone's current one by a compare-and-set
// of the zone's entry in the latest bucket at the revision this zone's
// start left there; a shard that lost the zone (its write came late, after
// a new owner fenced the entry) fails there and its write is dropped. A
// conflict while the shard's lease is live can only come from its own
// earlier write whose reply was lost; the write is made again at the
// entry's revision.
func (s *Shard) putSnapshot(ctx context.Context, z *Zone, seq uint64, b []byte) error {
	s.mu.Lock()
	slot := s.snapSlots[z.Name]
	if slot == nil {
		slot = &snapSlot{}
		s.snapSlots[z.Name] = slot
	}
	s.mu.Unlock()
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if s.dead.Load() || seq <= slot.seq {
		return nil
	}
	name := z.Name + "-" + nuid.Next()
	if _, err := s.st.snaps.PutBytes(ctx, name, b); err != nil {
		return fmt.Errorf("cluster: snapshot of %s: %w", z.Name, err)
	}
	rev, err := s.st.latest.Update(ctx, z.Name, []byte(name), z.latestRev)
	if casConflict(err) && z.leaseValid(time.Now()) {
		// The entry moved although this shard holds the zone's lease, so
		// no other shard can have fenced it: an earlier write of this
		// shard landed but its reply was lost (the server restarted
		// meanwhile). Write again at the entry's revision.
		if e, gerr := s.st.latest.Get(ctx, z.Name); gerr == nil {
			rev, err = s.st.latest.Update(ctx, z.Name, []byte(name), e.Revision())
		}
	}
	if err != nil {
		_ = s.st.snaps.Delete(ctx, name)
		return fmt.Errorf("cluster: snapshot of %s: %w", z.Name, err)
	}
	if z.latestName != "" {
		_ = s.st.snaps.Delete(ctx, z.latestName)
	}
	z.latestRev, z.latestName = rev, name
	slot.seq = seq
	return nil
}

// fenceSnapshot makes the zone's current snapshot entry the new zone's:
// it writes the entry again at its revision, so that a write of the
// zone's previous owner can no longer replace it, and returns the name of
// the snapshot ("" when the zone has none).
func (s *Shard) fenceSnapshot(ctx context.Context, z *Zone) (string, error) {
	for range 10 {
		e, err := s.st.latest.Get(ctx, z.Name)
		if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
			// None yet: an empty entry, so that a late first write of
			// another shard cannot create it after this.
			rev, err := s.st.latest.Create(ctx, z.Name, nil)
			if casConflict(err) {
				continue
			}
			if err != nil {
				return "", fmt.Errorf("cluster: snapshot of %s: %w", z.Name, err)
			}
			z.latestRev, z.latestName = rev, ""
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("cluster: snapshot of %s: %w", z.Name, err)
		}
		rev, err := s.st.latest.Update(ctx, z.Name, e.Value(), e.Revision())
		if casConflict(err) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cluster: snapshot of %s: %w", z.Name, err)
		}
		z.latestRev, z.latestName = rev, string(e.Value())
		return z.latestName, nil
	}
	return "", fmt.Errorf("cluster: snapshot of %s: its entry keeps changing", z.Name)
}

// newZone makes the zone of a lease just claimed.
func (s *Shard) newZone(l Lease, until time.Time) *Zone {
	z := &Zone{Name: l.Zone, shard: s, held: map[string]held{}, out: map[string]*transit{},
		stop: make(chan bool, 1), done: make(chan struct{}), claimed: time.Now()}
	z.setLease(l, until)
	return z
}

// startZone starts a zone whose lease the shard just claimed: from its
// last snapshot, keeping the agents the zone still owns and fencing each
// (a compare-and-set of its owner entry, so that a hand-off the dead
// owner had sent and nobody committed can no longer commit), then adding
// the agents handed to it after the snapshot and committing the
// hand-offs still waiting for it, both from the hand-off stream.
func (s *Shard) startZone(z *Zone) error {
	ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
	defer cancel()
	l := z.lease()
	nc := s.st.nc
	sub, err := nc.Subscribe(s.st.prefix+".handoff."+l.Zone+".*", func(m *nats.Msg) {
		h, ok := readHandoff(m.Subject, m.Header, m.Data)
		if !ok {
			return
		}
		// Each commit waits for a round trip to the server: several run
		// at once, so that a burst of hand-offs does not queue behind one
		// another (of two deliveries of one hand-off, the compare-and-set
		// lets one commit; adoption ignores the other).
		s.receiving <- struct{}{}
		go func() {
			defer func() { <-s.receiving }()
			s.receive(z, h)
		}()
	})
	if err != nil {
		return fmt.Errorf("cluster: zone %s: %w", l.Zone, err)
	}
	z.subs = append(z.subs, sub)
	for subj, f := range map[string]nats.MsgHandler{
		s.st.confirmSubject(l.Zone): func(m *nats.Msg) { s.confirmed(z, m) },
		s.st.tellSubject(l.Zone):    func(m *nats.Msg) { s.told(z, m) },
	} {
		sub, err := nc.Subscribe(subj, f)
		if err != nil {
			z.halt()
			return fmt.Errorf("cluster: zone %s: %w", l.Zone, err)
		}
		z.subs = append(z.subs, sub)
	}
	fail := func(err error) error {
		s.mu.Lock()
		delete(s.starting, l.Zone)
		s.mu.Unlock()
		z.halt()
		return err
	}

	name, err := s.fenceSnapshot(ctx, z)
	if err != nil {
		return fail(err)
	}
	w, snapped, err := s.loadSnapshot(ctx, l.Zone, name)
	if err != nil {
		return fail(err)
	}
	z.World = w
	owned, err := s.st.owned(ctx, l.Zone)
	if err != nil {
		return fail(err)
	}
	// Each fence is a round trip to the server: several run at once.
	type fenced struct {
		rev     uint64
		kept    bool
		err     error
		handoff string
	}
	agents := slices.Clone(w.Agents)
	fences := make([]fenced, len(agents))
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxReceiving)
	for i, a := range agents {
		e, ok := owned[a.Name]
		if !ok || e.Handoff != snapped[a.Name] {
			continue // it left after the snapshot
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			rev, ok, err := s.fence(ctx, a.Name, e)
			// Not ok: a hand-off out of the zone committed just now.
			fences[i] = fenced{rev: rev, kept: ok, err: err, handoff: e.Handoff}
		})
	}
	wg.Wait()
	for i, a := range agents {
		f := fences[i]
		if f.err != nil {
			return fail(fmt.Errorf("cluster: zone %s: fence %s: %w", l.Zone, a.Name, f.err))
		}
		if !f.kept {
			w.Remove(a)
			continue
		}
		z.held[a.Name] = held{handoff: f.handoff, rev: f.rev}
	}
	if err := s.arrivals(ctx, z, owned); err != nil {
		return fail(err)
	}
	if err := s.waiting(ctx, z); err != nil {
		return fail(err)
	}
	z.facts = s.st.factView()
	s.mu.Lock()
	if s.dead.Load() || z.lost.Load() {
		s.mu.Unlock()
		return fail(fmt.Errorf("cluster: zone %s: %w while it started", l.Zone, ErrLeaseLost))
	}
	delete(s.starting, l.Zone)
	s.running[l.Zone] = z
	s.mu.Unlock()
	s.record(Record{Kind: ZoneStarted, Zone: l.Zone, Count: len(z.held), Latency: time.Since(z.claimed)})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if s.opts.Start != nil {
			s.opts.Start(z)
		}
		z.loop()
	}()
	return nil
}

// fence writes an agent's owner entry again, unchanged, so that a
// hand-off the zone's previous owner sent from the revision read can no
// longer commit, and returns the new revision. The entry may have been
// written since it was read: when it still says the same (a draining
// previous owner took the agent back from a hand-off that never
// committed), the fence is tried again at the new revision; when it says
// otherwise (a hand-off out of the zone committed), ok is false.
func (s *Shard) fence(ctx context.Context, agent string, e ownedEntry) (rev uint64, ok bool, err error) {
	for range 10 {
		rev, err := s.st.setOwner(ctx, agent, e.owner, e.rev)
		if err == nil {
			return rev, true, nil
		}
		if !casConflict(err) {
			return 0, false, err
		}
		cur, crev, err := s.st.ownerOf(ctx, agent)
		if err != nil {
			return 0, false, err
		}
		if cur != e.owner {
			return 0, false, nil
		}
		e.rev = crev
	}
	return 0, false, fmt.Errorf("cluster: owner of %s keeps changing", agent)
}

// arrivals adds the agents the zone owns that its snapshot lacks (they
// arrived after it, or the zone never wrote one): each from the last
// hand-off into the zone on its subject in the stream, one direct read
// per agent, when that is the hand-off its owner entry names; it fences
// each first. An agent it finds no copy of is recorded as Lost.
func (s *Shard) arrivals(ctx context.Context, z *Zone, owned map[string]ownedEntry) error {
	var names []string
	for name := range owned {
		if _, ok := z.held[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	type arrival struct {
		h   handoffMsg
		rev uint64
		ok  bool
		err error
	}
	got := make([]arrival, len(names))
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxReceiving)
	for i, name := range names {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			e := owned[name]
			m, err := s.st.hand.GetLastMsgForSubject(ctx, s.st.handoffSubject(z.Name, name))
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				return
			}
			if err != nil {
				got[i].err = err
				return
			}
			h, ok := readHandoff(m.Subject, m.Header, m.Data)
			if !ok || h.id != e.Handoff {
				return
			}
			rev, ok, err := s.fence(ctx, name, e)
			// Not ok: a hand-off out of the zone committed just now.
			got[i] = arrival{h: h, rev: rev, ok: ok, err: err}
		})
	}
	wg.Wait()
	for i, name := range names {
		a := got[i]
		switch {
		case a.err != nil:
			return fmt.Errorf("cluster: zone %s: hand-off of %s: %w", z.Name, name, a.err)
		case a.h.id == "":
			s.record(Record{Kind: Lost, Zone: z.Name, Agent: name, Handoff: owned[name].Handoff,
				Err: errors.New("cluster: no snapshot or hand-off holds the agent")})
		case a.ok:
			moved, err := z.World.AddSnapshot(bytes.NewReader(a.h.snap), engine.RestoreOptions{Domains: s.opts.Domains})
			if err != nil || len(moved) != 1 {
				s.record(Record{Kind: Lost, Zone: z.Name, Agent: name, Handoff: a.h.id, Err: err})
				continue
			}
			z.held[name] = held{handoff: a.h.id, rev: a.rev}
		}
	}
	return nil
}

// waiting commits the hand-offs into the zone that wait in the stream
// because the zone had no owner when they were sent, as the zone's
// subscription commits a live one. It reads only the hand-offs stored
// since a lease's TTL and two HandoffRetry before the zone was claimed:
// a hand-off sent to a dead zone earlier is sent again by its source
// within HandoffRetry, so its last copy is in that window, and a source
// that does not send again either took the agent back or was restored
// with its own copy. Reading the zone's whole stream would make every
// hand-off waiting for the zone wait longer.
func (s *Shard) waiting(ctx context.Context, z *Zone) error {
	from := z.claimed.Add(-s.st.LeaseTTL() - 2*s.opts.HandoffRetry)
	c, err := s.st.js.OrderedConsumer(ctx, s.st.prefix+"_handoffs", jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{s.st.prefix + ".handoff." + z.Name + ".*"},
		DeliverPolicy:  jetstream.DeliverByStartTimePolicy,
		OptStartTime:   &from,
	})
	if err != nil {
		return fmt.Errorf("cluster: zone %s: hand-offs: %w", z.Name, err)
	}
	info, err := c.Info(ctx)
	if err != nil {
		return fmt.Errorf("cluster: zone %s: hand-offs: %w", z.Name, err)
	}
	left := info.NumPending
	var wg sync.WaitGroup
	defer wg.Wait()
	for left > 0 {
		batch, err := c.Fetch(int(min(left, 512)), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			return fmt.Errorf("cluster: zone %s: hand-offs: %w", z.Name, err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			left--
			h, ok := readHandoff(m.Subject(), m.Headers(), m.Data())
			if !ok || h.rev == 0 {
				continue // a spawn: committed by its zone already
			}
			if _, ok := z.held[h.agent]; ok {
				// The zone has it: a hand-off of it from an older revision
				// cannot commit, the fence moved its owner entry on.
				continue
			}
			// Several at once, as the subscription commits them.
			s.receiving <- struct{}{}
			wg.Go(func() {
				defer func() { <-s.receiving }()
				s.receive(z, h)
			})
		}
		if err := batch.Error(); err != nil && n == 0 {
			return fmt.Errorf("cluster: zone %s: hand-offs: %w", z.Name, err)
		}
	}
	return nil
}

// stopZone stops a running zone: drained (its hand-offs settled, a final
// snapshot written, its lease released) or halted at once.
func (s *Shard) stopZone(z *Zone, drain bool) error {
	forget := func() {
		s.mu.Lock()
		if s.running[z.Name] == z {
			delete(s.running, z.Name)
		}
		s.mu.Unlock()
	}
	if !drain {
		forget()
		z.halt()
		return nil
	}
	// A draining zone stays among the running ones, so that its lease is
	// renewed until it is released.
	select {
	case z.stop <- true:
	default:
	}
	<-z.done
	forget()
	return z.drainErr
}

// drain runs on the zone's goroutine: it stops taking agents in, waits a
// little for the hand-offs in flight, takes back those still unconfirmed
// when it can, writes the final snapshot and releases the lease.
func (z *Zone) drain() error {
	s := z.shard
	for _, sub := range z.subs {
		if sub.Subject != s.st.confirmSubject(z.Name) {
			_ = sub.Unsubscribe()
		}
	}
	// A hand-off being committed now still reaches the inbox below; none
	// is committed after this.
	z.recvMu.Lock()
	z.recvClosed = true
	z.recvMu.Unlock()
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	deadline := time.Now().Add(2 * s.opts.HandoffRetry)
	for {
		z.deliver()
		if len(z.out) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for name, t := range z.out {
		rev, err := s.writeOwner(ctx, name, owner{Zone: z.Name, Handoff: t.prev}, t.rev)
		if err != nil {
			continue // committed by the target after all, or the server is away
		}
		moved, err := z.World.AddSnapshot(bytes.NewReader(t.snap), engine.RestoreOptions{Domains: s.opts.Domains})
		if err == nil && len(moved) == 1 {
			z.held[name] = held{handoff: t.prev, rev: rev}
			s.record(Record{Kind: TookBack, Zone: z.Name, Agent: name, Handoff: t.id, Peer: t.to})
		}
	}
	z.out = map[string]*transit{}
	z.halt()
	if s.hooks != nil && s.hooks.beforeFinal != nil {
		s.hooks.beforeFinal(z)
	}
	// The final snapshot is written only under a live lease (the lease
	// loop renews it while the zone drains): a zone whose lease ran out
	// may have a new owner already. A lease that ran out here only (a
	// renewal came late) is renewed, or claimed again when it expired
	// and nobody took it.
	if !z.leaseValid(time.Now()) && !s.reclaim(ctx, z) {
		return fmt.Errorf("cluster: drain %s: no final snapshot: %w", z.Name, ErrLeaseLost)
	}
	seq := s.snapSeq.Add(1)
	zs, err := z.snapshotNow()
	var b []byte
	if err == nil {
		b, err = zs.encode()
	}
	if err == nil {
		err = s.putSnapshot(ctx, z, seq, b)
	}
	if err != nil {
		return err
	}
	s.record(Record{Kind: ZoneStopped, Zone: z.Name, Count: len(z.held)})
	z.renewMu.Lock()
	defer z.renewMu.Unlock()
	z.released = true
	return s.st.Release(ctx, z.lease())
}

// reclaim makes a draining zone's lapsed lease live again, for its final
// snapshot: renewed when it is still the shard's, claimed again when it
// expired and no other shard claimed it. It reports whether the lease is
// the shard's now. When it is not, another shard has the zone or will
// take it over, and restores it from its previous snapshot and the
// hand-off stream.
func (s *Shard) reclaim(ctx context.Context, z *Zone) bool {
	z.renewMu.Lock()
	defer z.renewMu.Unlock()
	at := time.Now()
	l, err := s.st.Renew(ctx, z.lease())
	if errors.Is(err, ErrLeaseLost) {
		l, err = s.st.Claim(ctx, z.Name, s.opts.Name)
	}
	if err != nil {
		return false
	}
	ttl := s.st.LeaseTTL()
	z.setLease(l, at.Add(ttl-ttl/4))
	return true
}

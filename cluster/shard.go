package cluster

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
)

// Options configures a Shard. Name, Zones and Domains are required; the
// zero value of every other field is its documented default.
type Options struct {
	// Name identifies the shard in the lease bucket; every live shard of a
	// cluster needs its own.
	Name string
	// Zones are every zone of the game, in a fixed order. A zone name
	// holds letters, digits, "-" and "_".
	Zones []string
	// Claim are the zones the shard claims when it starts (those another
	// shard holds are left to it).
	Claim []string
	// TakeOver lets the shard claim a zone of another shard whose lease
	// expires (a shard that died: at once) or is released (a shard that
	// drained: half a lease TTL later), and restore it from its last
	// snapshot. Without it the shard claims only the zones of Claim, when
	// they are free.
	TakeOver bool
	// Domains are the compiled domains of every agent that may enter the
	// shard's zones (engine.RestoreOptions.Domains).
	Domains []*engine.Domain
	// Rate is how many times a second each zone ticks; 60 when zero. A
	// zone's dt is always 1/Rate seconds.
	Rate float64
	// SnapshotEvery is how often each zone writes its snapshot to
	// JetStream; 5 s when zero.
	SnapshotEvery time.Duration
	// HandoffRetry is the longest the source of a hand-off waits for the
	// target's confirmation before it looks at the agent's owner and, when
	// the owner is unchanged, sends the hand-off again; 1 s when zero. The
	// first look comes after the zone's usual time to a confirmation and
	// some margin (at least four ticks, at most HandoffRetry), and each
	// wait after it is twice the one before, up to HandoffRetry.
	HandoffRetry time.Duration
	// Seed gives each zone's new world its seed (engine.NewWorld); an FNV
	// hash of the zone's name when nil.
	Seed func(zone string) uint64
	// Start, when set, is called on the zone's goroutine when the shard
	// starts a zone (fresh or restored), before its first tick: set the
	// world's OnEvent, Workers and the agents' Data here.
	Start func(z *Zone)
	// Step, when set, is the game's part of a zone's tick: called on the
	// zone's goroutine before each World.Tick, after messages, facts and
	// arriving agents were delivered.
	Step func(z *Zone)
	// Border, when set, is asked after each tick for every agent of the
	// zone: the name of the zone the agent now belongs in. An answer that
	// is not another zone of Zones keeps the agent where it is.
	Border func(z *Zone, a *engine.Agent) string
	// OnRecord, when set, receives the shard's records of hand-offs,
	// recoveries and zone changes (see Record), from the shard's
	// goroutines: it must be safe for concurrent use.
	OnRecord func(Record)
}

// Shard owns zones: for each zone it holds the lease of, it ticks one
// engine.World on a goroutine of its own at Options.Rate, hands agents
// that cross a border to the zone they enter, takes in the agents that
// enter its zones, snapshots its zones, and renews its leases. Run runs
// it. Its methods are safe for concurrent use.
type Shard struct {
	opts  Options
	st    *Store
	dt    float64
	zones map[string]bool // the zones of the game

	mu       sync.Mutex
	running  map[string]*Zone
	starting map[string]*Zone // zones claimed and being restored

	wasHeld map[string]bool // zones seen held by another shard (the lease loop's)
	// releasedAt holds the zones whose lease was released (not expired)
	// and when, from the watch (under mu).
	releasedAt map[string]time.Time
	snapSlots  map[string]*snapSlot // per zone, the order of its snapshot writes
	snapSeq    atomic.Uint64        // the number of the shard's last zone snapshot

	poke     chan struct{} // wakes the lease loop early (a lease expired)
	ready    chan struct{}
	dead     atomic.Bool // killed: do nothing more
	draining atomic.Bool // Run's context ended: claim nothing more
	tellSeq  atomic.Uint64
	// receiving holds a token per hand-off being committed: a bound on
	// the commits in flight at once.
	receiving chan struct{}
	ctx       context.Context // Run's, for the shard's own calls
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	hooks     *testHooks
}

// maxReceiving is how many hand-offs into a shard's zones are committed at
// once at most.
const maxReceiving = 16

// NewShard checks opts and returns a shard over st. Run starts it.
func NewShard(st *Store, opts Options) (*Shard, error) {
	if opts.Name == "" {
		return nil, errors.New("cluster: shard: no Name")
	}
	if len(opts.Zones) == 0 {
		return nil, errors.New("cluster: shard " + opts.Name + ": no Zones")
	}
	zones := map[string]bool{}
	for _, z := range opts.Zones {
		if !nameRE.MatchString(z) {
			return nil, fmt.Errorf("cluster: shard %s: zone %q: use letters, digits, - and _", opts.Name, z)
		}
		zones[z] = true
	}
	for _, z := range opts.Claim {
		if !zones[z] {
			return nil, fmt.Errorf("cluster: shard %s: claims zone %q, which is not in Zones", opts.Name, z)
		}
	}
	if opts.Rate <= 0 {
		opts.Rate = 60
	}
	if opts.SnapshotEvery <= 0 {
		opts.SnapshotEvery = 5 * time.Second
	}
	if opts.HandoffRetry <= 0 {
		opts.HandoffRetry = time.Second
	}
	if opts.Seed == nil {
		opts.Seed = func(zone string) uint64 {
			h := fnv.New64a()
			h.Write([]byte(zone))
			return h.Sum64()
		}
	}
	return &Shard{opts: opts, st: st, dt: 1 / opts.Rate, zones: zones, running: map[string]*Zone{}, starting: map[string]*Zone{}, wasHeld: map[string]bool{}, releasedAt: map[string]time.Time{}, snapSlots: map[string]*snapSlot{},
		poke: make(chan struct{}, 1), ready: make(chan struct{}), receiving: make(chan struct{}, maxReceiving)}, nil
}

// Name returns the shard's name.
func (s *Shard) Name() string { return s.opts.Name }

// Store returns the shard's store.
func (s *Shard) Store() *Store { return s.st }

// Ready is closed once the shard has claimed the zones of Options.Claim
// that were free and started them (restored, and the Start callback
// called or about to be): a readiness probe.
func (s *Shard) Ready() <-chan struct{} { return s.ready }

// Zones returns the names of the zones the shard runs now, in the order
// of Options.Zones.
func (s *Shard) Zones() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, z := range s.opts.Zones {
		if s.running[z] != nil {
			out = append(out, z)
		}
	}
	return out
}

// Zone returns the running zone of that name, or nil.
func (s *Shard) Zone(name string) *Zone {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[name]
}

// Run claims the zones of Options.Claim, runs them, renews their leases
// and (with TakeOver) takes over zones whose lease expires, until ctx
// ends. Then it drains: each zone finishes its hand-offs in flight (or
// takes the agents back), writes a final snapshot and releases its lease,
// so another shard can take the zone at once. A drained shard cannot run
// again. Run returns the first error of the drain, or nil.
func (s *Shard) Run(ctx context.Context) error {
	s.ctx, s.cancel = context.WithCancel(context.Background())
	defer s.cancel()
	watchCtx, stopWatch := context.WithCancel(s.ctx)
	defer stopWatch()
	if err := s.st.watchLeases(watchCtx, func(l Lease, released bool) {
		s.mu.Lock()
		if released {
			s.releasedAt[l.Zone] = time.Now()
		} else {
			delete(s.releasedAt, l.Zone)
		}
		s.mu.Unlock()
		if l.Shard == "" {
			select {
			case s.poke <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		return err
	}
	if err := s.st.watchFacts(watchCtx, func() {
		for _, z := range s.runningZones() {
			z.push(inItem{kind: inFacts})
		}
	}); err != nil {
		return err
	}
	s.leaseRound()
	s.waitStarted()
	close(s.ready)
	tick := time.NewTicker(s.st.LeaseTTL() / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			// Leases are renewed while the zones drain, so that each
			// zone's final snapshot is written under its own lease.
			s.draining.Store(true)
			done := make(chan error, 1)
			go func() { done <- s.drain() }()
			for {
				select {
				case err := <-done:
					return err
				case <-tick.C:
					s.leaseRound()
				}
			}
		case <-s.ctx.Done():
			return nil // killed
		case <-tick.C:
			s.leaseRound()
		case <-s.poke:
			s.leaseRound()
		}
	}
}

// leaseRound renews the leases of the running zones (a zone whose lease is
// lost stops at once) and claims the zones the shard may take.
func (s *Shard) leaseRound() {
	if s.dead.Load() {
		return
	}
	ttl := s.st.LeaseTTL()
	for _, z := range s.leasedZones() {
		at := time.Now()
		z.renewMu.Lock()
		if z.released {
			z.renewMu.Unlock()
			continue
		}
		l, err := s.st.Renew(s.ctx, z.lease())
		z.renewMu.Unlock()
		switch {
		case err == nil:
			z.setLease(l, at.Add(ttl-ttl/4))
		case errors.Is(err, ErrLeaseLost):
			z.lost.Store(true) // a zone still starting sees it when it is done
			_ = s.stopZone(z, false)
			s.record(Record{Kind: ZoneLost, Zone: z.Name})
		}
		// Any other error (the server is away) leaves the zone running
		// until its lease would have run out (Zone.leaseUntil).
	}
	if s.draining.Load() {
		return
	}
	for _, name := range s.opts.Zones {
		if s.busy(name) || (!s.opts.TakeOver && !slices.Contains(s.opts.Claim, name)) {
			continue
		}
		h, err := s.st.Holder(s.ctx, name)
		if err != nil || (h.Shard != "" && h.Shard != s.opts.Name) {
			if err == nil {
				s.wasHeld[name] = true
			}
			continue
		}
		if h.Shard == "" && !slices.Contains(s.opts.Claim, name) {
			// Another shard's zone, free: taken over only once its lease
			// expired or was released (a zone never claimed is left to
			// the shard that claims it). An expired one at once (the
			// watch on the lease bucket runs this round as soon as the
			// lease is gone): its shard died, and every hand-off into the
			// zone waits for a new owner. A released one (a drained
			// shard) after half a TTL, so that when every shard is told
			// to stop at once, those that start draining a little later
			// do not take over the zones of the others first.
			if !s.wasHeld[name] || !s.releaseWaited(name, ttl/2) {
				continue
			}
		}
		at := time.Now()
		l, err := s.st.Claim(s.ctx, name, s.opts.Name)
		if err != nil {
			continue
		}
		s.launch(l, at)
	}
}

// releaseWaited reports whether the zone's lease was not released, or
// was released at least wait ago.
func (s *Shard) releaseWaited(zone string, wait time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.releasedAt[zone]
	return !ok || time.Since(at) >= wait
}

// launch starts the zone of a lease just claimed (at is when the claim
// was sent) on its own goroutine: a recovery may take longer than a lease
// lasts, and the lease loop keeps renewing meanwhile.
func (s *Shard) launch(l Lease, at time.Time) {
	ttl := s.st.LeaseTTL()
	z := s.newZone(l, at.Add(ttl-ttl/4))
	s.mu.Lock()
	s.starting[l.Zone] = z
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.startZone(z); err != nil {
			s.record(Record{Kind: ZoneFailed, Zone: l.Zone, Err: err})
			if !s.dead.Load() && !z.lost.Load() {
				_ = s.st.Release(s.ctx, z.lease())
			}
		}
	}()
}

// waitStarted waits (up to a minute) until no zone is starting: each
// runs, or failed to start.
func (s *Shard) waitStarted() {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		s.mu.Lock()
		n := len(s.starting)
		s.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// busy reports whether the shard runs the zone or is starting it.
func (s *Shard) busy(zone string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[zone] != nil || s.starting[zone] != nil
}

// leasedZones returns the zones whose leases the shard renews: those it
// runs and those it is starting.
func (s *Shard) leasedZones() []*Zone {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Zone, 0, len(s.running)+len(s.starting))
	for _, z := range s.opts.Zones {
		if r := s.running[z]; r != nil {
			out = append(out, r)
		} else if r := s.starting[z]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

func (s *Shard) runningZones() []*Zone {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Zone, 0, len(s.running))
	for _, z := range s.opts.Zones {
		if r := s.running[z]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

// drain stops every zone as a planned shutdown does.
func (s *Shard) drain() error {
	if s.hooks != nil && s.hooks.beforeDrain != nil {
		s.hooks.beforeDrain(s)
	}
	var errs []error
	for round := 0; ; round++ {
		s.waitStarted() // a zone being started is drained once it runs
		zones := s.runningZones()
		done := make([]error, len(zones))
		var wg sync.WaitGroup
		for i, z := range zones {
			wg.Go(func() { done[i] = s.stopZone(z, true) })
		}
		wg.Wait()
		errs = append(errs, done...)
		if round == 2 || !s.resumeHeld() {
			break
		}
	}
	first := errors.Join(errs...)
	s.cancel()
	s.wg.Wait()
	return first
}

// resumeHeld starts again, for a drain, the zones whose lease still names
// the shard though it stopped ticking them (their renewal came late, so
// they stopped before the lease could expire): nobody else may take them
// until the lease expires, and a drain that left them would write no
// final snapshot of them. It reports whether it started any.
func (s *Shard) resumeHeld() bool {
	if s.dead.Load() {
		return false
	}
	started := false
	for _, name := range s.opts.Zones {
		if s.busy(name) {
			continue
		}
		if h, err := s.st.Holder(s.ctx, name); err != nil || h.Shard != s.opts.Name {
			continue
		}
		at := time.Now()
		l, err := s.st.Claim(s.ctx, name, s.opts.Name) // renews it
		if err != nil {
			continue
		}
		s.launch(l, at)
		started = true
	}
	return started
}

// Kill stops the shard as a crash would: at once, with no final snapshot,
// no lease released and hand-offs in flight left as they are. Its leases
// expire and other shards take its zones over. For tests and drills.
func (s *Shard) Kill() {
	if s.dead.Swap(true) {
		return
	}
	for _, z := range s.runningZones() {
		z.halt()
	}
	if s.cancel != nil {
		s.cancel()
	}
}

// Dead reports whether Kill was called.
func (s *Shard) Dead() bool { return s.dead.Load() }

func (s *Shard) record(r Record) {
	if s.opts.OnRecord != nil && !s.dead.Load() {
		r.Shard = s.opts.Name
		s.opts.OnRecord(r)
	}
}

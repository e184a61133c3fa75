package cluster

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Zone is one running zone of a shard: its World, ticked on the zone's own
// goroutine. The World, and the methods of Zone except Name, may be used
// only from that goroutine: in Options.Start, Step and Border.
type Zone struct {
	// Name is the zone's name.
	Name string
	// World is the zone's world.
	World *engine.World

	shard *Shard
	held  map[string]held     // the agents the zone owns, by name
	out   map[string]*transit // the agents it is handing off, by name
	facts map[string]expr.Value

	renewMu  sync.Mutex // held while the lease is renewed or released
	released bool       // the drain released the lease (under renewMu)

	leaseMu    sync.Mutex
	lse        Lease
	leaseUntil time.Time

	inMu  sync.Mutex
	inbox []inItem

	recvMu     sync.Mutex // held by receive; the drain takes it to close the door
	recvClosed bool       // a draining zone commits no more hand-offs

	subs    []*nats.Subscription
	stop    chan bool // true: drain; false: halt
	done    chan struct{}
	halted  atomic.Bool
	lost    atomic.Bool // the lease was lost
	snapDue time.Time
	// latestRev and latestName are the revision and snapshot name of the
	// zone's entry in the latest bucket, as this zone last wrote them
	// (under the zone's snapSlot).
	latestRev  uint64
	latestName string
	drainErr   error
}

// held is what a zone knows of an agent it owns: the hand-off that gave it
// the agent and the revision of the agent's owner entry.
type held struct {
	handoff string
	rev     uint64
}

// transit is an agent the zone is handing off: the source's authoritative
// copy until the target confirms.
type transit struct {
	id, to string
	prev   string // the hand-off that brought the agent here
	snap   []byte
	rev    uint64
	sent   time.Time
	retry  time.Time
}

// inItem is something delivered to a zone between two of its ticks.
type inItem struct {
	kind  int
	agent string
	id    string
	snap  []byte
	rev   uint64
	from  string
	sent  int64
	tell  *tellMsg
}

const (
	inAdopt = iota
	inConfirm
	inGone // the agent's owner moved on: drop the copy
	inTell
	inFacts
)

func (z *Zone) push(it inItem) {
	z.inMu.Lock()
	z.inbox = append(z.inbox, it)
	z.inMu.Unlock()
}

func (z *Zone) lease() Lease {
	z.leaseMu.Lock()
	defer z.leaseMu.Unlock()
	return z.lse
}

func (z *Zone) setLease(l Lease, until time.Time) {
	z.leaseMu.Lock()
	z.lse, z.leaseUntil = l, until
	z.leaseMu.Unlock()
}

func (z *Zone) leaseValid(now time.Time) bool {
	z.leaseMu.Lock()
	defer z.leaseMu.Unlock()
	return now.Before(z.leaseUntil)
}

// halt stops the zone's goroutine without a drain (a crash, a lost lease).
func (z *Zone) halt() {
	if z.halted.Swap(true) {
		return
	}
	for _, sub := range z.subs {
		_ = sub.Unsubscribe()
	}
	select {
	case z.stop <- false:
	default:
	}
}

// Held returns the number of agents the zone owns, in its world and in
// transit to another zone.
func (z *Zone) Held() int { return len(z.held) + len(z.out) }

// Fact returns a shared fact (Store.SetFact) as it was at the start of
// the zone's tick, or the nil value when it is not set.
func (z *Zone) Fact(name string) expr.Value {
	if v, ok := z.facts[name]; ok {
		return v
	}
	return expr.NilValue()
}

// loop ticks the zone until it is stopped or its lease runs out.
func (z *Zone) loop() {
	s := z.shard
	defer close(z.done)
	period := time.Duration(float64(time.Second) / s.opts.Rate)
	tick := time.NewTicker(period)
	defer tick.Stop()
	z.snapDue = time.Now().Add(s.opts.SnapshotEvery)
	for {
		select {
		case drain := <-z.stop:
			if drain {
				z.drainErr = z.drain()
			}
			return
		case now := <-tick.C:
			if !z.leaseValid(time.Now()) {
				// The lease may have expired: another shard may restore
				// the zone, so this one must not tick it any more.
				s.record(Record{Kind: ZoneLost, Zone: z.Name})
				_ = s.stopZone(z, false)
				return
			}
			z.step(now)
		}
	}
}

// step is one tick of the zone: deliveries, the game's step, the world's
// tick, border crossings, retries and the periodic snapshot.
func (z *Zone) step(now time.Time) {
	s := z.shard
	z.deliver()
	if s.dead.Load() {
		return
	}
	if s.opts.Step != nil {
		s.opts.Step(z)
	}
	z.World.Tick(s.dt)
	if s.opts.Border != nil {
		var leaving []*engine.Agent
		var to []string
		for _, a := range z.World.Agents {
			if t := s.opts.Border(z, a); t != z.Name && s.zones[t] {
				leaving = append(leaving, a)
				to = append(to, t)
			}
		}
		for i, a := range leaving {
			z.send(a, to[i])
		}
	}
	for name, t := range z.out {
		if now.After(t.retry) {
			t.retry = now.Add(s.opts.HandoffRetry)
			s.checkHandoff(z, name, *t)
		}
	}
	if now.After(z.snapDue) {
		z.snapDue = now.Add(s.opts.SnapshotEvery)
		if b, err := z.snapshot(); err == nil {
			s.saveSnapshot(z, s.snapSeq.Add(1), b)
		}
	}
}

// deliver applies what arrived since the last tick: agents, confirmations,
// messages and facts.
func (z *Zone) deliver() {
	z.inMu.Lock()
	items := z.inbox
	z.inbox = nil
	z.inMu.Unlock()
	var tells []*tellMsg
	for _, it := range items {
		switch it.kind {
		case inAdopt:
			z.adopt(it)
		case inConfirm, inGone:
			if t := z.out[it.agent]; t != nil && (it.kind == inGone || t.id == it.id) {
				delete(z.out, it.agent)
				z.shard.record(Record{Kind: Confirmed, Zone: z.Name, Agent: it.agent, Handoff: t.id, Peer: t.to})
			}
		case inTell:
			tells = append(tells, it.tell)
		case inFacts:
			z.facts = z.shard.st.factView()
		}
	}
	z.deliverTells(tells)
}

// adopt adds an agent whose owner entry names this zone and hand-off.
// Adoption is idempotent by agent and hand-off: a repeated delivery of a
// hand-off the zone has taken in already changes nothing.
func (z *Zone) adopt(it inItem) {
	if h, ok := z.held[it.agent]; ok {
		if h.handoff == it.id {
			return
		}
	}
	if z.World.Agent(it.agent) != nil {
		return
	}
	moved, err := z.World.AddSnapshot(bytes.NewReader(it.snap), engine.RestoreOptions{Domains: z.shard.opts.Domains})
	if err != nil || len(moved) != 1 {
		z.shard.record(Record{Kind: Lost, Zone: z.Name, Agent: it.agent, Handoff: it.id, Err: err})
		return
	}
	z.held[it.agent] = held{handoff: it.id, rev: it.rev}
	if z.shard.hook("adopted", z.Name, it.agent) {
		return
	}
	r := Record{Kind: Adopted, Zone: z.Name, Agent: it.agent, Handoff: it.id, Peer: it.from}
	if it.sent != 0 {
		r.Latency = time.Since(time.Unix(0, it.sent))
	}
	if it.from == "" {
		r.Kind = Spawned
	}
	z.shard.record(r)
}

package cluster

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"github.com/moonmind-ai/moonmind/engine"
)

// The headers of a hand-off message. Its subject is
// <prefix>.handoff.<target zone>.<agent token> and its body the agent's
// snapshot (engine.World.SnapshotAgents).
const (
	hdrID   = "Mm-Handoff" // the hand-off's identity
	hdrFrom = "Mm-From"    // the source zone; empty for a spawn
	hdrRev  = "Mm-Rev"     // the revision of the agent's owner entry the source saw
	hdrSent = "Mm-Sent"    // when the source sent it, in Unix nanoseconds
	hdrTo   = "Mm-Agent"   // the agent's name, on confirmations
)

// send starts a hand-off: the agent leaves the world, and the zone keeps
// its snapshot as the authoritative copy until the target confirms.
func (z *Zone) send(a *engine.Agent, to string) {
	s := z.shard
	h, ok := z.held[a.Name]
	if !ok {
		return // not an agent of the cluster (added by the game directly)
	}
	var buf bytes.Buffer
	if err := z.World.SnapshotAgents(&buf, []*engine.Agent{a}); err != nil {
		s.record(Record{Kind: Lost, Zone: z.Name, Agent: a.Name, Err: err})
		return
	}
	z.World.Remove(a)
	delete(z.held, a.Name)
	now := time.Now()
	wait := z.firstRetry()
	t := &transit{id: nuid.Next(), to: to, snap: buf.Bytes(), rev: h.rev, prev: h.handoff, sent: now,
		retry: now.Add(wait), wait: wait}
	z.out[a.Name] = t
	s.record(Record{Kind: Sent, Zone: z.Name, Agent: a.Name, Handoff: t.id, Peer: to, Bytes: len(t.snap)})
	if s.hook("sending", z.Name, a.Name) {
		return
	}
	sent := *t // the zone's goroutine changes t when it looks at the owner
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.publishHandoff(z.Name, a.Name, sent)
	}()
}

// firstRetry is how long the source of a hand-off waits for its
// confirmation before it first looks at the agent's owner: as a TCP
// sender sets its retransmission timeout, the zone's smoothed time from
// sending a hand-off to its confirmation plus four times its variation
// (confirmTime), at least four ticks and at most HandoffRetry; before the
// zone's first confirmation, HandoffRetry (as TCP starts from a cautious
// timeout). Each later look waits twice as long as the one before, up to
// HandoffRetry: a hand-off whose delivery was lost is sent again within a
// few ticks, a slow server (a loaded machine) is not flooded with
// repeats, and a hand-off whose target is down costs a look a
// HandoffRetry.
func (z *Zone) firstRetry() time.Duration {
	s := z.shard
	if z.srtt == 0 {
		return s.opts.HandoffRetry // no confirmation yet to go by
	}
	floor := 4 * time.Duration(float64(time.Second)/s.opts.Rate)
	return min(max(floor, z.srtt+4*z.rttvar), s.opts.HandoffRetry)
}

// confirmTime takes in the time from sending a hand-off to its
// confirmation (RFC 6298's smoothing: an eighth of each new sample into
// the mean, a quarter into the mean deviation). Only hand-offs sent once
// count, as the sample of one sent again would not say which send was
// confirmed.
func (z *Zone) confirmTime(d time.Duration) {
	if z.srtt == 0 {
		z.srtt, z.rttvar = d, d/2
		return
	}
	dev := z.srtt - d
	if dev < 0 {
		dev = -dev
	}
	z.rttvar = (3*z.rttvar + dev) / 4
	z.srtt = (7*z.srtt + d) / 8
}

// publishHandoff stores the hand-off in the stream (the target's copy of
// the mind, kept for recovery) and so delivers it to the target zone's
// subscription.
func (s *Shard) publishHandoff(from, agent string, t transit) error {
	if s.dead.Load() {
		return nil
	}
	m := nats.NewMsg(s.st.handoffSubject(t.to, agent))
	m.Header.Set(hdrID, t.id)
	m.Header.Set(hdrFrom, from)
	m.Header.Set(hdrRev, strconv.FormatUint(t.rev, 10))
	m.Header.Set(hdrSent, strconv.FormatInt(t.sent.UnixNano(), 10))
	m.Data = t.snap
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	if _, err := s.st.js.PublishMsg(ctx, m); err != nil {
		return fmt.Errorf("cluster: hand-off of %s: %w", agent, err)
	}
	s.hook("published", from, agent)
	return nil
}

// checkHandoff looks at the owner of an agent whose hand-off is not
// confirmed yet: unchanged, the hand-off is sent again (delivery is at
// least once; adoption is idempotent). Committed to the target by this
// very hand-off, it is sent again too: the target may have made the
// commit without its reply (the server restarted just then), so that it
// never adopted the agent, and nobody else would; sent again, the target
// finds its commit, adopts the agent (or has it already) and confirms.
// Changed otherwise, a later owner has the agent and the source drops its
// copy.
func (s *Shard) checkHandoff(z *Zone, agent string, t transit) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if s.dead.Load() {
			return
		}
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		defer cancel()
		o, rev, err := s.st.ownerOf(ctx, agent)
		switch {
		case err != nil:
			// Ask again at the next retry.
		case rev == t.rev || o == (owner{Zone: t.to, Handoff: t.id}):
			s.record(Record{Kind: Resent, Zone: z.Name, Agent: agent, Handoff: t.id, Peer: t.to})
			_ = s.publishHandoff(z.Name, agent, t)
		default:
			z.push(inItem{kind: inGone, agent: agent, id: t.id})
		}
	}()
}

// handoffMsg is a hand-off as the target reads it.
type handoffMsg struct {
	agent, id, from string
	rev             uint64
	sent            int64
	snap            []byte
}

func readHandoff(subject string, h nats.Header, data []byte) (handoffMsg, bool) {
	i := strings.LastIndexByte(subject, '.')
	if i < 0 {
		return handoffMsg{}, false
	}
	agent, err := untoken(subject[i+1:])
	if err != nil {
		return handoffMsg{}, false
	}
	rev, err := strconv.ParseUint(h.Get(hdrRev), 10, 64)
	if err != nil {
		return handoffMsg{}, false
	}
	sent, _ := strconv.ParseInt(h.Get(hdrSent), 10, 64)
	return handoffMsg{agent: agent, id: h.Get(hdrID), from: h.Get(hdrFrom), rev: rev, sent: sent, snap: data}, true
}

// receive is the target's side of a hand-off: it moves the agent's owner
// entry from the revision the source saw to this zone (the commit point:
// only one such change can succeed), queues the agent for the zone's next
// tick boundary and confirms to the source. A hand-off that was committed
// already (a repeat) is queued and confirmed again; one whose owner moved
// on (cancelled, or fenced by a recovery) is ignored.
func (s *Shard) receive(z *Zone, m handoffMsg) {
	if s.dead.Load() || m.id == "" {
		return
	}
	z.recvMu.RLock()
	defer z.recvMu.RUnlock()
	if z.recvClosed {
		return // the zone drains: the hand-off waits in the stream
	}
	if s.hook("received", z.Name, m.agent) {
		return
	}
	if s.hooks != nil && s.hooks.lose != nil && s.hooks.lose(z.Name, m.agent) {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	mine := owner{Zone: z.Name, Handoff: m.id}
	var rev uint64
	var err error
	if m.rev != 0 {
		rev, err = s.st.setOwner(ctx, m.agent, mine, m.rev)
	}
	if err == nil && s.hooks != nil && s.hooks.replyLost != nil && s.hooks.replyLost(z.Name, m.agent) {
		return
	}
	if m.rev == 0 || err != nil {
		if m.rev != 0 && !casConflict(err) {
			// The source sends it again: also when the commit was made
			// and only its reply lost (checkHandoff).
			return
		}
		cur, crev, err := s.st.ownerOf(ctx, m.agent)
		if err != nil || cur != mine {
			return
		}
		rev = crev
	}
	if s.hook("committed", z.Name, m.agent) {
		return
	}
	z.push(inItem{kind: inAdopt, agent: m.agent, id: m.id, snap: m.snap, rev: rev, from: m.from, sent: m.sent})
	if m.from != "" {
		c := nats.NewMsg(s.st.confirmSubject(m.from))
		c.Header.Set(hdrID, m.id)
		c.Header.Set(hdrTo, m.agent)
		_ = s.st.nc.PublishMsg(c)
	}
	s.hook("confirmed", z.Name, m.agent)
}

// confirmed is the source's side of a confirmation.
func (s *Shard) confirmed(z *Zone, m *nats.Msg) {
	if s.dead.Load() {
		return
	}
	agent := m.Header.Get(hdrTo)
	if s.hook("confirm-received", z.Name, agent) {
		return
	}
	z.push(inItem{kind: inConfirm, agent: agent, id: m.Header.Get(hdrID)})
}

// Spawn adds a new agent to the zone and to the cluster: its mind is
// stored like a hand-off's and its owner entry created, which fails when
// an agent of that name exists anywhere in the cluster (the error names
// the zone that owns it). Call it on the zone's goroutine (Options.Start
// or Step).
func (z *Zone) Spawn(a *engine.Agent) error {
	s := z.shard
	z.World.Add(a)
	var buf bytes.Buffer
	if err := z.World.SnapshotAgents(&buf, []*engine.Agent{a}); err != nil {
		z.World.Remove(a)
		return err
	}
	id := nuid.Next()
	m := nats.NewMsg(s.st.handoffSubject(z.Name, a.Name))
	m.Header.Set(hdrID, id)
	m.Header.Set(hdrRev, "0")
	m.Data = buf.Bytes()
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if _, err := s.st.js.PublishMsg(ctx, m); err != nil {
		z.World.Remove(a)
		return fmt.Errorf("cluster: spawn %s: %w", a.Name, err)
	}
	rev, err := s.writeOwner(ctx, a.Name, owner{Zone: z.Name, Handoff: id}, 0)
	if err != nil {
		z.World.Remove(a)
		if casConflict(err) {
			cur, _, _ := s.st.ownerOf(ctx, a.Name)
			return fmt.Errorf("cluster: spawn %s: the agent exists (in zone %s)", a.Name, cur.Zone)
		}
		return fmt.Errorf("cluster: spawn %s: %w", a.Name, err)
	}
	z.held[a.Name] = held{handoff: id, rev: rev}
	s.record(Record{Kind: Spawned, Zone: z.Name, Agent: a.Name, Handoff: id})
	return nil
}

package cluster

import "time"

// RecordKind says what a Record reports.
type RecordKind int

// The kinds of Record.
const (
	_ RecordKind = iota
	// Sent: the zone took the agent out of its world and sent it to Peer.
	Sent
	// Adopted: the zone added an agent that Peer handed off to it; Latency
	// is the time from Sent to the agent's first tick boundary here.
	Adopted
	// Confirmed: the target confirmed the hand-off; the source dropped its
	// copy.
	Confirmed
	// Resent: no confirmation came in time and the agent's owner was
	// unchanged, so the source sent the hand-off again.
	Resent
	// TookBack: the zone cancelled a hand-off (a draining shard) and put
	// the agent back into its world.
	TookBack
	// Spawned: a new agent joined the zone.
	Spawned
	// ZoneStarted: the shard started the zone, from its snapshot when it
	// had one; Count is the number of agents it restored (from the
	// snapshot and the hand-off stream), not counting hand-offs still to
	// be committed, and Latency the time from claiming the zone's lease to
	// its start.
	ZoneStarted
	// ZoneStopped: the shard stopped the zone (a drain, with its final
	// snapshot).
	ZoneStopped
	// ZoneLost: the zone's lease was lost (it expired, or another shard has
	// it): the shard stopped ticking it.
	ZoneLost
	// ZoneFailed: the shard could not start the zone (Err says why).
	ZoneFailed
	// Lost: recovery found an agent the zone owns but no copy of its mind.
	Lost
)

var recordKindNames = [...]string{"", "sent", "adopted", "confirmed", "resent", "took back", "spawned",
	"zone started", "zone stopped", "zone lost", "zone failed", "lost"}

// String returns the kind's name ("sent", "adopted", ...).
func (k RecordKind) String() string {
	if k > 0 && int(k) < len(recordKindNames) {
		return recordKindNames[k]
	}
	return "unknown"
}

// Record is one event of a shard, for logs, metrics and tests.
type Record struct {
	Kind    RecordKind
	Shard   string // the shard that made the record
	Zone    string
	Agent   string
	Handoff string // the hand-off's identity
	Peer    string // the other zone of a hand-off
	Latency time.Duration
	Bytes   int // Sent: the size of the agent's snapshot
	Count   int
	Err     error
}

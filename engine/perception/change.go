package perception

import "slices"

// ChangeKind is what happened to a remembered thing. The zero ChangeKind
// is no change.
// Its values are immutable and safe to share between goroutines.
type ChangeKind uint8

// The changes of a memory, in the words the reactive plans use for them.
const (
	_         ChangeKind = iota
	Perceived            // first news of a thing, or news of one lost
	Lost                 // no news of it for LoseAfter seconds, or Memory.Lose
	Forgotten            // its confidence fell below Forget, it made room for a new thing, or Memory.Drop
)

var changeNames = [...]string{"", "perceived", "lost", "forgotten"}

// String returns the change as a plan's on names it: "perceived", "lost"
// or "forgotten".
func (k ChangeKind) String() string {
	if int(k) < len(changeNames) && k != 0 {
		return changeNames[k]
	}
	return "change"
}

// Change is one change of a memory: what happened, to what, and when.
// Thing is the thing as remembered at that time (Age and Confidence then;
// for a Perceived thing, as just perceived).
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Change struct {
	Kind  ChangeKind
	Thing Remembered
	At    float64 // the time of the change, in seconds
}

// note keeps a change of r at time now when Notify is on.
func (m *Memory) note(k ChangeKind, r Remembered, now float64) {
	if !m.Notify {
		return
	}
	m.changes = append(m.changes, Change{Kind: k, Thing: m.at(r, max(now, r.At)), At: now})
}

// TakeChanges returns the changes since the last call, oldest first, and
// forgets them; none unless Notify is on. The slice is valid until the
// memory next changes.
func (m *Memory) TakeChanges() []Change {
	out := m.changes
	m.changes = m.changes[:0]
	return out
}

// Changes returns the changes TakeChanges would return now, without
// taking them: what a snapshot saves. The slice is new on every call.
func (m *Memory) Changes() []Change { return slices.Clone(m.changes) }

// HoldChanges replaces the changes waiting for TakeChanges with cs, as
// Changes returned them: what a restore loads. Each Thing's Age and
// Confidence are worked out again from its At and Strength and the
// change's At.
func (m *Memory) HoldChanges(cs []Change) {
	m.changes = slices.Clone(cs)
	for i := range m.changes {
		c := &m.changes[i]
		c.Thing = m.at(c.Thing, max(c.At, c.Thing.At))
	}
}

// ParseChangeKind returns the change named name ("perceived", "lost",
// "forgotten"), or false.
func ParseChangeKind(name string) (ChangeKind, bool) {
	for i, n := range changeNames {
		if i > 0 && n == name {
			return ChangeKind(i), true
		}
	}
	return 0, false
}

package record

import (
	"encoding/json"
	"fmt"
	"io"
)

// DefaultSize is the number of records an agent keeps.
const DefaultSize = 64

// Recorder is an agent's flight recorder: a bounded ring of its latest records plus running counts for the
// summary line. It keeps the records encoded, a few dozen bytes each, and
// decodes them when asked (Records); what it returns equals what was added.
// Not safe for concurrent use; each agent owns one.
type Recorder struct {
	size int
	// offs[i] is where record i of the ring starts in buf; the ring grows
	// to size, then wraps at next. The records lie in buf oldest first,
	// from the oldest one's offset to the end; what lies before it was
	// dropped and is reclaimed when buf fills (compact).
	offs  []uint32
	next  int
	full  bool
	buf   []byte
	names []string // the names records refer to (see encodeRecord)
	rate  float64  // ticks per second, when records' times follow from their ticks
	count [countKinds]int
}

// countKinds is how many kinds a Recorder counts: the planners' and the
// reactive layer's, numbered apart (see countSlot).
const countKinds = int(numEventKinds) + int(maxEventKind-EventBeliefAdded)

// countSlot returns k's index in Recorder.count, or -1 for no kind.
func countSlot(k EventKind) int {
	switch {
	case k < numEventKinds:
		return int(k)
	case k >= EventBeliefAdded && k < maxEventKind:
		return int(numEventKinds) + int(k-EventBeliefAdded)
	}
	return -1
}

// New returns a recorder keeping the last size records. A size of
// zero or less means DefaultSize.
func New(size int) *Recorder {
	if size <= 0 {
		size = DefaultSize
	}
	return &Recorder{size: size}
}

// Add records an event, dropping the oldest when the ring is full. It
// allocates only when its buffer must grow. A zero Recorder keeps
// DefaultSize records.
func (r *Recorder) Add(e Event) {
	if r.size <= 0 {
		r.size = DefaultSize // a zero Recorder, not made by New
	}
	var tmp [256]byte
	rec := r.encodeRecord(tmp[:0], &e)
	if r.full {
		// Drop the oldest record: until the new one takes its place,
		// offs[next] marks where the kept records start (after it, or at
		// the end with a ring of one).
		if r.size > 1 {
			r.offs[r.next] = r.offs[(r.next+1)%r.size]
		} else {
			r.offs[r.next] = uint32(len(r.buf))
		}
	}
	r.reserve(len(rec))
	at := uint32(len(r.buf))
	r.buf = append(r.buf, rec...)
	switch {
	case r.full:
		r.offs[r.next] = at
	case r.offs == nil && r.size <= 1024:
		r.offs = make([]uint32, 1, r.size) // the ring fills in one allocation
		r.offs[0] = at
	default:
		r.offs = append(r.offs, at)
	}
	r.next++
	if r.next == r.size {
		r.next, r.full = 0, true
	}
	if i := countSlot(e.Kind); i >= 0 {
		r.count[i]++
	}
}

// oldest returns where the oldest kept record starts in buf.
func (r *Recorder) oldest() uint32 {
	switch {
	case r.full:
		return r.offs[r.next]
	case len(r.offs) > 0:
		return r.offs[0]
	}
	return uint32(len(r.buf))
}

// reserve makes room for n more bytes in buf: first by moving the kept
// records to its start over the dropped ones, then by growing it (twice
// its size up to 1 KiB, then by a quarter), so it stays within about 1.25
// times what the records need.
func (r *Recorder) reserve(n int) {
	if len(r.buf)+n <= cap(r.buf) {
		return
	}
	if dead := r.oldest(); dead > 0 {
		r.buf = r.buf[:copy(r.buf, r.buf[dead:])]
		for i := range r.offs {
			r.offs[i] -= dead
		}
	}
	if need := len(r.buf) + n; need > cap(r.buf)-cap(r.buf)/8 {
		size := need + need/4 + 32
		if size < 1024 {
			size = min(max(size, 2*cap(r.buf)), 1024)
		}
		grown := make([]byte, len(r.buf), size)
		copy(grown, r.buf)
		r.buf = grown
	}
}

// record returns the encoded record i of the ring, oldest first.
func (r *Recorder) record(i int) []byte {
	n := r.kept()
	j := i
	if r.full {
		j = (r.next + i) % r.size
	}
	end := uint32(len(r.buf))
	if i+1 < n {
		end = r.offs[(j+1)%len(r.offs)]
	}
	return r.buf[r.offs[j]:end]
}

// kept returns the number of records kept.
func (r *Recorder) kept() int { return len(r.offs) }

// Records returns the kept records, oldest first.
func (r *Recorder) Records() []Event {
	n := r.kept()
	if n == 0 {
		return nil
	}
	out := make([]Event, n)
	for i := range out {
		out[i] = r.decodeRecord(r.record(i))
	}
	return out
}

// Count returns how many events of a kind were recorded in all (not only
// those still in the ring).
func (r *Recorder) Count(k EventKind) int {
	if i := countSlot(k); i >= 0 {
		return r.count[i]
	}
	return 0
}

// Size returns how many records the ring keeps.
func (r *Recorder) Size() int {
	if r.size <= 0 {
		return DefaultSize
	}
	return r.size
}

// Counts returns, by kind name, how many records of each kind were made in
// all; a kind never recorded is left out (nil when there is none).
func (r *Recorder) Counts() map[string]int {
	var out map[string]int
	for k := EventKind(1); k < maxEventKind; k++ {
		if n := r.Count(k); n != 0 {
			if out == nil {
				out = map[string]int{}
			}
			out[k.String()] = n
		}
	}
	return out
}

// SetCounts replaces every count with counts, by kind name as Counts
// returns them (a restored snapshot's). An unknown name is an error, and
// then no count changes.
func (r *Recorder) SetCounts(counts map[string]int) error {
	var next [countKinds]int
	for name, n := range counts {
		var k EventKind
		if err := k.UnmarshalText([]byte(name)); err != nil {
			return err
		}
		if i := countSlot(k); i >= 0 {
			next[i] = n
		}
	}
	r.count = next
	return nil
}

// Summary returns the one-line summary: status, counts and the last
// action.
func (r *Recorder) Summary(status string) string {
	last := "none"
	for i := r.kept() - 1; i >= 0; i-- {
		rec := r.record(i)
		if act := r.recordAction(rec); act != "" {
			last = EventKind(rec[0]).String() + " " + act
			break
		}
	}
	return fmt.Sprintf("[flight-recorder] status=%s plans=%d plan-failures=%d replans=%d picks=%d started=%d finished=%d failed=%d interrupted=%d last=%q",
		status, r.Count(EventPlan), r.Count(EventPlanFailed), r.Count(EventReplan), r.Count(EventPick),
		r.Count(EventStart), r.Count(EventFinish), r.Count(EventFail), r.Count(EventInterrupt), last)
}

// WriteJSONLines writes events as JSON Lines, one object per line.
func WriteJSONLines(w io.Writer, events []Event) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, e := range events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}

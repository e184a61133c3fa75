package engine

import (
	"encoding/json"
	"fmt"
	"io"
)

// DefaultRecorderSize is the number of records an agent keeps.
const DefaultRecorderSize = 64

// Recorder is an agent's flight recorder: a bounded ring of its latest records plus running counts for the
// summary line. Not safe for concurrent use; each agent owns one.
type Recorder struct {
	ring  []Event // grows to size, then wraps
	size  int
	next  int
	full  bool
	count [maxEventKind]int
}

// NewRecorder returns a recorder keeping the last size records. A size of
// zero or less means DefaultRecorderSize.
func NewRecorder(size int) *Recorder {
	if size <= 0 {
		size = DefaultRecorderSize
	}
	return &Recorder{size: size}
}

// Add records an event, overwriting the oldest when the ring is full.
func (r *Recorder) Add(e Event) {
	if !r.full && len(r.ring) < r.size {
		r.ring = append(r.ring, e)
	} else {
		r.ring[r.next] = e
	}
	r.next++
	if r.next == r.size {
		r.next, r.full = 0, true
	}
	if int(e.Kind) < len(r.count) {
		r.count[e.Kind]++
	}
}

// Records returns the kept records, oldest first.
func (r *Recorder) Records() []Event {
	if !r.full {
		return append([]Event(nil), r.ring[:r.next]...)
	}
	return append(append([]Event(nil), r.ring[r.next:]...), r.ring[:r.next]...)
}

// Count returns how many events of a kind were recorded in all (not only
// those still in the ring).
func (r *Recorder) Count(k EventKind) int {
	if int(k) < len(r.count) {
		return r.count[k]
	}
	return 0
}

// Summary returns the one-line summary: status, counts and the last
// action.
func (r *Recorder) Summary(status string) string {
	last := "none"
	recs := r.Records()
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Action != "" {
			last = recs[i].Kind.String() + " " + recs[i].Action
			break
		}
	}
	return fmt.Sprintf("[flight-recorder] status=%s plans=%d plan-failures=%d replans=%d picks=%d started=%d finished=%d failed=%d interrupted=%d last=%q",
		status, r.count[EventPlan], r.count[EventPlanFailed], r.count[EventReplan], r.count[EventPick],
		r.count[EventStart], r.count[EventFinish], r.count[EventFail], r.count[EventInterrupt], last)
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

//go:build ticktrace

package ticktrace

import "time"

// On turns the trace on. Set it between ticks, from the goroutine that
// calls World.Tick.
var On bool

// Trace is one traced tick: the nanoseconds since the tick's start of
// each mark (Mark) and of each lane's start and end (Lane, the first 4
// lanes).
type Trace struct {
	Mark [8]int64
	Lane [4][2]int64
}

var (
	start  time.Time
	cur    Trace
	traces []Trace
)

// Traces returns the traced ticks and forgets them.
func Traces() []Trace { t := traces; traces = nil; return t }

// Mark records mark m of the current tick: 0 starts a tick, 7 ends it.
func Mark(m int) {
	if !On {
		return
	}
	if m == 0 {
		start = time.Now()
		cur = Trace{}
		return
	}
	cur.Mark[m] = int64(time.Since(start))
	if m == 7 {
		traces = append(traces, cur)
	}
}

// Lane records the start (end false) or the end of lane k of the current
// tick.
func Lane(k int, end bool) {
	if !On || k >= 4 {
		return
	}
	e := 0
	if end {
		e = 1
	}
	cur.Lane[k][e] = int64(time.Since(start))
}

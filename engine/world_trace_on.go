//go:build ticktrace

package engine

import "time"

// TickTraceOn turns the tick trace on; TickTraces returns, per traced
// tick, the nanoseconds (since the tick's start) of each mark and lane
// start/end. Only with the build tag ticktrace (a measuring aid).
var TickTraceOn bool

// TickTrace is one traced tick.
type TickTrace struct {
	Mark [8]int64
	Lane [4][2]int64
}

var (
	traceStart time.Time
	traceCur   TickTrace
	traces     []TickTrace
)

// TickTraces returns the traced ticks and forgets them.
func TickTraces() []TickTrace { t := traces; traces = nil; return t }

func traceMark(m int) {
	if !TickTraceOn {
		return
	}
	if m == 0 {
		traceStart = time.Now()
		traceCur = TickTrace{}
		return
	}
	traceCur.Mark[m] = int64(time.Since(traceStart))
	if m == 7 {
		traces = append(traces, traceCur)
	}
}

func traceLane(k int, end bool) {
	if !TickTraceOn || k >= 4 {
		return
	}
	e := 0
	if end {
		e = 1
	}
	traceCur.Lane[k][e] = int64(time.Since(traceStart))
}

//go:build ticktrace

package engine

import (
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the calling thread's CPU time in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID, Linux).
func threadCPU() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// TickTraceOn turns the tick trace on; TickTraces returns, per traced
// tick, the nanoseconds (since the tick's start) of each mark and lane
// start/end. Only with the build tag ticktrace (a measuring aid).
var TickTraceOn bool

// TickTrace is one traced tick.
type TickTrace struct {
	Mark    [8]int64
	Lane    [4][2]int64
	LaneCPU [4]int64 // each lane's thread CPU time, ns
}

var (
	traceStart time.Time
	traceCur   TickTrace
	traces     []TickTrace
	traceMu    atomic.Int32
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
		traceCur.LaneCPU[k] += threadCPU()
	} else {
		traceCur.LaneCPU[k] -= threadCPU()
	}
	traceCur.Lane[k][e] = int64(time.Since(traceStart))
}

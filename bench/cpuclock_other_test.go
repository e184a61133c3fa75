//go:build !(linux || darwin || freebsd)

package bench

import "time"

// cpuClockKind names the clock the guard reads, for its report.
const cpuClockKind = "wall time (no process CPU clock on this system)"

var cpuEpoch = time.Now()

// cpuNow returns the wall time since the package started, in nanoseconds:
// where there is no process CPU clock, the guard falls back to it.
func cpuNow() int64 { return int64(time.Since(cpuEpoch)) }

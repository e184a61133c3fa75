//go:build linux || darwin || freebsd

package bench

import "syscall"

// cpuClockKind names the clock the guard reads, for its report.
const cpuClockKind = "process CPU time (getrusage)"

// cpuNow returns the CPU time, user and system, that every thread of this
// process has used so far, in nanoseconds (microsecond resolution). Time
// the process spends waiting for a core does not count, so other jobs on
// the machine do not stretch it.
func cpuNow() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic("bench: getrusage: " + err.Error())
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

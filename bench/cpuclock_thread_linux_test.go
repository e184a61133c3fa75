//go:build linux

package bench

import "syscall"

// threadCPUNow returns the CPU time, user and system, that the calling OS
// thread has used so far, in nanoseconds (microsecond resolution). The
// guard's slowdown burns it on a locked thread (slowedByBurning), so what
// other threads do at the same time (the collector's workers) does not
// shorten the burn.
func threadCPUNow() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		panic("bench: getrusage: " + err.Error())
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

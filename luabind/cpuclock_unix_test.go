//go:build linux || darwin || freebsd

package luabind

import "syscall"

// cpuNow returns the CPU time, user and system, that every thread of this
// process has used so far, in nanoseconds (microsecond resolution), as
// bench's cpuNow does, so the floor benchmarks report the same cpu-ns/op.
func cpuNow() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic("luabind: getrusage: " + err.Error())
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

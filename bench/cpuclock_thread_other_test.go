//go:build !linux

package bench

// threadCPUNow is cpuNow where the system has no per-thread CPU clock
// that syscall reads.
func threadCPUNow() int64 { return cpuNow() }

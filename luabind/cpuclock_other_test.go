//go:build !(linux || darwin || freebsd)

package luabind

// cpuNow is 0 where getrusage is missing: the floor benchmarks then
// report a cpu-ns/op of 0.
func cpuNow() int64 { return 0 }

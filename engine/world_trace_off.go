//go:build !ticktrace

package engine

// The tick trace hooks (world_trace_on.go, build tag ticktrace) are empty
// in ordinary builds and inline to nothing.

func traceMark(int)       {}
func traceLane(int, bool) {}

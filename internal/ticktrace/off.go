//go:build !ticktrace

package ticktrace

// Mark records mark m of the current tick (build tag ticktrace only).
func Mark(int) {}

// Lane records the start or end of a lane of the current tick (build tag
// ticktrace only).
func Lane(int, bool) {}

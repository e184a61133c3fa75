//go:build !amd64

package prefetch

// regionLines is a no-op where this package has no prefetch instruction
// (see region_amd64.go).
func regionLines(rs *Region, n int) {}

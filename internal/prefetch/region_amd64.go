package prefetch

// regionLines prefetches the lines of each of the n Regions from rs on.
//
//go:noescape
func regionLines(rs *Region, n int)

package prefetch

import "unsafe"

// Ptr prefetches the cache lines that hold *p (nothing when p is nil).
func Ptr[T any](p *T) {
	if a := uintptr(unsafe.Pointer(p)); a != 0 {
		Lines(unsafe.Pointer(p), int((a&63+unsafe.Sizeof(*p)+63)/64))
	}
}

// A Region is memory noted now to be prefetched later (Regions), kept as
// one integer so that it keeps nothing alive: its address in the low 56
// bits and its number of 64-byte lines, at most 255, in the top byte. The
// zero Region is no memory. A Region of memory freed since it was noted
// only makes a useless prefetch.
type Region uint64

// RegionAt is the Region of the size bytes from address addr (zero when
// either is 0), cut to 255 lines.
func RegionAt(addr, size uintptr) Region {
	if addr == 0 || size == 0 {
		return 0
	}
	a := uint64(addr)
	lines := min((a&63+uint64(size)+63)/64, 255)
	return Region(a&(1<<56-1) | lines<<56)
}

// RegionOf is the Region of *p (zero when p is nil).
func RegionOf[T any](p *T) Region {
	return RegionAt(uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p))
}

// SliceRegion is the Region of s's elements (zero when s is empty).
func SliceRegion[T any](s []T) Region {
	if len(s) == 0 {
		return 0
	}
	return RegionAt(uintptr(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(s[0]))
}

// Addr is the address of the Region's first byte.
func (r Region) Addr() uintptr { return uintptr(r & (1<<56 - 1)) }

// Lines is how many 64-byte lines the Region covers, from the one that
// holds Addr on.
func (r Region) Lines() int { return int(r >> 56) }

// Regions prefetches the lines of every Region in rs, in one call.
func Regions(rs []Region) {
	if len(rs) > 0 {
		regionLines(&rs[0], len(rs))
	}
}

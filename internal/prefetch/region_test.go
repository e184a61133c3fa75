package prefetch

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestRegionAt: a Region holds the address and the number of 64-byte
// lines that the bytes cover, counted from the line of the first byte,
// and is zero for no memory.
func TestRegionAt(t *testing.T) {
	for _, c := range []struct {
		name       string
		addr, size uintptr
		lines      int
	}{
		{"one byte", 0x1000, 1, 1},
		{"a whole line", 0x1000, 64, 1},
		{"a line from its middle", 0x1020, 64, 2},
		{"the last byte of a line and the next", 0x103f, 2, 2},
		{"four lines", 0x2000, 256, 4},
		{"cut to 255 lines", 0x3000, 1 << 20, 255},
	} {
		r := RegionAt(c.addr, c.size)
		assert.Equal(t, c.addr, r.Addr(), c.name)
		assert.Equal(t, c.lines, r.Lines(), c.name)
	}
	assert.Zero(t, RegionAt(0, 64), "no address")
	assert.Zero(t, RegionAt(0x1000, 0), "no bytes")
}

// TestRegionOf: the Region of a value and of a slice's elements cover
// their memory; a nil pointer and an empty slice are no memory.
func TestRegionOf(t *testing.T) {
	v := &keep(make([][3]uint64, 1))[0]
	r := RegionOf(v)
	assert.Equal(t, uintptr(unsafe.Pointer(v)), r.Addr())
	assert.Equal(t, RegionAt(uintptr(unsafe.Pointer(v)), 24), r)
	s := keep(make([]uint64, 40))
	assert.Equal(t, RegionAt(uintptr(unsafe.Pointer(&s[0])), 320), SliceRegion(s))
	assert.Zero(t, RegionOf[int](nil))
	assert.Zero(t, SliceRegion([]int{}))
}

// TestPrefetchTakesAnyAddress: prefetching never faults, whatever the
// address: zero Regions, a nil pointer, an address nothing is likely mapped at (1.5 GiB, valid on 32 bits too)
// and live memory.
func TestPrefetchTakesAnyAddress(t *testing.T) {
	buf := make([]byte, 1024)
	rs := []Region{0, SliceRegion(buf), RegionAt(1<<30+1<<29, 1<<14), RegionOf(&buf[3])}
	assert.NotPanics(t, func() {
		Regions(rs)
		Regions(nil)
		Ptr[int](nil)
		Ptr(&buf[0])
	})
	assert.Equal(t, 1, rs[3].Lines(), "one byte is one line")
	assert.Equal(t, 256, rs[2].Lines()+1, "16 KiB cut to 255 lines")
}

var kept []any

// keep puts s on the heap, where it stays at one address.
func keep[T any](s []T) []T {
	kept = append(kept, s)
	return s
}

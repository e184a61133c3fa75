package prefetch

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestNumLinesCountsTheLinesOfTheBytes: NumLines is the number of
// distinct 64-byte lines that the size bytes from p on touch, for every
// offset of p in its line and sizes from 1 to 3 lines and a byte.
func TestNumLinesCountsTheLinesOfTheBytes(t *testing.T) {
	var buf [512]byte
	for off := range 64 {
		p := &buf[off]
		for _, size := range []uintptr{1, 2, 16, 63, 64, 65, 128, 152, 193} {
			lines := map[uintptr]bool{}
			for b := range size {
				lines[(uintptr(unsafe.Pointer(p))+b)/64] = true
			}
			assert.Equal(t, len(lines), NumLines(p, size), "offset %d size %d", off, size)
		}
	}
}

// TestSliceAndIndexedReadOnlyTheirArguments: the typed prefetches run on
// empty and short slices, with every kind of line count, Boxed on nil,
// pointers and boxed values, and Indexed
// reads no index when lines is shorter than idx (the index out of ptrs's
// range is never read); nothing they do is visible.
func TestSliceAndIndexedReadOnlyTheirArguments(t *testing.T) {
	type obj struct{ a [80]uint64 }
	objs := []*obj{{}, {}, {}}
	objs[1].a[0] = 7
	Slice([]obj(nil))
	Slice([]obj{})
	Slice(objs)
	Slice([]obj{*objs[1]})
	Indexed(objs, nil, nil, 0)
	Indexed(objs, []int32{2, 0, 1}, []uint8{0, 1, 127}, unsafe.Sizeof(obj{}))
	Indexed(objs, []int32{1, 2}, []uint8{128, 255, 9}, 16)
	Indexed(objs, []int32{2, 0, 1, 1 << 30}, []uint8{0, 1, 127}, 16)
	Boxed(nil, 256)
	Boxed(objs[1], 256)
	Boxed(*objs[1], 0)
	Boxed(7, 64)
	assert.Equal(t, uint64(7), objs[1].a[0])
	assert.Len(t, objs, 3)
}

package goap

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"
)

// (every a below 2^32, d from 2 up) and on a spread of values between.
func TestDivMagicDividesExactly(t *testing.T) {
	ds := []int64{2, 3, 5, 7, 10, 20, 50, 1 << 16, 65537, 1<<30 - 1, 1 << 30, 1<<32 - 1}
	as := []uint64{0, 1, 2, 9, 10, 11, 49, 50, 51, 1<<16 - 1, 1 << 16, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for i := uint64(0); i < 2000; i++ {
		as = append(as, i*2147483647%(1<<32))
	}
	for _, d := range ds {
		m := divMagic(d)
		for _, a := range as {
			q, _ := bits.Mul64(m, a)
			require.Equal(t, a/uint64(d), q, "%d / %d", a, d)
		}
	}
}

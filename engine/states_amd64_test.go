package engine

import (
	"testing"
)

// TestValuesDifferBothPaths runs TestValuesDifferSeesEveryByte's and
// TestStateMovedSeesEverySlot's checks on
// valuesDiffer's SSE2 path and, when the processor has AVX2, on its AVX2
// path (useAVX2).
func TestValuesDifferBothPaths(t *testing.T) {
	defer func(was bool) { useAVX2 = was }(useAVX2)
	useAVX2 = false
	t.Run("sse2", valuesDifferSeesEveryByte)
	t.Run("sse2-stateMoved", stateMovedSeesEverySlot)
	if !cpuHasAVX2() {
		t.Skip("engine: no AVX2 here; only the SSE2 path was checked")
	}
	useAVX2 = true
	t.Run("avx2", valuesDifferSeesEveryByte)
	t.Run("avx2-stateMoved", stateMovedSeesEverySlot)
}

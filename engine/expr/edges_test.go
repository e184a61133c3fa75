package expr_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestACmpPastTheOperatorsPrintsAsUnknown: an operator value past the six
// comparisons prints "?", as the zero value does.
func TestACmpPastTheOperatorsPrintsAsUnknown(t *testing.T) {
	assert.Equal(t, ">=", expr.Ge.String())
	assert.Equal(t, "?", expr.Cmp(0).String())
	assert.Equal(t, "?", (expr.Ge + 1).String())
	assert.Equal(t, "?", expr.Cmp(200).String())
}

// TestSlotMaskNeverLeavesASlotOut: slots 0 to 63 are one bit each; slot
// 64 or more (or a negative one) gives every bit.
func TestSlotMaskNeverLeavesASlotOut(t *testing.T) {
	assert.Equal(t, uint64(0), expr.SlotMask(nil))
	assert.Equal(t, uint64(1)|1<<5|1<<63, expr.SlotMask([]int{0, 5, 63}))
	assert.Equal(t, ^uint64(0), expr.SlotMask([]int{3, 64}))
	assert.Equal(t, ^uint64(0), expr.SlotMask([]int{-1}))
}

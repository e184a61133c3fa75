package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestARawsetChargesOnlyThePaddingItMakes: rawset of a key past a list's
// end charges the nils it pads (32 bytes a slot of the list it makes:
// here 3 items, 6 nils and the key), and rawset of a key that pads
// nothing charges no memory.
func TestARawsetChargesOnlyThePaddingItMakes(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		bytes  int64
	}{
		{"a string key", "no padding", `local t = {1, 2, 3} rawset(t, "k", 1)`, 0},
		{"the next index", "an append pads nothing", `local t = {1, 2, 3} rawset(t, 4, 1)`, 0},
		{"an index in the list", "a replacement pads nothing", `local t = {1, 2, 3} rawset(t, 2, 1)`, 0},
		{"far past the end", "6 nils padded: 32 x (3 + 6 + 1)", `local t = {1, 2, 3} rawset(t, 10, 1) assert(#t == 10)`, 320},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, bytes := chargesOf(t, tc.src)
			assert.Equal(t, tc.bytes, bytes, tc.reason)
		})
	}
}

package luabind

import (
	"testing"
	"unsafe"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
)

// TestStoredAlike: values stored alike are the same value, whatever the
// padding between their fields holds; values that differ in kind, number
// or string are not stored alike.
func TestStoredAlike(t *testing.T) {
	a, b := engine.NumberValue(3), engine.NumberValue(3)
	// storedAlike answers false where a Value is neither 16 nor 32 bytes
	// (12 on 32-bit machines), and same decides.
	words := valueSize == 16 || valueSize == 32
	assert.Equal(t, words, storedAlike(&a, &b))
	if words {
		// Scribble over every byte no field covers: still alike.
		for i := range valueSize / 8 {
			p := (*uint64)(unsafe.Add(unsafe.Pointer(&b), 8*i))
			*p |= ^valueMask[i]
		}
		assert.True(t, storedAlike(&a, &b), "padding does not count")
		assert.True(t, same(a, b))
	}
	s1, s2 := engine.StringValue("ab"), engine.StringValue("ab")
	assert.Equal(t, words, storedAlike(&s1, &s1))
	assert.True(t, same(s1, s2), "two copies of one text")
	for _, c := range []struct{ x, y engine.Value }{
		{engine.NumberValue(3), engine.NumberValue(4)},
		{engine.NumberValue(0), engine.NumberValue(negZero())},
		{engine.NumberValue(1), engine.BoolValue(true)},
		{engine.StringValue("ab"), engine.StringValue("ac")},
		{engine.NilValue(), engine.Value{}},
	} {
		assert.False(t, storedAlike(&c.x, &c.y), "%v against %v", c.x, c.y)
		assert.False(t, same(c.x, c.y), "%v against %v", c.x, c.y)
	}
}

func negZero() float64 { z := 0.0; return -z }

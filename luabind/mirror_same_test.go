package luabind

import (
	"math"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
)

// TestMirrorSameIsValueEquality: the mirror's sync keeps a mirrored value
// when the state's is == to it, so == must be "the same value to Lua":
// two copies of one text are the same, and values that differ in kind,
// number bits or text are not (0 and -0 differ: tostring tells them
// apart).
func TestMirrorSameIsValueEquality(t *testing.T) {
	s1, s2 := engine.StringValue("ab"), engine.StringValue(string([]byte("ab")))
	assert.True(t, s1 == s2, "two copies of one text")
	n1, n2 := engine.NumberValue(3), engine.NumberValue(1+2)
	assert.True(t, n1 == n2, "one number made twice")
	for _, c := range []struct{ x, y engine.Value }{
		{engine.NumberValue(3), engine.NumberValue(4)},
		{engine.NumberValue(0), engine.NumberValue(math.Copysign(0, -1))},
		{engine.NumberValue(1), engine.BoolValue(true)},
		{engine.StringValue("ab"), engine.StringValue("ac")},
		{engine.NilValue(), engine.Value{}},
	} {
		assert.False(t, c.x == c.y, "%v against %v", c.x, c.y)
	}
}

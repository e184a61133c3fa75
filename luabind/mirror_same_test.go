package luabind

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestMirrorSameIsValueEquality: the mirror's sync keeps a mirrored value
// when the state's is == to it, so == must be "the same value to Lua":
// two copies of one text are the same, and values that differ in kind,
// number bits or text are not (0 and -0 differ: tostring tells them
// apart).
func TestMirrorSameIsValueEquality(t *testing.T) {
	s1, s2 := expr.StringValue("ab"), expr.StringValue(string([]byte("ab")))
	assert.True(t, s1 == s2, "two copies of one text")
	n1, n2 := expr.NumberValue(3), expr.NumberValue(1+2)
	assert.True(t, n1 == n2, "one number made twice")
	for _, c := range []struct{ x, y expr.Value }{
		{expr.NumberValue(3), expr.NumberValue(4)},
		{expr.NumberValue(0), expr.NumberValue(math.Copysign(0, -1))},
		{expr.NumberValue(1), expr.BoolValue(true)},
		{expr.StringValue("ab"), expr.StringValue("ac")},
		{expr.NilValue(), expr.Value{}},
	} {
		assert.False(t, c.x == c.y, "%v against %v", c.x, c.y)
	}
}

package expr

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKeysDoNotCollide (== since Key is gone): Values of different kinds
// whose words or bytes match (a number and a string holding its float64 bits, true and the
// number whose bits are 1, nil, Unknown and the empty string, a string of
// tag-like bytes) differ with ==; a value and its copy, a string and
// the same text stored elsewhere, and two NaNs are ==; 0 and
//
//	-0 differ with == although they are Equal.
func TestKeysDoNotCollide(t *testing.T) {
	one := math.Float64frombits(1)
	bitsText := string([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}) // 1.0's bits, little-endian
	vals := []Value{{}, NilValue(), BoolValue(false), BoolValue(true), NumberValue(0), NumberValue(one),
		NumberValue(1), NumberValue(math.Copysign(0, -1)), StringValue(""), StringValue("\x00"), StringValue("\x01"),
		StringValue("\x02"), StringValue("\x03"), StringValue(bitsText), StringValue("1"), StringValue("true"),
		StringValue("nil")}
	seen := map[Value]int{}
	for i, v := range vals {
		if j, ok := seen[v]; ok {
			t.Errorf("values %d (%s %v) and %d (%s %v) are == %#v", j, vals[j].Kind(), vals[j], i, v.Kind(), v, v)
		}
		seen[v] = i
		c := v
		assert.Equal(t, v, c, "value %d: its copy", i)
	}
	assert.Len(t, seen, len(vals))
	text := strings.Repeat("ab", 8)
	x, y := StringValue(text[2:6]), StringValue(string([]byte("abab")))
	assert.Equal(t, x, y, "the same text stored apart")
	assert.True(t, x.Equal(y))
	assert.False(t, StringValue(text[0:4]).Equal(StringValue(text[0:3])), "texts that start at one byte, of other lengths")
	assert.NotEqual(t, StringValue(text[0:4]), StringValue(text[0:3]))
	assert.Equal(t, NumberValue(math.NaN()), NumberValue(math.NaN()))
	assert.False(t, NumberValue(math.NaN()).Equal(NumberValue(math.NaN())))
	assert.True(t, NumberValue(0).Equal(NumberValue(math.Copysign(0, -1))))
	assert.NotEqual(t, NumberValue(0), NumberValue(math.Copysign(0, -1)))
	assert.Equal(t, StringValue(string([]byte(bitsText))), StringValue(bitsText), "a text built from bytes")
	assert.Equal(t, Number, NumberValue(one).Kind())
	assert.NotEqual(t, BoolValue(true), NumberValue(one), "true is not the number whose bits are 1")
	assert.NotEqual(t, Value{}, NilValue())
	assert.NotEqual(t, NilValue(), StringValue(""))
	assert.Equal(t, String, StringValue("").Kind())
}

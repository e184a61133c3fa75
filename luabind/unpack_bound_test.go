package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnpackRefusesMoreValuesThanTheValueStackHolds: unpack of more than
// registryMaxSize values (one more, or far more) is refused before the
// stack grows, with the count and the bound; a short range far into a
// long list is unpacked.
func TestUnpackRefusesMoreValuesThanTheValueStackHolds(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for _, c := range []struct{ args, want string }{
		{"t, 1, 32769", "strings.lua:2: too many results to unpack (32769; at most 32768)"},
		{"t, 1, 1e7", "strings.lua:2: too many results to unpack (10000000; at most 32768)"},
	} {
		_, err := evalChunk(t, rt, "local t = {}\nreturn unpack("+c.args+")")
		require.Error(t, err, c.args)
		assert.Equal(t, c.want, err.Error(), c.args)
	}
	got, err := evalChunk(t, rt, "local t = {} for i = 1, 20001 do t[i] = i end\nreturn unpack(t, 20000, 20001)")
	require.NoError(t, err)
	assert.Equal(t, []string{"20000", "20001"}, got)
}

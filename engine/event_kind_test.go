package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryRecordKindReadsBack(t *testing.T) {
	n := 0
	for k := EventKind(1); k < 255; k++ {
		name := k.String()
		if name == "event" {
			continue // not a kind
		}
		n++
		var got EventKind
		require.NoError(t, got.UnmarshalText([]byte(name)), name)
		assert.Equal(t, k, got, name)
	}
	assert.GreaterOrEqual(t, n, 17, "every kind, the LLM and reactive ones included")
	var k EventKind
	assert.EqualError(t, k.UnmarshalText([]byte("nap")), `engine: no record kind "nap"`)
}

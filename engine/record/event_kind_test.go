package record

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

// TestEventLineHasNoTrailingSpace: a record with nothing after its kind
// (idle) ends at the kind, not in the column padding after it.
func TestEventLineHasNoTrailingSpace(t *testing.T) {
	e := Event{Tick: 5, Time: 0.4, Agent: "jack", Kind: EventIdle}
	assert.Equal(t, "tick    5  t=  0.400s  jack         idle", e.String())
	e = Event{Tick: 5, Time: 0.4, Agent: "jack", Kind: EventStart, Action: "chop"}
	assert.Equal(t, "tick    5  t=  0.400s  jack         start       action=chop", e.String())
}

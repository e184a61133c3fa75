package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgumentsWrittenAsAString(t *testing.T) {
	tests := []struct {
		name, reason string
		reply        string
		want         map[string]any
	}{
		{name: "json in a string", reason: "the tool-call habit: the object, encoded once more",
			reply: `{"steps": [{"action": "attack", "arguments": "{\"target\": \"north\", \"rounds\": 3}"}]}`,
			want:  map[string]any{"target": "north", "rounds": float64(3)}},
		{name: "plain text", reason: "not JSON: kept whole, not emptied",
			reply: `{"steps": [{"action": "attack", "arguments": "target=north"}]}`,
			want:  map[string]any{"text": "target=north"}},
		{name: "an object", reason: "as before",
			reply: `{"steps": [{"action": "attack", "arguments": {"target": "south"}}]}`,
			want:  map[string]any{"target": "south"}},
		{name: "empty string", reason: "no arguments",
			reply: `{"steps": [{"action": "attack", "arguments": ""}]}`,
			want:  map[string]any{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := ParseReply("g", tc.reply)
			require.True(t, ok)
			require.Len(t, p.Steps, 1)
			assert.Equal(t, tc.want, p.Steps[0].Arguments, tc.reason)
		})
	}
}

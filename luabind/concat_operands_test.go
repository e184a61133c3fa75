package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConcatJoinsPlainRunsAndCallsMetamethodsForTheRest: the sandbox's ..
// joins a run of strings and numbers at once and hands every other operand
// to its __concat metamethod, from the right, as Lua does. A run of plain
// operands stops at the first operand that is not one: the table in front
// of "a" .. "b" gets "ab" through its metamethod, its own text never joins
// the run.
func TestConcatJoinsPlainRunsAndCallsMetamethodsForTheRest(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		src    string
		want   []string
	}{
		{"a table before a run", "the metamethod gets the whole run on its right",
			`local t = setmetatable({}, { __concat = function(a, b) return "T(" .. b .. ")" end })
			return t .. "a" .. "b"`, []string{"T(ab)"}},
		{"a table between runs", "the run on the right goes to the metamethod, the one on the left joins its result",
			`local t = setmetatable({}, { __concat = function(a, b) return "T(" .. b .. ")" end })
			return "x" .. 1 .. t .. "a" .. 2`, []string{"x1T(a2)"}},
		{"a table after a run", "the metamethod of the right operand when the left has none; .. groups from the right",
			`local t = setmetatable({}, { __concat = function(a, b) return "(" .. a .. ")T" end })
			return "x" .. 1 .. t`, []string{"x(1)T"}},
		{"numbers and strings", "one run, numbers as Lua writes them", `return 1 .. "a" .. 2.5 .. "b"`, []string{"1a2.5b"}},
	}
	rt := NewRuntime(Options{})
	defer rt.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalChunk(t, rt, tc.src)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
}

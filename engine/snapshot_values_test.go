package engine

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestASavedValueHasOneKind: a saved value gives exactly one kind; any two
// of bool, number, special, string and nil together are refused, whichever
// two they are.
func TestASavedValueHasOneKind(t *testing.T) {
	yes, one, text := true, 1.0, "x"
	tests := []struct {
		name string
		v    varSnap
		want expr.Value
	}{
		{name: "bool", v: varSnap{Bool: &yes}, want: expr.BoolValue(true)},
		{name: "number", v: varSnap{Number: &one}, want: expr.NumberValue(1)},
		{name: "special", v: varSnap{Special: "-Inf"}, want: expr.NumberValue(math.Inf(-1))},
		{name: "string", v: varSnap{String: &text}, want: expr.StringValue("x")},
		{name: "nil", v: varSnap{Nil: true}, want: expr.NilValue()},
		{name: "bool and number", v: varSnap{Bool: &yes, Number: &one}},
		{name: "special and string", v: varSnap{Special: "NaN", String: &text}},
		{name: "nil and bool", v: varSnap{Nil: true, Bool: &yes}},
		{name: "string and nil", v: varSnap{String: &text, Nil: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.v.value()
			if tc.want.Kind() == expr.Unknown {
				assert.EqualError(t, err, "more than one of bool, number, special, string, nil")
				return
			}
			require.NoError(t, err)
			assert.True(t, tc.want.Equal(got), "got %v", got)
		})
	}
}

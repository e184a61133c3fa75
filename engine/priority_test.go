package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParsePriorityReadsNamesAndIntegers: the four names in any case (an
// empty text is Normal), or an integer with spaces around it; anything
// else is not a priority.
func TestParsePriorityReadsNamesAndIntegers(t *testing.T) {
	tests := []struct {
		in   string
		want Priority
		ok   bool
	}{
		{"low", Low, true},
		{" HIGH ", High, true},
		{"Critical", Critical, true},
		{"", Normal, true},
		{" 25 ", 25, true},
		{"-3", -3, true},
		{"urgent", 0, false},
		{"2.5", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParsePriority(tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

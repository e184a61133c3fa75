package expr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mem is a family like the perception memory's: mem.<word> with a word
// of two letters.
var mem = Family{Prefix: "mem.", Check: func(name string) *NameProblem {
	if w := strings.TrimPrefix(name, "mem."); len(w) != 2 {
		return &NameProblem{Off: 4, Expected: "two letters", Found: `"` + w + `"`}
	}
	return nil
}}

// TestFamiliesAreCheckedWhereTheyAreUsed: a name of a schema's family is
// bound like any variable once its Check accepts it; one it refuses is a
// ParseError at the column of the part Check names, in a condition, in an
// effect's right-hand side, and an effect never assigns one.
func TestFamiliesAreCheckedWhereTheyAreUsed(t *testing.T) {
	s := NewSchema("x")
	s.AddFamily(mem)
	f, ok := s.FamilyOf("mem.ab")
	require.True(t, ok)
	assert.Equal(t, "mem.", f.Prefix)
	_, ok = s.FamilyOf("memo")
	assert.False(t, ok)

	c, err := CompileCondition("x > 1 && mem.ab < 3", s)
	require.NoError(t, err)
	slot, ok := s.Lookup("mem.ab")
	require.True(t, ok)
	assert.Equal(t, []int{0, slot}, c.Reads())

	_, err = CompileCondition("x > 1 && mem.abc < 3", s)
	assert.EqualError(t, err, "expr: col 14: expected two letters, found \"abc\"\n\tx > 1 && mem.abc < 3\n\t             ^")
	_, err = CompileEffect("x = mem.cd", s)
	require.NoError(t, err)
	_, ok = s.Lookup("mem.cd")
	assert.True(t, ok, "an effect that reads a family name binds it")
	_, err = CompileEffect("x = x + mem.c", s)
	assert.EqualError(t, err, "expr: col 13: expected two letters, found \"c\"\n\tx = x + mem.c\n\t            ^")
	_, err = CompileEffect("x = 1, mem.ab = 2", s)
	var pe *ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "col 8: expected a variable an effect may assign, found \"mem.ab\" (no effect may assign a name that begins with \"mem.\")", pe.Message())
}

package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestACallFromAGoFunctionReturnsOnlyItsOwnResults: a Call made from a Go
// function that the runtime's Lua code is running (its arguments still on
// the stack) returns the results asked for, none of the caller's values.
func TestACallFromAGoFunctionReturnsOnlyItsOwnResults(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	inner, err := rt.L.Load(strings.NewReader("return 'x', 'y'"), "inner")
	require.NoError(t, err)
	outer, err := rt.L.Load(strings.NewReader("local nested = ...\nnested(1, 2, 3)"), "outer")
	require.NoError(t, err)
	var got []lua.LValue
	var innerErr error
	nested := rt.L.NewFunction(func(L *lua.LState) int {
		got, innerErr = rt.Call(nil, inner, 2)
		return 0
	})
	_, err = rt.Call(nil, outer, 0, nested)
	require.NoError(t, err)
	require.NoError(t, innerErr)
	assert.Equal(t, []lua.LValue{lua.LString("x"), lua.LString("y")}, got)
}

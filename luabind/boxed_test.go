package luabind

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestTypeNamesEveryKind(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	require.NoError(t, runChunk(rt, `
		assert(type(nil) == "nil" and type(true) == "boolean" and type(1.5) == "number")
		assert(type("x") == "string" and type(print) == "function" and type({}) == "table")
		assert(type(coroutine.create(function() end)) == "thread")
		local ok, err = pcall(type)
		assert(not ok and err:find("bad argument #1", 1, true), err)`))
}

func TestNumbersKeepTheirValueAndSmallWholeOnesAreShared(t *testing.T) {
	for _, n := range []float64{0, 1, 30, 1023, 1024, 0.5, -1, 1e300, math.Inf(1), 1023.0000001} {
		got, ok := fromValue(expr.NumberValue(n)).(lua.LNumber)
		require.True(t, ok, "%v", n)
		assert.Equal(t, math.Float64bits(n), math.Float64bits(float64(got)), "%v", n)
	}
	negZero := fromValue(expr.NumberValue(math.Copysign(0, -1))).(lua.LNumber)
	assert.True(t, math.Signbit(float64(negZero)), "-0 stays -0")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = fromValue(expr.NumberValue(30)) }), "a counter's value is not boxed again")
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _ = fromValue(expr.NumberValue(0.25)) }))
}

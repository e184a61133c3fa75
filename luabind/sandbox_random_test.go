package luabind

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// chunkResults runs src at a fresh runtime's top level and returns its
// results.
func chunkResults(t *testing.T, src string, nret int) []lua.LValue {
	rt := NewRuntime(Options{})
	t.Cleanup(rt.Close)
	fn, err := rt.compile(strings.NewReader(src), "r.lua")
	require.NoError(t, err)
	rt.L.Push(fn)
	require.NoError(t, rt.L.PCall(0, nret, nil))
	out := make([]lua.LValue, nret)
	for i := range out {
		out[i] = rt.L.Get(i - nret)
	}
	return out
}

func TestMathRandomOverWideIntervals(t *testing.T) {
	got := chunkResults(t, `local x = math.random(-2^62, 2^62)
		return x, x >= -2^62 and x <= 2^62, math.random(3, 3), math.random(1, 6), math.random(1, 6)`, 5)
	assert.Equal(t, lua.LTrue, got[1], "in the interval: %v", got[0])
	assert.Equal(t, lua.LNumber(3), got[2])

	// Narrow intervals draw as before: the runtime's source, seeded 1, 2.
	src := rand.New(rand.NewPCG(1, 2))
	src.Uint64() // the wide draw
	src.Uint64() // math.random(3, 3) draws one too (Uint64N of a power of two)
	assert.Equal(t, []lua.LValue{lua.LNumber(1 + src.Int64N(6)), lua.LNumber(1 + src.Int64N(6))}, got[3:])
}

func TestMathRandomOfOneNumberDrawsFromOneToIt(t *testing.T) {
	got := chunkResults(t, `local lo, hi = 6, 1
		for _ = 1, 200 do
		  local x = math.random(6)
		  lo, hi = math.min(lo, x), math.max(hi, x)
		end
		return lo, hi, math.random(1), pcall(math.random, 0)`, 5)
	assert.Equal(t, []lua.LValue{lua.LNumber(1), lua.LNumber(6), lua.LNumber(1), lua.LFalse}, got[:4])
	assert.Contains(t, got[4].String(), "interval is empty")
}

func TestMathRandomseedOutsideAnAgentReseedsTheRuntimesSource(t *testing.T) {
	got := chunkResults(t, `math.randomseed(7)
		local a, b = math.random(1000), math.random(1000)
		math.randomseed(7)
		return a, b, math.random(1000), math.random(1000)`, 4)
	assert.Equal(t, got[:2], got[2:])
	assert.NotEqual(t, got[0], got[1])
}

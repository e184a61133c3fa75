package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestWithoutAMemoryLimitWhatCodeHoldsIsNeverMeasured: with
// MemoryLimit -1 (no limit) the heap watchdog measures nothing after a
// collection, so code that holds a chain of closures across a
// collection runs to its end.
func TestWithoutAMemoryLimitWhatCodeHoldsIsNeverMeasured(t *testing.T) {
	out, err := holdClosures(t, Options{InstructionBudget: 50_000_000, MemoryLimit: -1}, 30000, "hold.lua")
	require.NoError(t, err)
	assert.Equal(t, lua.LNumber(55), out[0])
}

// TestTheAllocationCapIsSixteenTimesTheLimitAndAtLeast1GiB: what code
// may allocate in one resume, counted from the first collection in it,
// before the watchdog stops it: 1 GiB up to a limit of 64 MiB, sixteen
// times the limit above.
func TestTheAllocationCapIsSixteenTimesTheLimitAndAtLeast1GiB(t *testing.T) {
	for limit, want := range map[int64]uint64{
		1 << 20:   1 << 30,
		64 << 20:  1 << 30,
		65 << 20:  65 << 24,
		128 << 20: 2 << 30,
	} {
		assert.Equal(t, want, allocCap(limit), "limit %d", limit)
	}
}

// TestMemoryHeldBeforeACallBeganIsNotMeasuredAsItsGrowth: the heap
// watchdog measures the running code only when the heap grew past what
// the code may hold since the call began; a large table the caller
// built before the call and hands to it is not taken for the call's
// growth: a collection after the call kept a few hundred KB measures
// nothing.
func TestMemoryHeldBeforeACallBeganIsNotMeasuredAsItsGrowth(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 50_000_000, MemoryLimit: 1 << 20})
	defer rt.Close()
	big := rt.L.NewTable()
	for i := 1; i <= 100_000; i++ {
		big.RawSetInt(i, lua.LString(strings.Repeat("x", 64)+string(rune('a'+i%26))))
	}
	fn, err := rt.compile(strings.NewReader(`local collect, big = ...
local keep = {}
for i = 1, 2000 do keep[i] = {} end
collect()
local n = 0
for i = 1, 10 do n = n + i end
return n + #big`), "given.lua")
	require.NoError(t, err)
	collectNow(t)
	collect := rt.L.NewFunction(func(*lua.LState) int { collectNow(t); return 0 })
	out, err := rt.call(nil, modeLoad, fn, 1, collect, big)
	require.NoError(t, err)
	assert.Equal(t, lua.LNumber(100_055), out[0])
}

// TestABuiltinMayAllocateExactlyTheMemoryLimit: what built-ins build in
// one call is counted against the memory limit before they build it: a
// string of exactly the limit's bytes is built, one of a byte more is
// refused.
func TestABuiltinMayAllocateExactlyTheMemoryLimit(t *testing.T) {
	const limit = 100_000
	exact := NewRuntime(Options{MemoryLimit: limit})
	defer exact.Close()
	require.NoError(t, runChunk(exact, "local s = string.rep('x', 100000)\nassert(#s == 100000)"))
	err := runChunk(exact, "local s = string.rep('x', 100001)")
	require.Error(t, err)
	assert.Equal(t, "escape.lua:1: memory limit exceeded (1 MiB): built-ins would allocate 1 MiB in one resume, on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)", err.Error())
}

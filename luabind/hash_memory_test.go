package luabind

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestHashPartEstimateIsWithinTwiceTheHeap: the walk's figure for a
// table's hash part is within a factor of two of the Go heap the table
// really holds, for every kind of key gopher-lua keeps there (integers
// outside the list part, numbers that are not integers, strings) and for
// keys cleared since, which gopher-lua keeps too. It used to count 24
// bytes a live key and nothing for a cleared one: a memory limit fired at
// five times the real heap, or never.
func TestHashPartEstimateIsWithinTwiceTheHeap(t *testing.T) {
	tests := []struct{ name, fill string }{
		{"negative integers", `for i = 1, N do t[-i] = true end`},
		{"integers past the list part", `for i = 1, N do t[2^40 + i] = i end`},
		{"numbers that are not integers", `for i = 1, N do t[i + 0.5] = true end`},
		{"strings", `for i = 1, N do t["key" .. i] = true end`},
		{"integers cleared", `for i = 1, N do t[-i] = true t[-i] = nil end`},
		{"long strings cleared", `local s = string.rep("x", 100) for i = 1, N do local k = s .. i t[k] = true t[k] = nil end`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{InstructionBudget: -1, MaxStringBytes: DefaultMaxStringBytes})
			defer rt.Close()
			fn, err := rt.L.LoadString(`local N = ... local t = {} ` + tc.fill + ` return t`)
			require.NoError(t, err)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			rt.L.Push(fn)
			rt.L.Push(lua.LNumber(100_000))
			require.NoError(t, rt.L.PCall(1, 1, nil))
			tbl := rt.L.Get(-1).(*lua.LTable)
			rt.L.Pop(1)
			runtime.GC()
			runtime.ReadMemStats(&after)
			real := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			s := &sizer{r: rt, seen: map[any]struct{}{}}
			s.push(tbl)
			est := s.run(math.MaxInt64)
			runtime.KeepAlive(tbl)
			t.Logf("real %d, estimated %d (%.2f)", real, est, float64(est)/float64(real))
			assert.GreaterOrEqual(t, est, real/2, "the estimate is at least half the real heap")
			assert.LessOrEqual(t, est, 2*real, "the estimate is at most twice the real heap")
		})
	}
}

// TestSparseKeysWork: a lookup table keyed by sparse ids (t[700000] =
// "orc", which pads a list of 700,000 slots: 11 MiB), negative, zero,
// huge and fractional keys work under the default limits, in a constant
// table of a role file and in a body, next to an agent that keeps
// running. The padding is charged as the memory it takes; it used to fail
// as "instruction budget exceeded (a runaway loop?)", at load too.
func TestSparseKeysWork(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"sparse", "waiter"}, []string{"sparse_keys.lua", "waiter.lua"})
	wd.run(25, 0.1)
	for _, e := range wd.events {
		assert.NotEqual(t, record.EventFail, e.Kind, e.Reason)
	}
	a := wd.agents["sparse"]
	assert.Equal(t, expr.StringValue("orc,elf,ghost,zero,far,half,orc again,a,b,c,troll"), a.Get("seen"))
	assert.Equal(t, expr.NumberValue(4), a.Get("count"))
	assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"))
}

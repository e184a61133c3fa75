package luavm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestStackFrameIsGetStacks: for coroutines suspended under plain calls,
// deep recursion and tail calls (which make GetStack's levels fall back
// to the bottom frame), GetStack finds at every level the frame
// gopher-lua's GetStack finds, and says past the bottom when it does; the
// reused lua.Debug then reads the same locals.
func TestStackFrameIsGetStacks(t *testing.T) {
	require.True(t, OK())
	L := lua.NewState()
	defer L.Close()
	require.NoError(t, L.DoString(`
		local function leaf(a) local b = a * 2; coroutine.yield(b) return b end
		local function tail3(x) return leaf(x + 1) end
		local function tail2(x) return tail3(x) end
		local function mid(x) local m = "mid"; local r = tail2(x); return r end
		function plain(n) local s = "top"; return mid(n) + 1 end
		function deep(n) if n == 0 then coroutine.yield() return 0 end local k = n; return 1 + deep(n - 1) end
		function tails(n) if n == 0 then coroutine.yield() return 0 end return tails(n - 1) end
	`))
	cases := map[string][]lua.LValue{"plain": {lua.LNumber(4)}, "deep": {lua.LNumber(12)}, "tails": {lua.LNumber(9)}}
	var dbg lua.Debug
	for name, args := range cases {
		th, _ := L.NewThread()
		st, err, _ := L.Resume(th, L.GetGlobal(name).(*lua.LFunction), args...)
		require.NoError(t, err, name)
		require.Equal(t, lua.ResumeYield, st, name)
		found := 0
		for level := 0; level < 40; level++ {
			want, wok := th.GetStack(level)
			gok := GetStack(th, level, &dbg)
			got := &dbg
			require.Equal(t, wok, gok, "%s level %d", name, level)
			if !wok {
				break
			}
			found++
			assert.Equal(t, debugFrame(want), debugFrame(got), "%s level %d", name, level)
			for i := 1; ; i++ {
				wn, wv := th.GetLocal(want, i)
				gn, gv := th.GetLocal(got, i)
				assert.Equal(t, wn, gn, "%s level %d local %d", name, level, i)
				assert.Equal(t, wv, gv, "%s level %d local %d", name, level, i)
				if wn == "" {
					break
				}
			}
		}
		assert.Greater(t, found, 1, name)
	}
	// A coroutine that has not started has no level GetStack finds.
	th, _ := L.NewThread()
	assert.False(t, GetStack(th, 0, &dbg))
}

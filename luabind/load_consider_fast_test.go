package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func protoOf(t *testing.T, src string) *lua.FunctionProto {
	t.Helper()
	L := lua.NewState()
	defer L.Close()
	fn, err := L.LoadString("local up = {} return function(action, state) " + src + " end")
	require.NoError(t, err)
	L.Push(fn)
	L.Call(0, 1)
	return L.Get(-1).(*lua.LFunction).Proto
}

func TestStraightLineConsiderations(t *testing.T) {
	tests := []struct {
		name, src        string
		straight, action bool
		reason           string
	}{
		{"state only", "return state.health / 100", true, false, "one field, arithmetic"},
		{"action field", "return action.value / 100", true, true, "reads the action"},
		{"both", "return state.ammo / 30 * action.weight", true, true, "reads the action"},
		{"branch", "if state.health > 50 then return 1 else return 0.2 end", true, false, "forward jumps only"},
		{"compare action", "if action.name == 'attack' then return 1 end return 0", true, true, "reads the action"},
		{"loop", "local s = 0 for i = 1, 3 do s = s + i end return s / 6", false, false, "a loop needs the budget"},
		{"while", "while state.x do end return 1", false, false, "a backward jump"},
		{"call", "return math.min(1, state.health / 100)", false, false, "a call runs other code"},
		{"write", "state.health = 0 return 1", false, false, "a write must hit the read-only proxy"},
		{"upvalue", "return up.x", false, false, "an upvalue may have metamethods"},
		{"concat", "return #(state.name .. 'x')", false, false, "concatenation is a call in the sandbox"},
		{"table", "local t = {} return 1", false, false, "no table constructors"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := protoOf(t, tc.src)
			assert.Equal(t, tc.straight, straightLine(p), tc.reason)
			if tc.straight {
				assert.Equal(t, tc.action, readsFirstArg(p), tc.reason)
			}
		})
	}
}

// Straight-line functions, cached per state or not, score exactly as the
// same functions run through the budgeted, read-only path.
func TestFastConsiderationsScoreAsTheSlowPath(t *testing.T) {
	role := func(wrap string) string {
		return fmt.Sprintf(`return {
  name = "R", decide = "utility",
  state = { health = 50, ammo = 10, dist = 20 },
  considerations = {
    { name = "h", fn = function(action, state) %s return state.health / 100 end },
    { name = "a", fn = function(action, state) %s return state.ammo / 30 * action.weight end },
    { name = "d", fn = function(action, state) %s if state.dist > 25 then return 0.2 end return 1 - state.dist / 50 end },
    { name = "v", fn = function(action, state) %s return action.value / 100 end },
  },
  actions = {
    { name = "a1", utility = { value = 90, weight = 1.2 } },
    { name = "a2", utility = { value = 40, weight = 0.8 } },
    { name = "a3", utility = { value = 70 } },
  },
}`, wrap, wrap, wrap, wrap)
	}
	load := func(src string) (*engine.Domain, func()) {
		path := filepath.Join(t.TempDir(), "r.lua")
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		rt := NewRuntime(Options{})
		d, err := rt.LoadDomain(path)
		require.NoError(t, err)
		return d, rt.Close
	}
	fast, done1 := load(role(""))
	defer done1()
	// A call to an empty local function makes every consideration take the
	// budgeted path with read-only proxies.
	slow, done2 := load(role("local function nop() end nop()"))
	defer done2()
	uf, us := engine.NewUtilityPlanner(fast), engine.NewUtilityPlanner(slow)
	sf, ss := fast.NewState(), slow.NewState()
	for i := 0; i < 60; i++ {
		h, am, di := float64(i*7%101), float64(i*3%31), float64(i*11%60)
		for _, st := range []expr.State{sf, ss} {
			st.Set(fast.Schema, "health", expr.NumberValue(h))
			st.Set(fast.Schema, "ammo", expr.NumberValue(am))
			st.Set(fast.Schema, "dist", expr.NumberValue(di))
		}
		a, b := uf.ActionsByUtility(sf), us.ActionsByUtility(ss)
		require.Len(t, a, 3)
		require.Len(t, b, 3)
		for k := range a {
			assert.Equal(t, b[k].Action.Name, a[k].Action.Name, "state %d", i)
			assert.InDelta(t, b[k].Score, a[k].Score, 1e-12, "state %d", i)
		}
	}
	_, errF := uf.LastError()
	_, errS := us.LastError()
	assert.NoError(t, errF)
	assert.NoError(t, errS)
}

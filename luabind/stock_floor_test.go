package luabind

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// stockAttack is the soldier's attack loop (scripts/soldier.lua) for
// stock gopher-lua: npc is a plain table whose methods come from a plain
// __index table and whose state is a plain table, with no budget, no
// memory watch and no sandbox. Each resume runs the same Lua operations as
// one pass of the shipped body: two state reads and a compare, a shot, the
// ammo count down, a compare, npc:wait(0.2) (a Go function that yields).
const stockAttack = `
local npc = ...
while true do
  npc:shoot()
  npc.state.ammo = npc.state.ammo - 1
  if npc.state.ammo <= 0 then npc.state.ammo = 30 end
  npc:wait(0.2)
  if not npc.state.enemy_visible or npc.state.enemy_health <= 0 then return end
end
`

// stockBodies starts n coroutines of stockAttack in one stock LState with
// the stack and registry sizes a Runtime uses, each waiting in its first
// npc:wait.
func stockBodies(tb testing.TB, n int) (*lua.LState, []*lua.LState) {
	tb.Helper()
	L := lua.NewState(lua.Options{
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMaxSize,
		RegistryGrowStep:    registryGrowStep,
		CallStackSize:       callStackSize,
		MinimizeStackMemory: true,
	})
	fn, err := L.LoadString(stockAttack)
	require.NoError(tb, err)
	methods := L.NewTable()
	L.SetField(methods, "shoot", L.NewFunction(func(*lua.LState) int { return 0 }))
	L.SetField(methods, "wait", L.NewFunction(func(L *lua.LState) int { return L.Yield(L.Get(2)) }))
	mt := L.NewTable()
	L.SetField(mt, "__index", methods)
	ths := make([]*lua.LState, n)
	for i := range ths {
		th, _ := L.NewThread()
		npc, state := L.NewTable(), L.NewTable()
		L.SetField(state, "ammo", lua.LNumber(30))
		L.SetField(state, "enemy_visible", lua.LTrue)
		L.SetField(state, "enemy_health", lua.LNumber(100))
		L.SetField(npc, "state", state)
		L.SetMetatable(npc, mt)
		st, err, _ := L.Resume(th, fn, npc)
		require.NoError(tb, err)
		require.Equal(tb, lua.ResumeYield, st)
		ths[i] = th
	}
	return L, ths
}

// TestStockAttackCountsDown checks the floor benchmark's body does the
// work it claims: each resume shoots once and counts the ammo down by one.
func TestStockAttackCountsDown(t *testing.T) {
	L, ths := stockBodies(t, 3)
	defer L.Close()
	for range 4 {
		for _, th := range ths {
			st, err, rets := L.Resume(th, nil)
			require.NoError(t, err)
			require.Equal(t, lua.ResumeYield, st)
			require.Equal(t, []lua.LValue{lua.LNumber(0.2)}, rets)
		}
	}
	for _, th := range ths {
		npc := th.Get(1).(*lua.LTable)
		state := L.GetField(npc, "state").(*lua.LTable)
		require.Equal(t, lua.LNumber(25), L.GetField(state, "ammo"))
	}
}

// BenchmarkStockAttackResume is the floor under bench's LuaAttackResume:
// one resume of the same attack loop in stock gopher-lua v1.1.2 (see
// stockAttack), taking the bodies in turn, 100 of them (all in the cache)
// and 10,000 (the cache misses of a large world). It lives here because
// only luabind may import gopher-lua; bench/README.md compares the two.
func BenchmarkStockAttackResume(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("bodies=%d", n), func(b *testing.B) {
			L, ths := stockBodies(b, n)
			defer L.Close()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			for i := 0; i < b.N; i++ {
				if st, err, _ := L.Resume(ths[i%n], nil); st != lua.ResumeYield || err != nil {
					b.Fatal(st, err)
				}
			}
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// countingCtx is the cheapest instruction budget stock gopher-lua allows:
// the VM calls Done before every instruction (mainLoopWithContext), Done
// counts, and past limit it returns a closed channel so the VM raises
// Err. Nothing else: no table work, no heap watch, no npc object. One
// countingCtx is shared by every coroutine, as a Runtime's budget is, and
// reset before each resume (n = 0).
type countingCtx struct {
	n, limit int64
}

func (c *countingCtx) Done() <-chan struct{} {
	c.n++
	if c.n > c.limit {
		return closedChan
	}
	return nil
}

func (c *countingCtx) Err() error {
	if c.n > c.limit {
		return errCountedOut
	}
	return nil
}

func (c *countingCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *countingCtx) Value(any) any               { return nil }

var errCountedOut = errors.New("counted out")

// countedBodies is stockBodies with every coroutine carrying ctx.
func countedBodies(tb testing.TB, n int, ctx *countingCtx) (*lua.LState, []*lua.LState) {
	tb.Helper()
	L, ths := stockBodies(tb, n)
	for _, th := range ths {
		th.SetContext(ctx)
	}
	return L, ths
}

// TestCountedStockAttackCountsAndStops checks the counting context of the
// floor benchmark counts each resume's VM instructions (the same number
// every pass) and stops a resume past its limit with its error.
func TestCountedStockAttackCountsAndStops(t *testing.T) {
	ctx := &countingCtx{limit: 1 << 40}
	L, ths := countedBodies(t, 2, ctx)
	defer L.Close()
	var counts []int64
	for range 3 {
		ctx.n = 0
		st, err, _ := L.Resume(ths[0], nil)
		require.NoError(t, err)
		require.Equal(t, lua.ResumeYield, st)
		counts = append(counts, ctx.n)
	}
	require.Greater(t, counts[0], int64(20), "a pass of the loop is a few dozen instructions")
	t.Logf("%d VM instructions per resume", counts[0])
	assert.Equal(t, []int64{counts[0], counts[0], counts[0]}, counts)
	ctx.n, ctx.limit = 0, counts[0]/2
	st, err, _ := L.Resume(ths[1], nil)
	assert.Equal(t, lua.ResumeError, st)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "counted out")
}

// BenchmarkStockAttackResumeCounted is the floor of any instruction
// budget on unforked gopher-lua: BenchmarkStockAttackResume's resume with
// the cheapest counting context (countingCtx) on every coroutine. The
// difference to BenchmarkStockAttackResume is what the VM's select on
// ctx.Done and one counting call per instruction cost; bench's
// LuaAttackResume does the same loop under the whole sandbox.
func BenchmarkStockAttackResumeCounted(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("bodies=%d", n), func(b *testing.B) {
			ctx := &countingCtx{limit: DefaultInstructionBudget}
			L, ths := countedBodies(b, n, ctx)
			defer L.Close()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			for i := 0; i < b.N; i++ {
				ctx.n = 0
				if st, err, _ := L.Resume(ths[i%n], nil); st != lua.ResumeYield || err != nil {
					b.Fatal(st, err)
				}
			}
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}

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
			for i := 0; i < b.N; i++ {
				ctx.n = 0
				if st, err, _ := L.Resume(ths[i%n], nil); st != lua.ResumeYield || err != nil {
					b.Fatal(st, err)
				}
			}
		})
	}
}

//go:build ticktrace

package bench

import (
	"fmt"
	"sort"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/internal/ticktrace"
)

// TestTickTrace prints where the wall time of a tick of 10,000 soldiers
// goes on 1 and 2 workers, medians over 600 ticks: the serial sections
// of World.Tick and, per lane, when it started after the lanes were made,
// how long it ran, and how long the tick then waited for the other lane.
// Build tag ticktrace only (internal/ticktrace):
//
//	go test -tags ticktrace -run TestTickTrace -v ./bench
func TestTickTrace(t *testing.T) {
	for _, gob := range []bool{true, false} {
		for _, workers := range []int{1, 2} {
			var w *engine.World
			var done func()
			if gob {
				w, done = goSoldierWorld(t, 10000, workers)
			} else {
				w, done = soldierWorld(t, 10000, workers)
			}
			ticktrace.On = true
			for range 600 {
				w.Tick(1.0 / 60)
			}
			ticktrace.On = false
			done()
			tr := ticktrace.Traces()
			med := func(f func(ticktrace.Trace) int64) float64 {
				v := make([]int64, len(tr))
				var sum int64
				for i, x := range tr {
					v[i] = f(x)
					sum += v[i]
				}
				sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
				_ = sum
				return float64(v[len(v)/2]) / 1000
			}
			fmt.Printf("gobodies=%v workers=%d (median µs): total %.1f makeLanes %.1f lanes-wall %.1f serve %.1f handOn %.1f clock %.1f\n", gob, workers,
				med(func(x ticktrace.Trace) int64 { return x.Mark[7] }),
				med(func(x ticktrace.Trace) int64 { return x.Mark[1] }),
				med(func(x ticktrace.Trace) int64 { return x.Mark[2] - x.Mark[1] }),
				med(func(x ticktrace.Trace) int64 { return x.Mark[3] - x.Mark[2] }),
				med(func(x ticktrace.Trace) int64 { return x.Mark[4] - x.Mark[3] }),
				med(func(x ticktrace.Trace) int64 { return x.Mark[7] - x.Mark[4] }))
			for k := range workers {
				fmt.Printf("   lane %d: start %.1f run %.1f end-to-join %.1f\n", k,
					med(func(x ticktrace.Trace) int64 { return x.Lane[k][0] - x.Mark[1] }),
					med(func(x ticktrace.Trace) int64 { return x.Lane[k][1] - x.Lane[k][0] }),
					med(func(x ticktrace.Trace) int64 { return x.Mark[2] - x.Lane[k][1] }))
			}
		}
	}
}

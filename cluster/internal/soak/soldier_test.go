package soak

import (
	"bytes"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// soldierWorld is a zone of n soldiers that have walked for a while.
func soldierWorld(t testing.TB, n int) (*engine.World, *engine.Domain) {
	d, err := Soldier(800, 20)
	require.NoError(t, err)
	w := engine.NewWorld(7)
	for i := range n {
		a := engine.NewAgent(fmt.Sprintf("npc%06d", i), d)
		a.Set("x", expr.NumberValue(float64(i)))
		a.Set("post", expr.NumberValue(float64(i)))
		w.Add(a)
	}
	for range 300 {
		w.Tick(1.0 / 60)
	}
	return w, d
}

// Soldiers walk to their posts and get new orders: they cross borders.
func TestSoldiersWalk(t *testing.T) {
	w, _ := soldierWorld(t, 20)
	zones := zoneNames(8)
	moved := 0
	for i, a := range w.Agents {
		x, _ := a.Get("x").AsNumber()
		post, _ := a.Get("post").AsNumber()
		assert.NotEqual(t, float64(i), x, "%s walked from where it started", a.Name)
		assert.False(t, a.Get("arrived").Truthy() && x != post, a.Name)
		if zoneOf(zones, 100, x) != zoneOf(zones, 100, 0) {
			moved++
		}
	}
	assert.Positive(t, moved, "some soldiers left the first zone")
	assert.Equal(t, "z7", zoneOf(zones, 100, 9999))
	assert.Equal(t, "z0", zoneOf(zones, 100, -1))
}

// BenchmarkMindMove is the engine's part of a hand-off of a soak soldier:
// its snapshot out of one world and into another, and the bytes between.
func BenchmarkMindMove(b *testing.B) {
	src, d := soldierWorld(b, 100)
	dst := engine.NewWorld(8)
	opts := engine.RestoreOptions{Domains: []*engine.Domain{d}}
	var buf bytes.Buffer
	total := 0
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; b.Loop(); i++ {
		from, to := src, dst
		if i%200 >= 100 {
			from, to = dst, src
		}
		a := from.Agents[0]
		buf.Reset()
		if err := from.SnapshotAgents(&buf, []*engine.Agent{a}); err != nil {
			b.Fatal(err)
		}
		total += buf.Len()
		from.Remove(a)
		if _, err := to.AddSnapshot(&buf, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/move")
	b.ReportMetric(float64(total)/float64(b.N), "bytes/move")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package cluster

import (
	"context"
	"fmt"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHandoff measures what one hand-off costs, the NATS server
// included (it runs in the process): 100 agents bounce between two zones
// of two shards, each crossing at every tick it spends in a zone. It
// reports the process's CPU time and the snapshot bytes per hand-off.
func BenchmarkHandoff(b *testing.B) {
	srv := testServer(b)
	d := walkerDomain(b)
	var adopted, bytes atomic.Int64
	zones := []string{"west", "east"}
	var stops []context.CancelFunc
	var dones []chan error
	for i, name := range []string{"a", "b"} {
		st := testStore(b, srv)
		zone := zones[i]
		s, err := NewShard(st, Options{Name: name, Zones: zones, Claim: []string{zone}, Domains: []*engine.Domain{d},
			Rate: 200, SnapshotEvery: time.Hour,
			Start: func(z *Zone) {
				if z.Name == "west" {
					for k := range 100 {
						require.NoError(b, z.Spawn(engine.NewAgent(fmt.Sprintf("w%03d", k), d)))
					}
				}
			},
			Border: func(z *Zone, a *engine.Agent) string { return zones[1-i] },
			OnRecord: func(r Record) {
				switch r.Kind {
				case Adopted:
					adopted.Add(1)
				case Sent:
					bytes.Add(int64(r.Bytes))
				}
			},
		})
		require.NoError(b, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		<-s.Ready()
		stops, dones = append(stops, cancel), append(dones, done)
	}
	for adopted.Load() < 200 {
		time.Sleep(time.Millisecond) // warm up
	}
	b.ResetTimer()
	from, cpu0, bytes0 := adopted.Load(), cpuTime(), bytes.Load()
	for adopted.Load() < from+int64(b.N) {
		time.Sleep(time.Millisecond)
	}
	n := adopted.Load() - from
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(n), "cpu-ns/handoff")
	b.ReportMetric(float64(bytes.Load()-bytes0)/float64(n), "bytes/handoff")
	b.StopTimer()
	for i, stop := range stops {
		stop()
		<-dones[i]
	}
}

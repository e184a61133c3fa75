package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/moonmind-ai/moonmind/inspect"
)

// BenchmarkInspectorTick ticks, in one process and in turn, three worlds of
// the same 10,000 soldiers (Lua bodies, 2 workers): bare (World.Tick),
// attached (inspect.Inspector.Tick with no page open) and watched
// (Inspector.Tick with one page on a WebSocket watching one soldier: its
// history kept every tick, its view pushed at the page's rate, read and
// decoded by a client in this process). As BenchmarkWorldTickPaired, an op
// is a round in which each world ticks pairedChunk times, the first world
// of the round moving on by one each round. It reports each world's wall
// time per tick and CPU time per agent-tick (the client's included in the
// watched world's), and the ratios attached/bare and watched/bare of both.
func BenchmarkInspectorTick(b *testing.B) {
	const n = 10000
	b.Run(fmt.Sprintf("soldiers=%d/workers=2", n), func(b *testing.B) {
		bare, d0 := soldierWorld(b, n, 2)
		b.Cleanup(d0)
		attached, d1 := soldierWorld(b, n, 2)
		b.Cleanup(d1)
		watched, d2 := soldierWorld(b, n, 2)
		b.Cleanup(d2)
		ins := inspect.New(inspect.Options{})
		if err := ins.Attach("attached", attached); err != nil {
			b.Fatal(err)
		}
		if err := ins.Attach("watched", watched); err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(ins.Handler())
		b.Cleanup(srv.Close)
		ctx, cancel := context.WithCancel(context.Background())
		b.Cleanup(cancel)
		name := watched.Agents[n/3].Name
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/ws?world=watched&agent="+name, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.CloseNow() })
		got := make(chan int, 1)
		first := make(chan struct{})
		go func() {
			updates := 0
			defer func() { got <- updates }()
			for {
				_, msg, err := c.Read(ctx)
				if err != nil {
					return
				}
				var u struct {
					Agent struct{ Name string } `json:"agent"`
				}
				if json.Unmarshal(msg, &u) == nil && u.Agent.Name == name {
					if updates++; updates == 1 {
						close(first)
					}
				}
			}
		}()
		// The page watches once its first update has come.
		for waiting := true; waiting; {
			ins.Tick(watched, 1.0/60)
			select {
			case <-first:
				waiting = false
			case <-time.After(10 * time.Millisecond):
			}
		}
		worlds := []func(){
			func() { bare.Tick(1.0 / 60) },
			func() { ins.Tick(attached, 1.0/60) },
			func() { ins.Tick(watched, 1.0/60) },
		}
		cpu := make([]int64, len(worlds))
		wall := make([]int64, len(worlds))
		runtime.GC()
		b.ResetTimer()
		for i := range b.N {
			for j := range worlds {
				k := (i + j) % len(worlds)
				t0, c0 := time.Now(), cpuNow()
				for range pairedChunk {
					worlds[k]()
				}
				cpu[k] += cpuNow() - c0
				wall[k] += int64(time.Since(t0))
			}
		}
		b.StopTimer()
		cancel()
		c.CloseNow()
		updates := <-got
		ticks := float64(b.N * pairedChunk)
		for k, w := range []string{"bare", "attached", "watched"} {
			b.ReportMetric(float64(wall[k])/ticks/1e3, w+"-µs/tick")
			b.ReportMetric(float64(cpu[k])/ticks/n, w+"-cpu-ns/agent-tick")
		}
		b.ReportMetric(float64(wall[1])/float64(wall[0]), "attached/bare")
		b.ReportMetric(float64(wall[2])/float64(wall[0]), "watched/bare")
		b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "attached/bare-cpu")
		b.ReportMetric(float64(cpu[2])/float64(cpu[0]), "watched/bare-cpu")
		b.ReportMetric(float64(updates)/ticks, "updates/tick")
	})
}

// BenchmarkInspectorAfterTick is the inspector's own work after one tick
// of 10,000 soldiers (Lua bodies, 2 workers) with one page watching one
// soldier and an update pushed after every tick (PushEvery 1 ns; the page
// reads and decodes them): the agent's frame for time travel and its
// view, which a page otherwise gets at most every 50 ms. The op is one
// AfterTick (the world does not tick in between); the CPU includes the
// server's encoding and the page's decoding.
func BenchmarkInspectorAfterTick(b *testing.B) {
	const n = 10000
	w, done := soldierWorld(b, n, 2)
	b.Cleanup(done)
	ins := inspect.New(inspect.Options{PushEvery: time.Nanosecond})
	if err := ins.Attach("watched", w); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(ins.Handler())
	b.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	name := w.Agents[n/3].Name
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/ws?world=watched&agent="+name, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.CloseNow() })
	first := make(chan struct{})
	go func() {
		for k := 0; ; k++ {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			var u map[string]any
			_ = json.Unmarshal(msg, &u)
			if k == 0 {
				close(first)
			}
		}
	}()
	for waiting := true; waiting; {
		ins.Tick(w, 1.0/60)
		select {
		case <-first:
			waiting = false
		case <-time.After(10 * time.Millisecond):
		}
	}
	runtime.GC()
	b.ResetTimer()
	c0 := cpuNow()
	for range b.N {
		ins.AfterTick(w)
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkInspectorPopulation is one request of the population view over
// 10,000 soldiers: GET api/agents sorted by goal, the first page of 100,
// answered between ticks (the game loop here only answers, with Idle).
// cpu-ns/op is the whole process's: the server's filter, sort and JSON,
// and the rows read on the world's goroutine.
func BenchmarkInspectorPopulation(b *testing.B) {
	const n = 10000
	w, done := soldierWorld(b, n, 2)
	b.Cleanup(done)
	ins := inspect.New(inspect.Options{})
	if err := ins.Attach("zone", w); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(ins.Handler())
	b.Cleanup(srv.Close)
	stop := make(chan struct{})
	served := make(chan struct{})
	go func() { // the game loop
		defer close(served)
		for {
			select {
			case <-stop:
				return
			default:
				ins.Idle(w)
				time.Sleep(time.Millisecond)
			}
		}
	}()
	b.Cleanup(func() { close(stop); <-served })
	b.ResetTimer()
	c0 := cpuNow()
	for range b.N {
		resp, err := http.Get(srv.URL + "/api/agents?sort=goal&limit=100")
		if err != nil {
			b.Fatal(err)
		}
		var rows []map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&rows); err != nil || len(rows) != 100 {
			b.Fatalf("%d rows, %v", len(rows), err)
		}
		resp.Body.Close()
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

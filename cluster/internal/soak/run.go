package soak

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/moonmind-ai/moonmind/cluster"
	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// ShardConfig is one shard process of the soak.
type ShardConfig struct {
	URL      string        // the NATS server
	Name     string        // the shard's name
	Zones    int           // zones along the line
	Claim    []string      // the zones it claims and fills with soldiers at start
	PerZone  int           // soldiers spawned in each claimed zone
	Width    float64       // a zone's width
	Speed    float64       // soldiers' speed, units a second
	Rate     float64       // ticks a second
	Snapshot time.Duration // how often zones are snapshotted
	Lease    time.Duration // lease TTL
	Profile  string        // when set, a CPU profile of the shard is written to this file
}

// stats is what a shard process reports on the stats subject once a
// second and when it ends: counts since its last report.
type stats struct {
	Shard     string    `json:"shard"`
	Spawned   int       `json:"spawned"`
	Adopted   int       `json:"adopted"`
	Sent      int       `json:"sent"`
	SentBytes int       `json:"sent_bytes"`
	Resent    int       `json:"resent"`
	Lost      int       `json:"lost"`
	Latency   []float64 `json:"latency_ms"`
	Final     bool      `json:"final"`
}

const statsSubject = "soak.stats"

func storeOptions(lease time.Duration) cluster.StoreOptions {
	return cluster.StoreOptions{Prefix: "soak", LeaseTTL: lease}
}

// RunShard runs one shard process until SIGTERM (or SIGINT), then drains
// it. It prints "ready" on out once its zones run.
func RunShard(cfg ShardConfig, out io.Writer) error {
	if cfg.Profile != "" {
		f, err := os.Create(cfg.Profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	nc, err := nats.Connect(cfg.URL, nats.Name(cfg.Name), nats.MaxReconnects(-1),
		nats.ReconnectWait(100*time.Millisecond), nats.ReconnectBufSize(64<<20))
	if err != nil {
		return err
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	st, err := cluster.OpenStore(ctx, nc, storeOptions(cfg.Lease))
	if err != nil {
		return err
	}
	zones := zoneNames(cfg.Zones)
	span := cfg.Width * float64(cfg.Zones)
	d, err := Soldier(span, cfg.Speed)
	if err != nil {
		return err
	}
	xSlot, _ := d.Schema.Lookup("x")
	var mu sync.Mutex
	cur := stats{Shard: cfg.Name}
	flush := func(final bool) {
		mu.Lock()
		s := cur
		cur = stats{Shard: cfg.Name}
		mu.Unlock()
		s.Final = final
		b, _ := json.Marshal(s)
		_ = nc.Publish(statsSubject, b)
	}
	spawned := map[string]bool{}
	sh, err := cluster.NewShard(st, cluster.Options{
		Name: cfg.Name, Zones: zones, Claim: cfg.Claim, TakeOver: true,
		Domains: []*engine.Domain{d}, Rate: cfg.Rate, SnapshotEvery: cfg.Snapshot,
		Start: func(z *cluster.Zone) {
			i := slices.Index(zones, z.Name)
			mu.Lock()
			first := !spawned[z.Name]
			spawned[z.Name] = true
			mu.Unlock()
			if !slices.Contains(cfg.Claim, z.Name) || !first || z.Held() > 0 {
				return
			}
			for k := range cfg.PerZone {
				a := engine.NewAgent(fmt.Sprintf("npc%06d", i*cfg.PerZone+k), d)
				x := cfg.Width*float64(i) + cfg.Width*(float64(k)+0.5)/float64(cfg.PerZone)
				a.Set("x", expr.NumberValue(x))
				a.Set("post", expr.NumberValue(x))
				_ = z.Spawn(a)
			}
		},
		Border: func(z *cluster.Zone, a *engine.Agent) string {
			// Asked for every soldier every tick: by its slot, not its name.
			x, _ := a.State[xSlot].AsNumber()
			return zoneOf(zones, cfg.Width, x)
		},
		OnRecord: func(r cluster.Record) {
			mu.Lock()
			defer mu.Unlock()
			switch r.Kind {
			case cluster.ZoneStarted:
				fmt.Fprintf(os.Stderr, "%s %s: %s %s, %d soldiers, %.1f s after its claim\n", time.Now().UTC().Format("15:04:05.000"), r.Shard, r.Kind, r.Zone, r.Count, r.Latency.Seconds())
			case cluster.ZoneStopped:
				fmt.Fprintf(os.Stderr, "%s: %s %s, %d soldiers\n", r.Shard, r.Kind, r.Zone, r.Count)
			case cluster.ZoneLost:
				fmt.Fprintf(os.Stderr, "%s: %s %s\n", r.Shard, r.Kind, r.Zone)
			case cluster.ZoneFailed:
				fmt.Fprintf(os.Stderr, "%s: %s %s: %v\n", r.Shard, r.Kind, r.Zone, r.Err)
			case cluster.Spawned:
				cur.Spawned++
			case cluster.Adopted:
				cur.Adopted++
				cur.Latency = append(cur.Latency, float64(r.Latency)/float64(time.Millisecond))
			case cluster.Sent:
				cur.Sent++
				cur.SentBytes += r.Bytes
			case cluster.Resent:
				cur.Resent++
			case cluster.Lost:
				cur.Lost++
			}
		},
	})
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- sh.Run(ctx) }()
	<-sh.Ready()
	fmt.Fprintln(out, "ready")
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			flush(true)
			_ = nc.Flush()
			return err
		case <-tick.C:
			flush(false)
		}
	}
}

// RunCommand parses the flags of "moonmind-shard run" and runs the shard.
func RunCommand(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var cfg ShardConfig
	var claim string
	fs.StringVar(&cfg.URL, "nats", "", "NATS server URL")
	fs.StringVar(&cfg.Name, "name", "", "the shard's name")
	fs.IntVar(&cfg.Zones, "zones", 8, "zones along the line")
	fs.StringVar(&claim, "claim", "", "zones to claim, comma-separated")
	fs.IntVar(&cfg.PerZone, "per-zone", 0, "soldiers spawned in each claimed zone")
	fs.Float64Var(&cfg.Width, "width", 100, "a zone's width")
	fs.Float64Var(&cfg.Speed, "speed", 2, "soldiers' speed, units a second")
	fs.Float64Var(&cfg.Rate, "rate", 60, "ticks a second")
	fs.DurationVar(&cfg.Snapshot, "snapshot", 5*time.Second, "snapshot period")
	fs.DurationVar(&cfg.Lease, "lease", 3*time.Second, "lease TTL")
	fs.StringVar(&cfg.Profile, "cpuprofile", "", "write a CPU profile of the shard to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if claim != "" {
		cfg.Claim = strings.Split(claim, ",")
	}
	return RunShard(cfg, out)
}

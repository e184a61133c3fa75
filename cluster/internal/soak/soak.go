package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/moonmind-ai/moonmind/cluster"
)

// Config is a soak run.
type Config struct {
	Shards      int
	NPCs        int
	Zones       int // zones along the line; 2 per shard when zero
	Seconds     float64
	Kill        int  // shards killed with SIGKILL halfway through
	RestartNATS bool // restart the NATS server halfway through
	Rate        float64
	Speed       float64
	Width       float64
	Snapshot    time.Duration
	Lease       time.Duration
	Profile     string    // when set, each shard writes a CPU profile into this directory
	Exe         string    // the binary whose "run" command is a shard
	Log         io.Writer // progress lines
}

// Result is what a soak measured.
type Result struct {
	Lost, Duplicated, Misowned int
	Handoffs                   int
	P50, P99                   float64 // hand-off latency, ms
	P99Calm                    float64 // p99 of the first half, before any shard was killed or the server restarted
	P99Late                    float64 // p99 of the second half
	Slow                       int     // hand-offs that took a second or more: they waited for a zone's takeover or the server
	PerSecond                  float64
	BytesPerHandoff            float64
	CPUPerHandoff              time.Duration // the shard processes' CPU time over hand-offs and ticks together
	CPU                        time.Duration
	Resent, Spawned            int
}

// Line is the soak's closing line.
func (r Result) Line() string {
	return fmt.Sprintf("lost %d duplicated %d handoffs %d p99 %.1f ms", r.Lost, r.Duplicated, r.Handoffs, r.P99)
}

type child struct {
	name  string
	cmd   *exec.Cmd
	ready chan struct{}
	done  chan struct{}
	err   error
}

// Run runs a soak: an embedded NATS server on 127.0.0.1, cfg.Shards shard
// processes, cfg.Kill of them killed halfway, then the survivors drained,
// and every soldier counted in the zones' final snapshots.
func Run(cfg Config) (Result, error) {
	if cfg.Zones == 0 {
		cfg.Zones = 2 * cfg.Shards
	}
	if cfg.Zones%cfg.Shards != 0 || cfg.NPCs%cfg.Zones != 0 {
		return Result{}, fmt.Errorf("soak: %d zones over %d shards, %d soldiers: use multiples", cfg.Zones, cfg.Shards, cfg.NPCs)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, format+"\n", args...) }
	dir, err := os.MkdirTemp("", "moonmind-soak-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	srv, err := cluster.StartServer(cluster.ServerOptions{Dir: dir})
	if err != nil {
		return Result{}, err
	}
	defer func() { srv.Shutdown() }()
	url := srv.ClientURL()
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		return Result{}, err
	}
	defer nc.Close()
	ctx := context.Background()
	st, err := cluster.OpenStore(ctx, nc, storeOptions(cfg.Lease))
	if err != nil {
		return Result{}, err
	}

	var mu sync.Mutex
	var res Result
	var lat []float64
	var marks []int // len(lat) at the end of each 5 s of the run
	calm := -1      // the hand-offs of the first half, once it ends
	finals := map[string]bool{}
	sub, err := nc.Subscribe(statsSubject, func(m *nats.Msg) {
		var s stats
		if json.Unmarshal(m.Data, &s) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		res.Spawned += s.Spawned
		res.Handoffs += s.Adopted
		res.Resent += s.Resent
		res.BytesPerHandoff += float64(s.SentBytes)
		lat = append(lat, s.Latency...)
		if s.Final {
			finals[s.Shard] = true
		}
	})
	if err != nil {
		return Result{}, err
	}
	defer sub.Unsubscribe()

	zones := zoneNames(cfg.Zones)
	per := cfg.Zones / cfg.Shards
	children := make([]*child, cfg.Shards)
	for i := range children {
		claim := zones[i*per : (i+1)*per]
		c := &child{name: fmt.Sprintf("shard%d", i), ready: make(chan struct{}), done: make(chan struct{})}
		c.cmd = exec.Command(cfg.Exe, "run", "--nats", url, "--name", c.name, "--zones", strconv.Itoa(cfg.Zones),
			"--claim", strings.Join(claim, ","), "--per-zone", strconv.Itoa(cfg.NPCs/cfg.Zones),
			"--width", fmt.Sprint(cfg.Width), "--speed", fmt.Sprint(cfg.Speed), "--rate", fmt.Sprint(cfg.Rate),
			"--snapshot", cfg.Snapshot.String(), "--lease", cfg.Lease.String())
		if cfg.Profile != "" {
			c.cmd.Args = append(c.cmd.Args, "--cpuprofile", filepath.Join(cfg.Profile, c.name+".pprof"))
		}
		c.cmd.Stderr = os.Stderr
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			return Result{}, err
		}
		if err := c.cmd.Start(); err != nil {
			return Result{}, err
		}
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if sc.Text() == "ready" {
					close(c.ready)
				}
			}
		}()
		go func() { c.err = c.cmd.Wait(); close(c.done) }()
		children[i] = c
	}
	defer func() {
		for _, c := range children {
			_ = c.cmd.Process.Kill()
		}
	}()
	for _, c := range children {
		select {
		case <-c.ready:
		case <-c.done:
			return Result{}, fmt.Errorf("soak: %s ended before it was ready: %v", c.name, c.err)
		case <-time.After(60 * time.Second):
			return Result{}, fmt.Errorf("soak: %s not ready after 60 s", c.name)
		}
	}
	spawnBy := time.Now().Add(120 * time.Second)
	for {
		mu.Lock()
		n := res.Spawned
		mu.Unlock()
		if n >= cfg.NPCs {
			break
		}
		if time.Now().After(spawnBy) {
			return Result{}, fmt.Errorf("soak: %d of %d soldiers spawned after 120 s", n, cfg.NPCs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	res.Handoffs, res.BytesPerHandoff, lat = 0, 0, nil
	mu.Unlock()
	logf("soak: %d shards, %d zones, %d soldiers spawned; running %.0f s", cfg.Shards, cfg.Zones, cfg.NPCs, cfg.Seconds)

	start := time.Now()
	half := time.Duration(cfg.Seconds * float64(time.Second) / 2)
	stopMarks := make(chan struct{})
	marksDone := make(chan struct{})
	go func() {
		defer close(marksDone)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-stopMarks:
				return
			case <-t.C:
				mu.Lock()
				marks = append(marks, len(lat))
				mu.Unlock()
			}
		}
	}()
	time.Sleep(half)
	mu.Lock()
	calm = len(lat)
	mu.Unlock()
	killed := map[string]bool{}
	for i := 0; i < cfg.Kill && i < len(children); i++ {
		c := children[len(children)-1-i]
		killed[c.name] = true
		logf("soak: SIGKILL %s at %.0f s (%s)", c.name, time.Since(start).Seconds(), time.Now().UTC().Format("15:04:05.000"))
		_ = c.cmd.Process.Signal(syscall.SIGKILL)
	}
	if cfg.RestartNATS {
		logf("soak: restarting the NATS server at %.0f s", time.Since(start).Seconds())
		addr := srv.Addr().String()
		srv.Shutdown()
		srv.WaitForShutdown()
		time.Sleep(500 * time.Millisecond)
		p, _ := strconv.Atoi(addr[strings.LastIndexByte(addr, ':')+1:])
		if srv, err = cluster.StartServer(cluster.ServerOptions{Dir: dir, Port: p}); err != nil {
			return Result{}, err
		}
	}
	time.Sleep(time.Duration(cfg.Seconds*float64(time.Second)) - time.Since(start))
	elapsed := time.Since(start)
	close(stopMarks)
	<-marksDone

	// Every zone must have a live owner before the drain: a zone still
	// waiting for its takeover has only its last periodic snapshot.
	dead := killed
	for waited := 0; ; waited++ {
		held := 0
		for _, z := range zones {
			if h, err := st.Holder(ctx, z); err == nil && h.Shard != "" && !dead[h.Shard] {
				held++
			}
		}
		if held == len(zones) {
			break
		}
		if waited == 300 {
			return Result{}, fmt.Errorf("soak: %d of %d zones have a live owner after 30 s", held, len(zones))
		}
		time.Sleep(100 * time.Millisecond)
	}

	logf("soak: draining the shards")
	var cpu time.Duration
	for _, c := range children {
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, c := range children {
		select {
		case <-c.done:
		case <-time.After(90 * time.Second):
			return Result{}, fmt.Errorf("soak: %s did not drain in 90 s", c.name)
		}
		if ps := c.cmd.ProcessState; ps != nil {
			cpu += ps.UserTime() + ps.SystemTime()
		}
		if c.err != nil && !killed[c.name] {
			return Result{}, fmt.Errorf("soak: %s: %v (its drain failed; the zones' snapshots are not final)", c.name, c.err)
		}
	}
	_ = nc.Flush()
	time.Sleep(200 * time.Millisecond)

	// Count every soldier in the final snapshots, against the owners.
	owners, err := st.Owners(ctx)
	if err != nil {
		return Result{}, err
	}
	seen := map[string][]string{}
	for _, z := range zones {
		names, err := st.ZoneAgents(ctx, z)
		if err != nil {
			return Result{}, err
		}
		for _, n := range names {
			seen[n] = append(seen[n], z)
		}
	}
	for i := range cfg.NPCs {
		name := fmt.Sprintf("npc%06d", i)
		switch z := seen[name]; {
		case len(z) == 0:
			res.Lost++
			logf("soak: %s is in no zone (its owner says %q)", name, owners[name])
		case len(z) > 1:
			res.Duplicated++
			logf("soak: %s is in zones %v (its owner says %q)", name, z, owners[name])
		case owners[name] != z[0]:
			res.Misowned++
			logf("soak: %s is in zone %s, its owner says %q", name, z[0], owners[name])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if res.Handoffs > 0 {
		res.BytesPerHandoff /= float64(res.Handoffs)
	}
	if calm > 0 {
		first := slices.Clone(lat[:calm])
		slices.Sort(first)
		res.P99Calm = first[int(math.Ceil(0.99*float64(len(first))))-1]
	}
	// The p99 of each 5 s, to see where the tail comes from (the
	// latencies arrive about a second after their hand-offs).
	var series []string
	from := 0
	for _, m := range marks {
		if m > from {
			part := slices.Clone(lat[from:m])
			slices.Sort(part)
			series = append(series, fmt.Sprintf("%.0f", part[int(math.Ceil(0.99*float64(len(part))))-1]))
		}
		from = m
	}
	logf("soak: p99 of each 5 s, ms: %s", strings.Join(series, " "))
	if calm >= 0 && calm < len(lat) {
		second := slices.Clone(lat[calm:])
		slices.Sort(second)
		res.P99Late = second[int(math.Ceil(0.99*float64(len(second))))-1]
	}
	slices.Sort(lat)
	for _, l := range lat {
		if l >= 1000 {
			res.Slow++
		}
	}
	if len(lat) > 0 {
		res.P50 = lat[len(lat)/2]
		res.P99 = lat[int(math.Ceil(0.99*float64(len(lat))))-1]
	}
	res.PerSecond = float64(res.Handoffs) / elapsed.Seconds()
	res.CPU = cpu
	return res, nil
}

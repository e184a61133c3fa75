// Command moonmind-shard runs shards of moonmind worlds on NATS JetStream.
//
//	moonmind-shard soak [flags]   a soak test on this machine (see -h)
//	moonmind-shard run [flags]    one shard process of the soak
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/moonmind-ai/moonmind/cluster/internal/soak"
)

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "soak" && os.Args[1] != "run") {
		fmt.Fprintln(os.Stderr, "usage: moonmind-shard soak [flags] | moonmind-shard run [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "soak":
		err = soakCmd(os.Args[2:])
	case "run":
		err = runCmd(os.Args[2:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "moonmind-shard:", err)
		os.Exit(1)
	}
}

func soakCmd(args []string) error {
	fs := flag.NewFlagSet("soak", flag.ExitOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: moonmind-shard soak [flags]

Starts a NATS server with JetStream in this process (127.0.0.1, a random
port, its store in a temporary directory) and -shards shard processes, each
claiming its share of the zones along a line and spawning its share of the
soldiers. Soldiers walk to posts anywhere on the line and cross zone
borders. Halfway through, -kill shards are killed with SIGKILL (the others
take their zones over from the zones' snapshots), and with -restart-nats
the NATS server is stopped and started again. At the end every shard is
drained (SIGTERM: a final snapshot of each zone) and every soldier is
counted by name in the zones' snapshots. The last line is

  lost L duplicated D handoffs N p99 X ms

with the hand-offs completed during the run and their latency (from the
source taking the soldier out to the target's tick boundary adding it).`)
		fs.PrintDefaults()
	}
	var cfg soak.Config
	fs.IntVar(&cfg.Shards, "shards", 4, "shard processes")
	fs.IntVar(&cfg.NPCs, "npcs", 20000, "soldiers, spread evenly over the zones")
	fs.IntVar(&cfg.Zones, "zones", 0, "zones along the line (a multiple of -shards); 2 per shard when 0")
	fs.Float64Var(&cfg.Seconds, "seconds", 60, "how long the soldiers walk")
	fs.IntVar(&cfg.Kill, "kill", 0, "shards to kill with SIGKILL halfway through")
	fs.BoolVar(&cfg.RestartNATS, "restart-nats", false, "restart the NATS server halfway through")
	fs.Float64Var(&cfg.Rate, "rate", 60, "ticks a second of each zone")
	fs.Float64Var(&cfg.Speed, "speed", 2, "soldiers' speed, units a second")
	fs.Float64Var(&cfg.Width, "width", 100, "a zone's width, units")
	fs.DurationVar(&cfg.Snapshot, "snapshot", 5*time.Second, "how often each zone is snapshotted")
	fs.DurationVar(&cfg.Lease, "lease", 3*time.Second, "zone lease TTL")
	fs.StringVar(&cfg.Profile, "cpuprofile", "", "a directory where each shard writes a CPU profile (shardN.pprof; not the killed ones)")
	_ = fs.Parse(args)
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cfg.Exe, cfg.Log = exe, os.Stdout
	r, err := soak.Run(cfg)
	if err != nil {
		return err
	}
	fmt.Printf("soak: %d hand-offs (%.0f a second, %d sent again), latency p50 %.1f ms, p99 %.1f ms in the first half, %.1f ms in the second, %d took a second or more (they waited for a takeover or the server); %.0f bytes a hand-off; shards' CPU %.1f s; %d owner entries disagreeing\n",
		r.Handoffs, r.PerSecond, r.Resent, r.P50, r.P99Calm, r.P99Late, r.Slow, r.BytesPerHandoff, r.CPU.Seconds(), r.Misowned)
	fmt.Println(r.Line())
	if r.Lost != 0 || r.Duplicated != 0 || r.Misowned != 0 {
		os.Exit(1)
	}
	return nil
}

func runCmd(args []string) error { return soak.RunCommand(args, os.Stdout) }

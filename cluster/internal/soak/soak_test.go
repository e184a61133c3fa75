package soak

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary be a shard process: the soak starts it
// again with "run" and the shard's flags.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "run" {
		if err := RunCommand(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// tlog writes the soak's lines to the test's log.
type tlog struct{ t *testing.T }

func (l tlog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func smallSoak(t *testing.T) Config {
	exe, err := os.Executable()
	require.NoError(t, err)
	return Config{Shards: 2, NPCs: 400, Seconds: 5, Rate: 30, Speed: 20, Width: 50,
		Snapshot: 500 * time.Millisecond, Lease: time.Second, Exe: exe, Log: tlog{t}}
}

// Shard processes on one NATS server: one is killed with SIGKILL halfway,
// the other takes its zones over, and at the end every soldier is in
// exactly one zone's final snapshot, where the owner bucket says it is.
func TestSoakSurvivesAKilledShard(t *testing.T) {
	cfg := smallSoak(t)
	cfg.Kill = 1
	r, err := Run(cfg)
	require.NoError(t, err)
	assert.Equal(t, 0, r.Lost)
	assert.Equal(t, 0, r.Duplicated)
	assert.Equal(t, 0, r.Misowned)
	assert.Positive(t, r.Handoffs)
	assert.Equal(t, fmt.Sprintf("lost 0 duplicated 0 handoffs %d p99 %.1f ms", r.Handoffs, r.P99), r.Line())
}

// The NATS server stops and starts again (same port, same store)
// halfway: the shards reconnect, and nothing is lost or duplicated.
func TestSoakSurvivesANATSRestart(t *testing.T) {
	cfg := smallSoak(t)
	cfg.RestartNATS = true
	r, err := Run(cfg)
	require.NoError(t, err)
	assert.Equal(t, 0, r.Lost)
	assert.Equal(t, 0, r.Duplicated)
	assert.Equal(t, 0, r.Misowned)
	assert.Positive(t, r.Handoffs)
}

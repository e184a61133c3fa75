package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
)

// testServer starts an embedded server with its store in a temporary
// directory; the test shuts it down when it ends.
func testServer(t testing.TB) *server.Server {
	t.Helper()
	s, err := StartServer(ServerOptions{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s
}

// testStore connects to s and opens a store with a 1 s lease.
func testStore(t testing.TB, s *server.Server) *Store {
	t.Helper()
	nc, err := nats.Connect(s.ClientURL())
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := OpenStore(ctx, nc, StoreOptions{LeaseTTL: 2 * time.Second}) // room for a loaded machine: a starved renewal would restart a zone
	require.NoError(t, err)
	return st
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

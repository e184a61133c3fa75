package cluster

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configures an embedded NATS server (StartServer). The zero
// value listens on a random port of 127.0.0.1 and keeps JetStream's store
// in nats-server's default directory (nats/jetstream under the operating
// system's temporary directory); tests give each server its own Dir.
type ServerOptions struct {
	// Dir is where JetStream keeps its streams and buckets. A server
	// started again on the same Dir finds them as they were.
	Dir string
	// Port is the client port on 127.0.0.1; zero picks a free one.
	Port int
}

// StartServer starts a NATS server with JetStream inside this process,
// listening on 127.0.0.1 only, and waits until it accepts connections (at
// most 10 s). Its ClientURL is what shards connect to; Shutdown stops it.
// It is for tests and for a game that runs as a single binary; a
// deployment of several machines runs nats-server on its own.
func StartServer(opts ServerOptions) (*server.Server, error) {
	port := opts.Port
	if port == 0 {
		port = server.RANDOM_PORT
	}
	s, err := server.NewServer(&server.Options{
		ServerName: "moonmind",
		Host:       "127.0.0.1",
		Port:       port,
		JetStream:  true,
		StoreDir:   opts.Dir,
		NoLog:      true,
		NoSigs:     true,
		// An agent's snapshot travels in one message: room for large
		// minds (a long flight recorder).
		MaxPayload: 8 << 20,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: nats server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, errors.New("cluster: nats server: not ready after 10 s")
	}
	return s, nil
}

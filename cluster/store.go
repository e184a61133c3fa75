package cluster

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// StoreOptions names and sizes what a Store keeps in JetStream. The zero
// value is the default of each field.
type StoreOptions struct {
	// Prefix begins the name of every bucket, stream and subject the store
	// uses, so several games can share one NATS server; "mm" when empty.
	// It may hold letters, digits, "-" and "_".
	Prefix string
	// LeaseTTL is how long a zone lease lasts without renewal: a shard
	// that stops renewing loses its zones this long after its last
	// renewal. 3 s when zero; at least 1 s.
	LeaseTTL time.Duration
	// HandoffAge is how long the mind of an agent in transit is kept after
	// it was sent: long enough for the receiving zone to snapshot it. 10
	// minutes when zero.
	HandoffAge time.Duration
	// Memory keeps everything in the server's memory instead of its store
	// directory (faster; lost when the server stops).
	Memory bool
}

// Store is the shared state of a cluster in JetStream: the zone leases,
// the owner of every agent, the minds of agents in transit, the zone
// snapshots and the shared facts. Every shard opens one on its own
// connection. It is safe for concurrent use.
type Store struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	leases jetstream.KeyValue    // zone -> shard name, with a TTL
	owners jetstream.KeyValue    // agent -> owner record (owner.go)
	facts  jetstream.KeyValue    // fact name -> JSON value
	snaps  jetstream.ObjectStore // snapshot name -> zone snapshot
	latest jetstream.KeyValue    // zone -> the name of its current snapshot
	hand   jetstream.Stream      // the minds in transit, the last one per zone and agent
	opts   StoreOptions
	prefix string
	fc     factCache
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// OpenStore creates the buckets and the stream of the store when they are
// missing (or updates their settings) and returns it. nc must stay open
// while the store is used; closing it is the caller's.
func OpenStore(ctx context.Context, nc *nats.Conn, opts StoreOptions) (*Store, error) {
	if opts.Prefix == "" {
		opts.Prefix = "mm"
	}
	if !nameRE.MatchString(opts.Prefix) {
		return nil, fmt.Errorf("cluster: store prefix %q: use letters, digits, - and _", opts.Prefix)
	}
	if opts.LeaseTTL == 0 {
		opts.LeaseTTL = 3 * time.Second
	}
	if opts.LeaseTTL < time.Second {
		return nil, fmt.Errorf("cluster: lease TTL %v is less than 1s", opts.LeaseTTL)
	}
	if opts.HandoffAge == 0 {
		opts.HandoffAge = 10 * time.Minute
	}
	storage := jetstream.FileStorage
	if opts.Memory {
		storage = jetstream.MemoryStorage
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: jetstream: %w", err)
	}
	s := &Store{nc: nc, js: js, opts: opts, prefix: opts.Prefix}
	p := opts.Prefix
	if s.leases, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: p + "_leases", TTL: opts.LeaseTTL, LimitMarkerTTL: time.Second, Storage: storage,
		Description: "zone leases: the shard that owns each zone",
	}); err != nil {
		return nil, fmt.Errorf("cluster: lease bucket: %w", err)
	}
	if s.owners, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: p + "_owners", Storage: storage,
		Description: "agent ownership: the zone that owns each agent and the hand-off that brought it",
	}); err != nil {
		return nil, fmt.Errorf("cluster: owner bucket: %w", err)
	}
	if s.facts, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: p + "_facts", Storage: storage, Description: "facts shared by every zone",
	}); err != nil {
		return nil, fmt.Errorf("cluster: fact bucket: %w", err)
	}
	if s.snaps, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: p + "_snapshots", Storage: storage, Description: "the last snapshot of each zone",
	}); err != nil {
		return nil, fmt.Errorf("cluster: snapshot store: %w", err)
	}
	if s.latest, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: p + "_latest", Storage: storage,
		Description: "the current snapshot of each zone, moved by compare-and-set by the zone's owner",
	}); err != nil {
		return nil, fmt.Errorf("cluster: snapshot bucket: %w", err)
	}
	if s.hand, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: p + "_handoffs", Subjects: []string{p + ".handoff.>"}, Storage: storage,
		MaxMsgsPerSubject: 1, MaxAge: opts.HandoffAge, MaxMsgSize: 8 << 20,
		Description: "the minds of agents moving into each zone, the last one per agent",
	}); err != nil {
		return nil, fmt.Errorf("cluster: hand-off stream: %w", err)
	}
	return s, nil
}

// Conn returns the store's NATS connection.
func (s *Store) Conn() *nats.Conn { return s.nc }

// LeaseTTL returns how long a lease lasts without renewal.
func (s *Store) LeaseTTL() time.Duration { return s.opts.LeaseTTL }

// token encodes a name as one subject token and key: letters, digits,
// "-" and "_" only.
func token(name string) string { return base64.RawURLEncoding.EncodeToString([]byte(name)) }

func untoken(t string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(t)
	return string(b), err
}

func (s *Store) handoffSubject(zone, agent string) string {
	return s.prefix + ".handoff." + zone + "." + token(agent)
}
func (s *Store) confirmSubject(zone string) string { return s.prefix + ".confirm." + zone }
func (s *Store) tellSubject(zone string) string    { return s.prefix + ".tell." + zone }

// casConflict reports whether err is a failed compare-and-set: the key
// was written (or created) since the revision given.
func casConflict(err error) bool {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
	}
	return errors.Is(err, jetstream.ErrKeyExists)
}

// Package cluster runs moonmind worlds as zones owned by shards on NATS
// JetStream, and moves agents between zones with nothing lost or
// duplicated.
//
// A shard (Shard) is one process, or one part of one, that owns zones. A
// zone is one engine.World, ticked on its own goroutine at a fixed rate.
// The cluster's shared state lives in JetStream (Store):
//
//   - a lease per zone in a key-value bucket with a TTL: a shard claims a
//     zone by creating its key, renews it by a compare-and-set on its
//     revision, and a zone whose shard stops renewing is free again after
//     the TTL; every shard watches the bucket and may take it over;
//   - an owner entry per agent: the zone that owns it and the hand-off
//     that brought it there. Every change of an owner is a compare-and-set
//     on the entry's revision, so exactly one of several competing changes
//     wins: that is the commit point of a hand-off;
//   - a stream with the mind of every agent in transit (its snapshot, the
//     last one per zone and agent);
//   - an object store with the zones' snapshots, and a key-value bucket
//     naming each zone's current one, moved by compare-and-set by the
//     zone's owner;
//   - a key-value bucket of shared facts, read through a watch.
//
// An agent crosses into another zone when Options.Border says so, after a
// tick: the source takes it out of its world, keeps its snapshot (the
// authoritative copy) and publishes the snapshot to the target zone's
// subject in the stream; the target moves the agent's owner entry to
// itself (the commit), adds the agent at its next tick boundary and
// confirms; the source then drops its copy. Delivery is at least once (the
// source sends again while the owner is unchanged, or names the target by
// this hand-off but no confirmation came) and adoption is
// idempotent by agent and hand-off, so after any crash exactly one zone
// owns the agent.
//
// A minimal shard:
//
//	nc, _ := nats.Connect(url)
//	st, _ := cluster.OpenStore(ctx, nc, cluster.StoreOptions{})
//	sh, _ := cluster.NewShard(st, cluster.Options{
//		Name: "shard-1", Zones: []string{"west", "east"}, Claim: []string{"west"},
//		TakeOver: true, Domains: domains,
//		Border: func(z *cluster.Zone, a *engine.Agent) string { return zoneAt(a) },
//	})
//	err := sh.Run(ctx) // until ctx ends, then a drain
//
// docs/scaling.md in the repository is the guide: the architecture, which
// guarantee holds where, and how to deploy and measure it.
package cluster

package cluster

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/moonmind-ai/moonmind/engine"
)

// zoneSnap is what a zone's snapshot object holds (gzipped JSON): the
// world without its agents, the agents in parts, each part a snapshot of
// a few agents (engine.World.SnapshotAgents; an agent in transit out of
// the zone is a part of its own, the copy the zone keeps), the world's
// smart objects,
// and for each agent the hand-off that gave the zone the agent, so that
// recovery can tell the agents the zone still owns from those that left
// after the snapshot.
//
// A snapshot taken in one go would stop the zone's ticks for as long as
// encoding every agent takes (a fifth of a second for 5,000 soldiers), and
// the agents handed to the zone meanwhile would wait as long: a zone takes
// its snapshot a few agents a tick instead (snapRound), each agent as it
// was at the tick its part was written. Recovery is per agent anyway (an
// agent is kept when its owner entry still names the zone and the
// hand-off its part was written under), so agents saved at different
// ticks restore as agents saved at one.
//
// A snapshot of an older version holds the whole world, agents included,
// in World and no parts; it restores the same way.
type zoneSnap struct {
	Zone     string            `json:"zone"`
	Handoffs map[string]string `json:"handoffs"`
	Objects  []objectSave      `json:"objects,omitempty"`
	World    json.RawMessage   `json:"world"`
	Agents   []json.RawMessage `json:"agents,omitempty"`
}

// objectSave is a smart object of a zone's world as its snapshot keeps it
// (engine.Object without its holders, which the agents' parts name, and
// without the game's Data).
type objectSave struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Slots int    `json:"slots"`
}

// snapRound is a zone snapshot being taken, a few agents a tick: the
// agents the zone owned when it began, in the world's order, and the
// parts written so far.
type snapRound struct {
	names    []string
	next     int // the first of names not written yet
	per      int // agents written a tick
	parts    []json.RawMessage
	handoffs map[string]string
}

// minPart is the fewest agents a part of a zone snapshot holds (but the
// last), so that the parts' own overhead stays small.
const minPart = 16

// beginSnapshot starts a snapshot of the zone, to be written over ticks
// agents a tick (all at once when ticks is 1 or less).
func (z *Zone) beginSnapshot(ticks int) *snapRound {
	r := &snapRound{handoffs: make(map[string]string, len(z.held))}
	seen := make(map[string]bool, len(z.held))
	for _, a := range z.World.Agents {
		if _, ok := z.held[a.Name]; ok && !seen[a.Name] {
			seen[a.Name] = true
			r.names = append(r.names, a.Name)
		}
	}
	r.per = len(r.names)
	if ticks > 1 {
		r.per = max(minPart, int(math.Ceil(float64(len(r.names))/float64(ticks))))
	}
	return r
}

// snapshotTicks is over how many ticks a zone spreads a periodic snapshot:
// half of Options.SnapshotEvery.
func (s *Shard) snapshotTicks() int {
	return max(1, int(s.opts.SnapshotEvery.Seconds()*s.opts.Rate/2))
}

// advance writes the round's next part: the next agents of the round that
// the zone still owns, each under the hand-off it holds now. It reports
// whether the round has written every agent.
func (r *snapRound) advance(z *Zone) (bool, error) {
	end := min(r.next+r.per, len(r.names))
	batch := make([]*engine.Agent, 0, end-r.next)
	for _, name := range r.names[r.next:end] {
		// An agent that left since the round began is not saved; one that
		// left and came back is saved as it is now.
		a := z.World.Agent(name)
		h, ok := z.held[name]
		if a == nil || !ok {
			continue
		}
		batch = append(batch, a)
		r.handoffs[name] = h.handoff
	}
	r.next = end
	if len(batch) > 0 {
		var buf bytes.Buffer
		if err := z.World.SnapshotAgents(&buf, batch); err != nil {
			return false, err
		}
		r.parts = append(r.parts, buf.Bytes())
	}
	return r.next == len(r.names), nil
}

// finish completes the round with the agents in transit out of the zone
// that no part holds (the zone's authoritative copies: a recovery keeps
// them when their hand-off never committed) and with what belongs to the
// world (its clock, seed and random source, its smart objects), as they
// are now.
func (r *snapRound) finish(z *Zone) (*zoneSnap, error) {
	for _, name := range slices.Sorted(maps.Keys(z.out)) {
		if _, ok := r.handoffs[name]; ok {
			continue // saved in a part while it was in the world
		}
		t := z.out[name]
		r.parts = append(r.parts, t.snap)
		r.handoffs[name] = t.prev
	}
	var w bytes.Buffer
	if err := z.World.SnapshotAgents(&w, nil); err != nil {
		return nil, err
	}
	zs := &zoneSnap{Zone: z.Name, Handoffs: r.handoffs, World: w.Bytes(), Agents: r.parts}
	for _, o := range z.World.Objects() {
		zs.Objects = append(zs.Objects, objectSave{Name: o.Name, Kind: o.Kind, Slots: o.Slots})
	}
	return zs, nil
}

// snapshotNow takes a whole snapshot of the zone in one go (a drain's
// final snapshot).
func (z *Zone) snapshotNow() (*zoneSnap, error) {
	r := z.beginSnapshot(1)
	for {
		done, err := r.advance(z)
		if err != nil {
			return nil, err
		}
		if done {
			return r.finish(z)
		}
	}
}

// encode writes the snapshot as gzipped JSON. The parts are the engine's
// JSON already: they are copied as they are, not encoded again.
func (zs *zoneSnap) encode() ([]byte, error) {
	var out bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	head, err := json.Marshal(struct {
		Zone     string            `json:"zone"`
		Handoffs map[string]string `json:"handoffs"`
		Objects  []objectSave      `json:"objects,omitempty"`
	}{zs.Zone, zs.Handoffs, zs.Objects})
	if err != nil {
		return nil, err
	}
	_, _ = gz.Write(head[:len(head)-1]) // without its closing brace
	_, _ = gz.Write([]byte(`,"world":`))
	_, _ = gz.Write(bytes.TrimSpace(zs.World))
	_, _ = gz.Write([]byte(`,"agents":[`))
	for i, p := range zs.Agents {
		if i > 0 {
			_, _ = gz.Write([]byte{','})
		}
		_, _ = gz.Write(bytes.TrimSpace(p))
	}
	_, _ = gz.Write([]byte("]}\n"))
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// decodeZoneSnap reads a snapshot object.
func decodeZoneSnap(zone string, b []byte) (*zoneSnap, error) {
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("cluster: snapshot of %s: %w", zone, err)
	}
	var zs zoneSnap
	if err := json.NewDecoder(gz).Decode(&zs); err != nil {
		return nil, fmt.Errorf("cluster: snapshot of %s: %w", zone, err)
	}
	return &zs, nil
}

// restore makes the snapshot's world: the world, its smart objects, then
// its agents part by part, in the order they were saved. Agents come back
// as engine.World.AddSnapshot adds them: each with its whole mind, its ID
// its index in the world and no pin.
func (zs *zoneSnap) restore(opts engine.RestoreOptions) (*engine.World, error) {
	w, err := engine.Restore(bytes.NewReader(zs.World), opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: snapshot of %s: %w", zs.Zone, err)
	}
	for _, o := range zs.Objects {
		if w.Object(o.Name) != nil {
			continue // a world saved with no agents keeps its objects itself
		}
		if err := w.AddObject(&engine.Object{Name: o.Name, Kind: o.Kind, Slots: o.Slots}); err != nil {
			return nil, fmt.Errorf("cluster: snapshot of %s: %w", zs.Zone, err)
		}
	}
	for _, p := range zs.Agents {
		if _, err := w.AddSnapshot(bytes.NewReader(p), opts); err != nil {
			return nil, fmt.Errorf("cluster: snapshot of %s: %w", zs.Zone, err)
		}
	}
	return w, nil
}

// agentNames returns the names of the snapshot's agents, in order.
func (zs *zoneSnap) agentNames() ([]string, error) {
	var out []string
	for _, doc := range append([]json.RawMessage{zs.World}, zs.Agents...) {
		var w struct {
			Agents []struct {
				Name string `json:"name"`
			} `json:"agents"`
		}
		if err := json.Unmarshal(doc, &w); err != nil {
			return nil, fmt.Errorf("cluster: snapshot of %s: %w", zs.Zone, err)
		}
		for _, a := range w.Agents {
			out = append(out, a.Name)
		}
	}
	return out, nil
}

// loadSnapshot reads a zone's last snapshot: its world and the hand-off of
// each agent. A zone never snapshotted gets a new world.
func (s *Shard) loadSnapshot(ctx context.Context, zone, name string) (*engine.World, map[string]string, error) {
	if name == "" {
		return engine.NewWorld(s.opts.Seed(zone)), map[string]string{}, nil
	}
	b, err := s.st.snaps.GetBytes(ctx, name)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: snapshot of %s: %w", zone, err)
	}
	zs, err := decodeZoneSnap(zone, b)
	if err != nil {
		return nil, nil, err
	}
	w, err := zs.restore(engine.RestoreOptions{Domains: s.opts.Domains})
	if err != nil {
		return nil, nil, err
	}
	return w, zs.Handoffs, nil
}

// ZoneAgents returns the names of the agents in a zone's last snapshot, in
// the world's order, or none when the zone has no snapshot: what a tool or
// a test counts to check that every agent exists exactly once.
func (s *Store) ZoneAgents(ctx context.Context, zone string) ([]string, error) {
	zs, err := s.lastZoneSnap(ctx, zone)
	if zs == nil || err != nil {
		return nil, err
	}
	return zs.agentNames()
}

// lastZoneSnap reads and decodes a zone's last snapshot, or returns nil
// when the zone has none.
func (s *Store) lastZoneSnap(ctx context.Context, zone string) (*zoneSnap, error) {
	e, err := s.latest.Get(ctx, zone)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: snapshot of %s: %w", zone, err)
	}
	if len(e.Value()) == 0 {
		return nil, nil
	}
	b, err := s.snaps.GetBytes(ctx, string(e.Value()))
	if err != nil {
		return nil, fmt.Errorf("cluster: snapshot of %s: %w", zone, err)
	}
	return decodeZoneSnap(zone, b)
}

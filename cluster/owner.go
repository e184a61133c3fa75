package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// owner is an agent's entry in the owner bucket: the zone that owns it
// and the hand-off that gave it that zone (its spawn counts as one).
// Every change of an owner is a compare-and-set on the entry's revision,
// so of two shards that want to change it from one revision, exactly one
// can: that is the commit point of a hand-off, of a cancelled one and of
// a recovery.
type owner struct {
	Zone    string `json:"zone"`
	Handoff string `json:"handoff"`
}

// ownerOf reads the agent's owner entry; rev is 0 when it has none.
func (s *Store) ownerOf(ctx context.Context, agent string) (o owner, rev uint64, err error) {
	e, err := s.owners.Get(ctx, token(agent))
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return owner{}, 0, nil
	}
	if err != nil {
		return owner{}, 0, fmt.Errorf("cluster: owner of %s: %w", agent, err)
	}
	if err := json.Unmarshal(e.Value(), &o); err != nil {
		return owner{}, 0, fmt.Errorf("cluster: owner of %s: %w", agent, err)
	}
	return o, e.Revision(), nil
}

// setOwner writes the agent's owner entry if it is still at rev (0: if it
// has none) and returns the new revision; a lost race is an error for
// which casConflict is true.
func (s *Store) setOwner(ctx context.Context, agent string, o owner, rev uint64) (uint64, error) {
	b, _ := json.Marshal(o)
	if rev == 0 {
		return s.owners.Create(ctx, token(agent), b)
	}
	return s.owners.Update(ctx, token(agent), b, rev)
}

// writeOwner is setOwner for the shard's own writes whose outcome it
// must know (a spawn, a drain taking an agent back): a write that fails
// other than by a lost race may still have been made, with only its reply
// lost (a server that restarted just then). The entry is then read back:
// naming o at a revision other than rev, it is this write's, and its
// revision is returned; still at rev, the write was not made and is tried
// again; anything else is a lost race. o must be a value no other write
// makes from rev: a spawn's names a hand-off of its own.
func (s *Shard) writeOwner(ctx context.Context, agent string, o owner, rev uint64) (uint64, error) {
	var err error
	for range 3 {
		var nrev uint64
		nrev, err = s.st.setOwner(ctx, agent, o, rev)
		if err == nil && s.hooks != nil && s.hooks.ownerReplyLost != nil && s.hooks.ownerReplyLost(agent) {
			err = errReplyLost
		}
		if err == nil || casConflict(err) {
			return nrev, err
		}
		cur, crev, rerr := s.st.ownerOf(ctx, agent)
		switch {
		case rerr != nil:
			return 0, err
		case cur == o && crev != rev:
			return crev, nil
		case crev != rev:
			return 0, fmt.Errorf("cluster: owner of %s: %w", agent, jetstream.ErrKeyExists)
		}
	}
	return 0, err
}

// errReplyLost is the error a test hook gives a write it made, as a lost
// reply would.
var errReplyLost = errors.New("cluster: the reply was lost")

// ownedEntry is an owner entry with its revision.
type ownedEntry struct {
	owner
	rev uint64
}

// owned reads the owner bucket and returns the agents a zone owns (every
// zone's when zone is empty), by name.
func (s *Store) owned(ctx context.Context, zone string) (map[string]ownedEntry, error) {
	w, err := s.owners.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("cluster: read owners: %w", err)
	}
	defer func() { _ = w.Stop() }()
	out := map[string]ownedEntry{}
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cluster: read owners: %w", ctx.Err())
		case e, ok := <-w.Updates():
			if !ok {
				return nil, errors.New("cluster: read owners: the watch ended")
			}
			if e == nil {
				return out, nil
			}
			var o owner
			if json.Unmarshal(e.Value(), &o) != nil || (zone != "" && o.Zone != zone) {
				continue
			}
			name, err := untoken(e.Key())
			if err != nil {
				continue
			}
			out[name] = ownedEntry{o, e.Revision()}
		}
	}
}

// Owners returns the zone that owns each agent, by agent name: the
// cluster's single record of where every agent is.
func (s *Store) Owners(ctx context.Context) (map[string]string, error) {
	all, err := s.owned(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(all))
	for name, e := range all {
		out[name] = e.Zone
	}
	return out, nil
}

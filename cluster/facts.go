package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// factCache is a store's view of the fact bucket, kept by a watch.
type factCache struct {
	mu      sync.Mutex
	started bool
	vals    map[string]expr.Value
	subs    []func()
}

// SetFact sets a fact shared by every zone (a global alarm, a market
// price). Every zone of every shard sees it through Zone.Fact from its
// next tick boundary after its shard's watch brings it.
func (s *Store) SetFact(ctx context.Context, name string, v expr.Value) error {
	b, _ := json.Marshal(v.Interface())
	if _, err := s.facts.Put(ctx, token(name), b); err != nil {
		return fmt.Errorf("cluster: set fact %s: %w", name, err)
	}
	return nil
}

// watchFacts starts the store's watch of the fact bucket (once) and calls
// changed after each change.
func (s *Store) watchFacts(ctx context.Context, changed func()) error {
	s.fc.mu.Lock()
	s.fc.subs = append(s.fc.subs, changed)
	if s.fc.started {
		s.fc.mu.Unlock()
		return nil
	}
	s.fc.started = true
	s.fc.vals = map[string]expr.Value{}
	s.fc.mu.Unlock()
	w, err := s.facts.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("cluster: watch facts: %w", err)
	}
	go func() {
		for e := range w.Updates() {
			if e == nil {
				continue
			}
			name, err := untoken(e.Key())
			if err != nil {
				continue
			}
			var x any
			s.fc.mu.Lock()
			if json.Unmarshal(e.Value(), &x) == nil && len(e.Value()) > 0 {
				s.fc.vals[name] = valueOf(x)
			} else {
				delete(s.fc.vals, name)
			}
			subs := s.fc.subs
			s.fc.mu.Unlock()
			for _, f := range subs {
				f()
			}
		}
	}()
	return nil
}

// factView returns a copy of the facts as the watch knows them.
func (s *Store) factView() map[string]expr.Value {
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	return maps.Clone(s.fc.vals)
}

package cluster

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// tellMsg is a belief told to an agent in another zone.
type tellMsg struct {
	From  string `json:"from"` // the sending shard
	Seq   uint64 `json:"seq"`  // its sequence number at the sender
	To    string `json:"to"`
	Name  string `json:"name"`
	Value any    `json:"value"`
	Hops  int    `json:"hops,omitempty"`
}

// maxTellHops bounds how often a message follows an agent that moved on.
const maxTellHops = 4

// Tell sends the belief name = v to the agent to, wherever it is: the
// owner bucket names its zone, and the zone's shard sets the belief
// (engine.Agent.Believe) at the zone's next tick boundary. Messages that
// arrive between the same two ticks are delivered in the order of their
// sending shard's name, then of their sending order there, so a zone's
// run does not depend on the order the network brought them in. A message
// to an agent that moved on follows it (up to four times). Delivery is at
// most once: a message in flight when a shard dies is lost. An agent
// nobody owns is an error naming it.
func (s *Shard) Tell(ctx context.Context, to, name string, v expr.Value) error {
	return s.tell(ctx, &tellMsg{From: s.opts.Name, Seq: s.tellSeq.Add(1), To: to, Name: name, Value: v.Interface()})
}

func (s *Shard) tell(ctx context.Context, m *tellMsg) error {
	o, _, err := s.st.ownerOf(ctx, m.To)
	if err != nil {
		return err
	}
	if o.Zone == "" {
		return fmt.Errorf("cluster: tell %s: no agent %q in the cluster", m.To, m.To)
	}
	b, _ := json.Marshal(m)
	return s.st.nc.Publish(s.st.tellSubject(o.Zone), b)
}

// Tell is Shard.Tell from the zone's goroutine: to an agent of this zone
// it is engine.Agent.Tell from from (delivered at the world's next tick);
// to another it is sent without waiting.
func (z *Zone) Tell(from *engine.Agent, to, name string, v expr.Value) error {
	if z.World.Agent(to) != nil {
		return from.Tell(to, name, v)
	}
	m := &tellMsg{From: z.shard.opts.Name, Seq: z.shard.tellSeq.Add(1), To: to, Name: name, Value: v.Interface()}
	z.shard.wg.Add(1)
	go func() {
		defer z.shard.wg.Done()
		ctx, cancel := context.WithTimeout(z.shard.ctx, 5*time.Second)
		defer cancel()
		_ = z.shard.tell(ctx, m)
	}()
	return nil
}

func (s *Shard) told(z *Zone, m *nats.Msg) {
	var t tellMsg
	if json.Unmarshal(m.Data, &t) == nil && !s.dead.Load() {
		z.push(inItem{kind: inTell, tell: &t})
	}
}

// deliverTells sets the told beliefs, in the order of sender and sequence.
func (z *Zone) deliverTells(tells []*tellMsg) {
	slices.SortFunc(tells, func(a, b *tellMsg) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Seq, b.Seq))
	})
	for _, t := range tells {
		a := z.World.Agent(t.To)
		if a == nil {
			if t.Hops < maxTellHops {
				t.Hops++
				z.shard.wg.Add(1)
				go func() {
					defer z.shard.wg.Done()
					ctx, cancel := context.WithTimeout(z.shard.ctx, 5*time.Second)
					defer cancel()
					_ = z.shard.tell(ctx, t)
				}()
			}
			continue
		}
		_ = a.Believe(t.Name, valueOf(t.Value))
	}
}

// valueOf is the engine value of a decoded JSON value.
func valueOf(x any) expr.Value {
	switch v := x.(type) {
	case bool:
		return expr.BoolValue(v)
	case float64:
		return expr.NumberValue(v)
	case string:
		return expr.StringValue(v)
	}
	return expr.NilValue()
}

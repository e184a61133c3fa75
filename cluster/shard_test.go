package cluster

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// walkerDomain is a role whose agents count their steps: x grows by one
// each tick, so a moved agent shows it kept its mind.
func walkerDomain(t testing.TB) *engine.Domain {
	d, err := engine.Compile(engine.RoleSpec{
		Name:  "Walker",
		State: []engine.Var{{Name: "x", Value: expr.NumberValue(0)}, {Name: "alarm", Value: expr.BoolValue(false)}},
		Goals: []engine.GoalSpec{engine.NewGoal("far", "x >= 1000000000", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("walk").Effects("x = x + 1").Fulfills("far").Body(engine.BodyFunc(engine.ApplyEffects)).Spec(),
		},
	})
	require.NoError(t, err)
	return d
}

// census is what the tests see of the zones: each zone's agents and their
// x, written by the zone's own goroutine after each tick.
type census struct {
	mu    sync.Mutex
	zones map[string]map[string]float64 // shard/zone -> agent -> x
	first map[string]map[string]float64 // shard/zone -> agent -> x at the zone's first tick with agents
	facts map[string]expr.Value         // zone -> the fact "alarm" as the zone saw it
	alarm map[string]bool               // agent -> its belief "alarm"
	recs  []Record
}

func (c *census) set(shard string, z *Zone) {
	m := map[string]float64{}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range z.World.Agents {
		m[a.Name], _ = a.Get("x").AsNumber()
		c.alarm[a.Name] = a.Get("alarm").Truthy()
	}
	c.zones[shard+"/"+z.Name] = m
	if _, ok := c.first[shard+"/"+z.Name]; !ok && len(m) > 0 {
		c.first[shard+"/"+z.Name] = m // as the zone started (Step runs before the world's first tick)
	}
	c.facts[z.Name] = z.Fact("alarm")
}

func (c *census) record(r Record) {
	c.mu.Lock()
	c.recs = append(c.recs, r)
	if r.Kind == ZoneStarted {
		// a zone started again (a late renewal on a loaded machine) has
		// a new first tick
		delete(c.first, r.Shard+"/"+r.Zone)
	}
	c.mu.Unlock()
}

// where returns the live zones (of shards not in dead) that hold agent.
func (c *census) where(agent string, live map[string]*Shard) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for key, m := range c.zones {
		var shard, zone string
		for i := range key {
			if key[i] == '/' {
				shard, zone = key[:i], key[i+1:]
			}
		}
		sh := live[shard]
		if sh == nil || sh.Dead() || !slices.Contains(sh.Zones(), zone) {
			continue
		}
		if _, ok := m[agent]; ok {
			out = append(out, zone)
		}
	}
	slices.Sort(out)
	return out
}

func (c *census) kinds(k RecordKind) []Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Record
	for _, r := range c.recs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// twoZones runs shards a (west) and b (east) on one server; an agent
// "w1" spawns in west and crosses to east once move is set.
type twoZones struct {
	c      *census
	move   atomic.Bool
	shards map[string]*Shard
	stores map[string]*Store
	stop   map[string]context.CancelFunc
	done   map[string]chan error
	d      *engine.Domain
}

func newTwoZones(t *testing.T, hooks map[string]*testHooks) *twoZones {
	return newZones(t, hooks, []string{"w1"}, nil)
}

// newZones is twoZones with the given agents spawned in west and east.
func newZones(t *testing.T, hooks map[string]*testHooks, west, east []string) *twoZones {
	return newZonesWith(t, hooks, west, east, nil)
}

// newZonesWith is newZones with the shards' options changed by opts.
func newZonesWith(t *testing.T, hooks map[string]*testHooks, west, east []string, opts func(*Options)) *twoZones {
	srv := testServer(t)
	tz := &twoZones{c: &census{zones: map[string]map[string]float64{}, first: map[string]map[string]float64{}, facts: map[string]expr.Value{},
		alarm: map[string]bool{}}, shards: map[string]*Shard{},
		stores: map[string]*Store{}, stop: map[string]context.CancelFunc{}, done: map[string]chan error{},
		d: walkerDomain(t)}
	for _, sh := range []struct{ name, zone string }{{"a", "west"}, {"b", "east"}} {
		st := testStore(t, srv)
		name := sh.name
		o := Options{
			Name: name, Zones: []string{"west", "east"}, Claim: []string{sh.zone}, TakeOver: true,
			Domains: []*engine.Domain{tz.d}, Rate: 100, SnapshotEvery: 50 * time.Millisecond,
			HandoffRetry: 200 * time.Millisecond,
			Start: func(z *Zone) {
				spawn := map[string][]string{"west": west, "east": east}[z.Name]
				if z.Held() == 0 && len(tz.c.kinds(ZoneStarted)) <= 2 {
					for _, name := range spawn {
						require.NoError(t, z.Spawn(engine.NewAgent(name, tz.d)))
					}
				}
			},
			Step: func(z *Zone) { tz.c.set(name, z) },
			Border: func(z *Zone, a *engine.Agent) string {
				if z.Name == "west" && tz.move.Load() {
					return "east"
				}
				return z.Name
			},
			OnRecord: tz.c.record,
		}
		if opts != nil {
			opts(&o)
		}
		s, err := NewShard(st, o)
		require.NoError(t, err)
		s.hooks = hooks[name]
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		<-s.Ready()
		tz.shards[name], tz.stores[name], tz.stop[name], tz.done[name] = s, st, cancel, done
	}
	t.Cleanup(func() {
		for name, s := range tz.shards {
			s.Kill()
			tz.stop[name]()
			<-tz.done[name]
		}
	})
	return tz
}

func (tz *twoZones) owner(t *testing.T, agent string) string {
	o, _, err := tz.stores["a"].ownerOf(testCtx(t), agent)
	require.NoError(t, err)
	return o.Zone
}

func TestHandoffMovesAgentOnce(t *testing.T) {
	tz := newTwoZones(t, nil)
	require.Eventually(t, func() bool {
		tz.c.mu.Lock()
		defer tz.c.mu.Unlock()
		return tz.c.zones["a/west"]["w1"] >= 20
	}, 10*time.Second, 10*time.Millisecond)
	tz.move.Store(true)
	require.Eventually(t, func() bool {
		return slices.Equal(tz.c.where("w1", tz.shards), []string{"east"}) && len(tz.c.kinds(Confirmed)) == 1
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, "east", tz.owner(t, "w1"))
	sent, adopted := tz.c.kinds(Sent), tz.c.kinds(Adopted)
	require.Len(t, sent, 1)
	require.Len(t, adopted, 1)
	assert.Equal(t, Record{Kind: Sent, Shard: "a", Zone: "west", Agent: "w1", Handoff: sent[0].Handoff, Peer: "east",
		Bytes: sent[0].Bytes}, sent[0])
	assert.Greater(t, sent[0].Bytes, 500, "the agent's whole mind")
	assert.Equal(t, "b", adopted[0].Shard)
	assert.Equal(t, sent[0].Handoff, adopted[0].Handoff, "both sides record the same hand-off")
	assert.Positive(t, adopted[0].Latency)
	tz.c.mu.Lock()
	x := tz.c.zones["b/east"]["w1"]
	tz.c.mu.Unlock()
	assert.Greater(t, x, 20.0, "the agent kept counting: its mind moved with it")
	assert.Empty(t, tz.c.kinds(Lost))
}

// A crash at each step of a hand-off, on either side, leaves the agent in
// exactly one zone once the survivor has taken over the dead shard's
// zone, and the owner bucket agrees.
func TestHandoffCrashAtEachStep(t *testing.T) {
	for _, tc := range []struct {
		step, shard string
		reason      string
	}{
		{"sending", "a", "the source took the agent out and died before publishing: recovered from west's snapshot"},
		{"published", "a", "the mind is in the stream; the target commits it and the source is gone"},
		{"received", "b", "the target died before committing: east's new owner commits the waiting hand-off"},
		{"committed", "b", "the owner says east but the agent never reached east's world: recovered from the stream"},
		{"confirmed", "b", "the target confirmed and died before its tick boundary"},
		{"adopted", "b", "the agent was in east's world, not yet in its snapshot"},
		{"confirm-received", "a", "the source died holding the copy after the target committed: west's recovery drops it"},
	} {
		t.Run(tc.step+"/"+tc.shard, func(t *testing.T) {
			var crashed atomic.Bool
			hooks := map[string]*testHooks{tc.shard: {crashAt: func(step, zone, agent string) bool {
				return step == tc.step && agent == "w1" && !crashed.Swap(true)
			}}}
			tz := newTwoZones(t, hooks)
			require.Eventually(t, func() bool { return slices.Equal(tz.c.where("w1", tz.shards), []string{"west"}) },
				10*time.Second, 10*time.Millisecond)
			time.Sleep(120 * time.Millisecond) // a snapshot of west holds w1
			tz.move.Store(true)
			require.Eventually(t, crashed.Load, 10*time.Second, 10*time.Millisecond, "the crash step was reached")
			survivor := map[string]string{"a": "b", "b": "a"}[tc.shard]
			require.Eventually(t, func() bool {
				return len(tz.shards[survivor].Zones()) == 2 && len(tz.c.where("w1", tz.shards)) == 1 &&
					tz.c.where("w1", tz.shards)[0] == "east"
			}, 15*time.Second, 20*time.Millisecond, tc.reason)
			// Exactly one owner, and it stays that way.
			time.Sleep(300 * time.Millisecond)
			assert.Equal(t, []string{"east"}, tz.c.where("w1", tz.shards), tc.reason)
			assert.Equal(t, "east", tz.owner(t, "w1"), tc.reason)
			assert.Empty(t, tz.c.kinds(Lost), tc.reason)
		})
	}
}

// A hand-off delivered again after it was adopted (at-least-once
// delivery) changes nothing: adoption is idempotent by agent and hand-off.
func TestRepeatedHandoffIsAdoptedOnce(t *testing.T) {
	tz := newTwoZones(t, nil)
	require.Eventually(t, func() bool { return slices.Equal(tz.c.where("w1", tz.shards), []string{"west"}) },
		10*time.Second, 10*time.Millisecond)
	tz.move.Store(true)
	require.Eventually(t, func() bool {
		return slices.Equal(tz.c.where("w1", tz.shards), []string{"east"}) && len(tz.c.kinds(Confirmed)) == 1
	}, 10*time.Second, 10*time.Millisecond)

	st := tz.stores["a"]
	ctx := testCtx(t)
	m, err := st.hand.GetLastMsgForSubject(ctx, st.handoffSubject("east", "w1"))
	require.NoError(t, err)
	require.Equal(t, tz.c.kinds(Sent)[0].Handoff, m.Header.Get(hdrID))
	for range 3 {
		again := nats.NewMsg(m.Subject)
		again.Header, again.Data = m.Header, m.Data
		require.NoError(t, st.nc.PublishMsg(again))
	}
	require.NoError(t, st.nc.Flush())
	time.Sleep(300 * time.Millisecond) // 30 ticks of east
	assert.Equal(t, []string{"east"}, tz.c.where("w1", tz.shards))
	assert.Len(t, tz.c.kinds(Adopted), 1)
	assert.Equal(t, "east", tz.owner(t, "w1"))
}

// A hand-off whose delivery is lost is sent again after a few ticks, long
// before HandoffRetry (an hour here), once the zone has seen a
// confirmation to time it by, and adopted once.
func TestLostHandoffIsSentAgainSoon(t *testing.T) {
	var lost atomic.Int32
	hooks := map[string]*testHooks{"b": {lose: func(zone, agent string) bool {
		return agent == "w1" && lost.Add(1) <= 2 // the first two deliveries
	}}}
	var first, second atomic.Bool // w0 crosses first, w1 second
	tz := newZonesWith(t, hooks, []string{"w0", "w1"}, nil, func(o *Options) {
		o.HandoffRetry = time.Hour
		o.Border = func(z *Zone, a *engine.Agent) string {
			if z.Name == "west" && ((a.Name == "w0" && first.Load()) || a.Name == "w1" && second.Load()) {
				return "east"
			}
			return z.Name
		}
	})
	require.Eventually(t, func() bool { return slices.Equal(tz.c.where("w1", tz.shards), []string{"west"}) },
		10*time.Second, 10*time.Millisecond)
	first.Store(true)
	require.Eventually(t, func() bool { return len(tz.c.kinds(Confirmed)) == 1 }, 10*time.Second, 10*time.Millisecond,
		"w0 crossed and was confirmed: the zone has a time to a confirmation")
	second.Store(true)
	require.Eventually(t, func() bool {
		return slices.Equal(tz.c.where("w1", tz.shards), []string{"east"}) && len(tz.c.kinds(Confirmed)) == 2
	}, 20*time.Second, 10*time.Millisecond, "sent again within the doubling waits from four ticks, not after an hour")
	sent, resent, adopted := tz.c.kinds(Sent), tz.c.kinds(Resent), tz.c.kinds(Adopted)
	require.Len(t, sent, 2)
	require.Len(t, adopted, 2)
	require.Equal(t, "w1", sent[1].Agent)
	require.Equal(t, "w1", adopted[1].Agent)
	assert.GreaterOrEqual(t, len(resent), 2, "sent again after each lost delivery")
	for _, r := range resent {
		assert.Equal(t, Record{Kind: Resent, Shard: "a", Zone: "west", Agent: "w1", Handoff: sent[1].Handoff, Peer: "east"}, r)
	}
	assert.Equal(t, sent[1].Handoff, adopted[1].Handoff)
	assert.Equal(t, "east", tz.owner(t, "w1"))
	assert.Empty(t, tz.c.kinds(Lost))
}

// A commit whose reply is lost (the server restarted just then) leaves
// the owner entry naming the target while the target never adopted the
// agent: the source, finding its own hand-off committed but unconfirmed,
// sends it again, and the target finds its commit and adopts the agent.
func TestCommitWhoseReplyIsLostIsAdopted(t *testing.T) {
	var lost atomic.Int32
	hooks := map[string]*testHooks{"b": {replyLost: func(zone, agent string) bool {
		return agent == "w1" && lost.Add(1) == 1
	}}}
	tz := newTwoZones(t, hooks)
	require.Eventually(t, func() bool { return slices.Equal(tz.c.where("w1", tz.shards), []string{"west"}) },
		10*time.Second, 10*time.Millisecond)
	tz.move.Store(true)
	require.Eventually(t, func() bool {
		return slices.Equal(tz.c.where("w1", tz.shards), []string{"east"}) && len(tz.c.kinds(Confirmed)) == 1
	}, 20*time.Second, 10*time.Millisecond, "adopted once the source sent the committed hand-off again")
	sent, resent, adopted := tz.c.kinds(Sent), tz.c.kinds(Resent), tz.c.kinds(Adopted)
	require.Len(t, sent, 1)
	require.Len(t, adopted, 1)
	assert.Equal(t, sent[0].Handoff, adopted[0].Handoff)
	require.NotEmpty(t, resent)
	assert.Equal(t, Record{Kind: Resent, Shard: "a", Zone: "west", Agent: "w1", Handoff: sent[0].Handoff, Peer: "east"}, resent[0])
	assert.Equal(t, "east", tz.owner(t, "w1"))
	assert.Empty(t, tz.c.kinds(Lost))
}

// The source's first look at an unconfirmed hand-off follows the zone's
// times to a confirmation, as a TCP sender's retransmission timeout
// follows its round trips: never before four ticks, never after
// HandoffRetry.
func TestFirstRetryFollowsConfirmationTimes(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		samples []time.Duration
		want    time.Duration
		reason  string
	}{
		{"none", nil, 500 * ms, "HandoffRetry before any confirmation"},
		{"fast", []time.Duration{2 * ms, 3 * ms, 2 * ms}, 40 * ms, "quick confirmations: the four-tick floor"},
		{"slow", []time.Duration{100 * ms}, 300 * ms, "one sample: itself plus four times half of it"},
		{"steady", []time.Duration{100 * ms, 100 * ms}, 250 * ms, "the deviation shrinks by a quarter when a sample matches the mean"},
		{"starved", []time.Duration{400 * ms}, 500 * ms, "at most HandoffRetry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Shard{opts: Options{Rate: 100, HandoffRetry: 500 * ms}}
			z := &Zone{shard: s}
			for _, d := range tc.samples {
				z.confirmTime(d)
			}
			assert.Equal(t, tc.want, z.firstRetry(), tc.reason)
		})
	}
}

// A spawn whose owner write is made but whose reply is lost (the server
// restarted just then) keeps its agent: the shard reads the entry back,
// finds its own spawn there, and the agent ticks in its zone.
func TestSpawnWhoseReplyIsLostKeepsItsAgent(t *testing.T) {
	var lost atomic.Int32
	hooks := map[string]*testHooks{"a": {ownerReplyLost: func(agent string) bool {
		return agent == "w1" && lost.Add(1) == 1
	}}}
	tz := newTwoZones(t, hooks)
	require.Eventually(t, func() bool { return slices.Equal(tz.c.where("w1", tz.shards), []string{"west"}) },
		10*time.Second, 10*time.Millisecond, "w1 ticks in west")
	assert.Equal(t, int32(1), lost.Load(), "the spawn's reply was lost once")
	assert.Equal(t, "west", tz.owner(t, "w1"))
	spawned := tz.c.kinds(Spawned)
	require.Len(t, spawned, 1)
	assert.Equal(t, "w1", spawned[0].Agent)
	assert.Empty(t, tz.c.kinds(Lost))
}

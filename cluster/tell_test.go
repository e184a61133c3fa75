package cluster

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Beliefs told from other zones are set at the zone's tick boundary in
// the order of sending shard and sequence, whatever order they came in.
func TestTellsDeliverInSenderOrder(t *testing.T) {
	d := walkerDomain(t)
	w := engine.NewWorld(1)
	a := engine.NewAgent("w1", d)
	w.Add(a)
	var seen []float64
	z := &Zone{Name: "west", World: w, shard: &Shard{}}
	arrived := []*tellMsg{
		{From: "shard-b", Seq: 2, To: "w1", Name: "x", Value: 4.0},
		{From: "shard-a", Seq: 9, To: "w1", Name: "x", Value: 2.0},
		{From: "shard-b", Seq: 1, To: "w1", Name: "x", Value: 3.0},
		{From: "shard-a", Seq: 3, To: "w1", Name: "x", Value: 1.0},
	}
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}} {
		var batch []*tellMsg
		for _, i := range order {
			m := *arrived[i]
			batch = append(batch, &m)
		}
		z.deliverTells(batch)
		x, _ := a.Get("x").AsNumber()
		seen = append(seen, x)
		sorted := batch // deliverTells sorts the batch in place
		assert.Equal(t, []string{"shard-a", "shard-a", "shard-b", "shard-b"},
			[]string{sorted[0].From, sorted[1].From, sorted[2].From, sorted[3].From})
		assert.Equal(t, []uint64{3, 9, 1, 2}, []uint64{sorted[0].Seq, sorted[1].Seq, sorted[2].Seq, sorted[3].Seq})
	}
	assert.Equal(t, []float64{4, 4, 4}, seen, "the last belief set is shard-b's second, in every arrival order")
}

// A Tell reaches an agent in another shard's zone, and a shared fact
// reaches every zone through the watch.
func TestTellAcrossShardsAndSharedFacts(t *testing.T) {
	tz := newZones(t, nil, []string{"w1"}, []string{"e1"})
	require.Eventually(t, func() bool {
		return slices.Equal(tz.c.where("w1", tz.shards), []string{"west"}) &&
			slices.Equal(tz.c.where("e1", tz.shards), []string{"east"})
	}, 10*time.Second, 10*time.Millisecond)

	require.NoError(t, tz.shards["a"].Tell(testCtx(t), "e1", "alarm", expr.BoolValue(true)))
	require.Eventually(t, func() bool {
		tz.c.mu.Lock()
		defer tz.c.mu.Unlock()
		return tz.c.alarm["e1"]
	}, 10*time.Second, 10*time.Millisecond, "shard a's message reached e1 in shard b's zone")
	tz.c.mu.Lock()
	assert.False(t, tz.c.alarm["w1"])
	assert.Equal(t, expr.NilValue(), tz.c.facts["west"])
	tz.c.mu.Unlock()

	err := tz.shards["a"].Tell(testCtx(t), "nobody", "alarm", expr.BoolValue(true))
	require.Error(t, err)
	assert.Equal(t, `cluster: tell nobody: no agent "nobody" in the cluster`, err.Error())

	require.NoError(t, tz.stores["b"].SetFact(testCtx(t), "alarm", expr.StringValue("raid")))
	require.Eventually(t, func() bool {
		tz.c.mu.Lock()
		defer tz.c.mu.Unlock()
		return tz.c.facts["west"] == expr.StringValue("raid") && tz.c.facts["east"] == expr.StringValue("raid")
	}, 10*time.Second, 10*time.Millisecond)
}

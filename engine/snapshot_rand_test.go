package engine

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func draws(r *rand.Rand) []uint64 {
	out := make([]uint64, 4)
	for i := range out {
		out[i] = r.Uint64()
	}
	return out
}

// Reseed restarts the agent's random source as math.randomseed does (a PCG
// seeded with seed and seed^0x9e3779b97f4a7c15), whether or not the agent
// is in a world yet, and a snapshot saves the reseeded source.
func TestReseedRestartsASourceTheSnapshotSaves(t *testing.T) {
	d := walkerRole(t)
	want := func(seed uint64) []uint64 { return draws(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))) }

	lone := NewAgent("lone", d)
	lone.Reseed(7)
	assert.Equal(t, want(7), draws(lone.Rand), "an agent in no world")

	w := NewWorld(1)
	a := NewAgent("scout", d)
	w.Add(a)
	a.Reseed(9)
	assert.Equal(t, want(9), draws(a.Rand), "an agent of a world, reseeded in place")
	a.Reseed(9)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf), "the reseeded source is the one the world saves")
	r, err := Restore(&buf, RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	assert.Equal(t, want(9), draws(r.Agents[0].Rand))
}

// TestAnAgentsDrawsFollowTheWorldsSeedAndItsID: World.Add seeds each
// agent's Rand from the world's seed and the agent's ID, so the first
// draws of a world's agents are the same in every run (these numbers),
// and differ from agent to agent.
func TestAnAgentsDrawsFollowTheWorldsSeedAndItsID(t *testing.T) {
	w := NewWorld(7)
	d := counterDomain(t)
	a, b := NewAgent("a", d), NewAgent("b", d)
	w.Add(a)
	w.Add(b)
	assert.Equal(t, []uint64{11398524543609367869, 14806007266768203966}, []uint64{a.Rand.Uint64(), a.Rand.Uint64()}, "agent 0")
	assert.Equal(t, uint64(11549356841034810724), b.Rand.Uint64(), "agent 1")
}

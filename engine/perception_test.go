package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentMemoryRoundTripsThroughASnapshot: an agent's memory, with its
// settings, is saved and restored, and recalls the same afterwards; a bad
// remembered thing is refused with its agent and source.
func TestAgentMemoryRoundTripsThroughASnapshot(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	a := NewAgent("scout", d)
	w.Add(a)
	w.Add(NewAgent("blank", d))
	for range 10 {
		w.Tick(0.1)
	}
	a.Memory().HalfLife = 3
	a.Perceive(perception.Stimulus{Source: "red1", Sense: perception.SenseSight, X: 10, Y: -4})
	w.Tick(0.1)
	a.Perceive(perception.Stimulus{Source: "shot", Sense: perception.SenseSound, X: 7, Strength: 0.5})
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	doc := buf.String()
	r, err := Restore(strings.NewReader(doc), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	b := r.Agents[0]
	assert.Equal(t, a.Memory().Things(3), b.Memory().Things(3))
	assert.Equal(t, 3.0, b.Memory().HalfLife)
	assert.Nil(t, r.Agents[1].mem, "an agent that never perceived has no memory")
	got, ok := b.Memory().Recall("red1", 1.0+3)
	require.True(t, ok)
	assert.InDelta(t, 0.5, got.Confidence, 1e-12, "seen at 1 s, one half-life later")

	bad := strings.Replace(doc, `"sense": "sound"`, `"sense": "smell"`, 1)
	_, err = Restore(strings.NewReader(bad), RestoreOptions{Domains: []*Domain{d}})
	assert.EqualError(t, err, `engine: restore: agent scout: remembered "shot": no sense "smell" (sight, sound, damage or told)`)
	bad = strings.Replace(doc, `"strength": 0.5`, `"strength": 2`, 1)
	_, err = Restore(strings.NewReader(bad), RestoreOptions{Domains: []*Domain{d}})
	assert.EqualError(t, err, `engine: restore: agent scout: remembered "shot": strength 2 is not from 0 to 1`)
}

// TestRoleMemorySettingsStartEachMemory: a domain's memory settings are
// each agent's memory's; bad ones fail the compile.
func TestRoleMemorySettingsStartEachMemory(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Keen", Memory: perception.Spec{HalfLife: 2, Capacity: 4}},
		RoleSpec{Name: "Keener", Memory: perception.Spec{Forget: 0.2}})
	require.NoError(t, err)
	m := NewAgent("k", d).Memory()
	assert.Equal(t, perception.Memory{HalfLife: 2, Forget: 0.2, Capacity: 4}, *m, "a later role's non-zero settings win")
	_, err = Compile(RoleSpec{Name: "Bad", Memory: perception.Spec{HalfLife: math.NaN(), Forget: 1, Capacity: -1}})
	assert.EqualError(t, err, "memory half-life must be a positive number of seconds, not NaN\n"+
		"memory forget threshold must be a confidence below 1, not 1\n"+
		"memory capacity must not be negative, not -1")
}

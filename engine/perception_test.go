package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryDecaysAndForgetsOnSchedule: a thing seen at full strength
// halves its confidence every HalfLife seconds and is forgotten once it
// falls below Forget: with a half-life of 2 s and a threshold of 0.1,
// after log2(10) half-lives, 6.64 s.
func TestMemoryDecaysAndForgetsOnSchedule(t *testing.T) {
	m := &Memory{HalfLife: 2, Forget: 0.1}
	m.Perceive(Stimulus{Source: "red1", Sense: SenseSight, X: 10, Y: 20}, 1)
	m.Perceive(Stimulus{Source: "shot", Sense: SenseSound, X: 50, Y: 0, Strength: 0.4}, 2)
	r, ok := m.Recall("red1", 3)
	require.True(t, ok)
	assert.Equal(t, Remembered{Source: "red1", Sense: SenseSight, X: 10, Y: 20, At: 1, Age: 2, Confidence: 0.5, strength: 1}, r)
	r, ok = m.Recall("shot", 4)
	require.True(t, ok)
	assert.InDelta(t, 0.2, r.Confidence, 1e-12, "a faint sound starts at its strength")
	assert.Equal(t, []string{"red1", "shot"}, sources(m.Things(5.99)), "in the order first perceived")
	assert.Equal(t, []string{"red1"}, sources(m.Things(6.01)), "the sound's 0.4 halved to 0.1 twice by 6 s")
	forgetAt := 1 + 2*math.Log2(10)
	_, ok = m.Recall("red1", forgetAt-1e-6)
	assert.True(t, ok, "still remembered just before %.3f s", forgetAt)
	_, ok = m.Recall("red1", forgetAt+1e-6)
	assert.False(t, ok, "forgotten just after")
	assert.Empty(t, m.Things(forgetAt))
}

// TestMemoryTakesNewsOfAThing: a new stimulus of a remembered thing moves
// its last known position and time, and its confidence is the stronger
// of the new strength and what was left; things stay in the order first
// perceived, and Drop forgets one at once.
func TestMemoryTakesNewsOfAThing(t *testing.T) {
	m := &Memory{HalfLife: 1}
	m.Perceive(Stimulus{Source: "a", Sense: SenseSight, X: 1}, 0)
	m.Perceive(Stimulus{Source: "b", Sense: SenseDamage, X: 2}, 0)
	m.Perceive(Stimulus{Source: "a", Sense: SenseSound, X: 3, Strength: 0.2}, 1) // 0.5 left beats 0.2
	r, _ := m.Recall("a", 1)
	assert.Equal(t, SenseSound, r.Sense)
	assert.Equal(t, 3.0, r.X)
	assert.Equal(t, 0.5, r.Confidence)
	m.Perceive(Stimulus{Source: "a", Sense: SenseTold, X: 4, Strength: 7}, 2) // above 1 counts as 1
	r, _ = m.Recall("a", 2)
	assert.Equal(t, 1.0, r.Confidence)
	assert.Equal(t, []string{"a", "b"}, sources(m.Things(2)), "first perceived first")
	assert.True(t, m.Drop("a"))
	assert.False(t, m.Drop("a"))
	m.Perceive(Stimulus{Sense: SenseSight}, 2)
	assert.Equal(t, []string{"b"}, sources(m.Things(2)), "a stimulus with no source is ignored")
	never := &Memory{HalfLife: math.Inf(1), Forget: -1}
	never.Perceive(Stimulus{Source: "x", Strength: 0.01}, 0)
	r, ok := never.Recall("x", 1e9)
	assert.True(t, ok)
	assert.Equal(t, 0.01, r.Confidence, "an infinite half-life never decays")
}

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
	a.Perceive(Stimulus{Source: "red1", Sense: SenseSight, X: 10, Y: -4})
	w.Tick(0.1)
	a.Perceive(Stimulus{Source: "shot", Sense: SenseSound, X: 7, Strength: 0.5})
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

func sources(rs []Remembered) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Source)
	}
	return out
}

// TestMemoryKeepsItsCapacity: a full memory makes room for a new thing by
// forgetting the one held with the least confidence now.
func TestMemoryKeepsItsCapacity(t *testing.T) {
	m := &Memory{Capacity: 3, HalfLife: 1}
	m.Perceive(Stimulus{Source: "a"}, 0)
	m.Perceive(Stimulus{Source: "b", Strength: 0.2}, 1)
	m.Perceive(Stimulus{Source: "c"}, 1)
	m.Perceive(Stimulus{Source: "d"}, 2) // a holds 0.25, b 0.1, c 0.5: b goes
	assert.Equal(t, []string{"a", "c", "d"}, sources(m.Things(2)))
	m.Perceive(Stimulus{Source: "e"}, 2) // a 0.25 is the weakest now
	assert.Equal(t, []string{"c", "d", "e"}, sources(m.Things(2)))
	m.Perceive(Stimulus{Source: "c"}, 2) // news: no room needed
	assert.Len(t, m.Things(2), 3)
}

// TestRoleMemorySettingsStartEachMemory: a domain's memory settings are
// each agent's memory's; bad ones fail the compile.
func TestRoleMemorySettingsStartEachMemory(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Keen", Memory: MemorySpec{HalfLife: 2, Capacity: 4}},
		RoleSpec{Name: "Keener", Memory: MemorySpec{Forget: 0.2}})
	require.NoError(t, err)
	m := NewAgent("k", d).Memory()
	assert.Equal(t, Memory{HalfLife: 2, Forget: 0.2, Capacity: 4}, *m, "a later role's non-zero settings win")
	_, err = Compile(RoleSpec{Name: "Bad", Memory: MemorySpec{HalfLife: math.NaN(), Forget: 1, Capacity: -1}})
	assert.EqualError(t, err, "memory half-life must be a positive number of seconds, not NaN\n"+
		"memory forget threshold must be a confidence below 1, not 1\n"+
		"memory capacity must not be negative, not -1")
}

// TestRestoreChecksTheRememberedThings: a memory restores up to its
// capacity, and a thing without a source or with a time past the bounds
// is refused with its agent.
func TestRestoreChecksTheRememberedThings(t *testing.T) {
	d := walkerRole(t)
	w := NewWorld(1)
	a := NewAgent("scout", d)
	w.Add(a)
	w.Tick(0.1)
	a.Memory().Capacity = 2
	a.Perceive(Stimulus{Source: "red1", Sense: SenseSight, X: 1})
	a.Perceive(Stimulus{Source: "red2", Sense: SenseSight, X: 2})
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	doc := buf.String()
	r, err := Restore(strings.NewReader(doc), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err, "a full memory restores")
	assert.Equal(t, []string{"red1", "red2"}, sources(r.Agents[0].Memory().Things(0.1)))

	over := strings.Replace(doc, `"capacity": 2`, `"capacity": 1`, 1)
	require.NotEqual(t, doc, over)
	_, err = Restore(strings.NewReader(over), RestoreOptions{Domains: []*Domain{d}})
	assert.EqualError(t, err, `engine: restore: agent scout: the memory holds 2 things, more than its capacity 1`)
	nameless := strings.Replace(doc, `"source": "red2"`, `"source": ""`, 1)
	_, err = Restore(strings.NewReader(nameless), RestoreOptions{Domains: []*Domain{d}})
	assert.EqualError(t, err, `engine: restore: agent scout: remembered thing 2 has no source`)
	for _, edge := range []string{`"at": 1e12`, `"at": -1e12`} {
		_, err = Restore(strings.NewReader(strings.Replace(doc, `"at": 0.1`, edge, 1)), RestoreOptions{Domains: []*Domain{d}})
		assert.NoError(t, err, "%s is within the bounds", edge)
	}
	faint := strings.Replace(doc, `"strength": 1`, `"strength": 0`, 1)
	require.NotEqual(t, doc, faint)
	_, err = Restore(strings.NewReader(faint), RestoreOptions{Domains: []*Domain{d}})
	assert.NoError(t, err, "a strength of 0 is within the bounds")
	late := strings.Replace(doc, `"at": 0.1`, `"at": 1e300`, 1)
	require.NotEqual(t, doc, late)
	_, err = Restore(strings.NewReader(late), RestoreOptions{Domains: []*Domain{d}})
	assert.EqualError(t, err, `engine: restore: agent scout: remembered "red1": time 1e+300 is not a finite number`)
}

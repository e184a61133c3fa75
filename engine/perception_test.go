package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/perception"
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
	a.Perceive(perception.Stimulus{Source: "red1", Sense: perception.SenseSight, X: 1})
	a.Perceive(perception.Stimulus{Source: "red2", Sense: perception.SenseSight, X: 2})
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

// TestMemoryChangesRoundTripThroughASnapshot: the changes a memory keeps
// for the reactive layer (Notify) are saved and restored in order; a
// change of no known kind, at a time past the bounds or of a bad thing is
// refused with its agent and number.
func TestMemoryChangesRoundTripThroughASnapshot(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Watcher", Memory: perception.Spec{Notify: true}})
	require.NoError(t, err)
	w := NewWorld(1)
	a := NewAgent("scout", d)
	w.Add(a)
	w.Tick(0.5)
	a.Perceive(perception.Stimulus{Source: "red1", Sense: perception.SenseSight, X: 10, Y: -4})
	a.Perceive(perception.Stimulus{Source: "shot", Sense: perception.SenseSound, X: 7, Strength: 0.25})
	require.True(t, a.Memory().Lose("red1", 0.5))
	want := a.Memory().Changes()
	require.Len(t, want, 3)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	doc := buf.String()
	r, err := Restore(strings.NewReader(doc), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	assert.Equal(t, want, r.Agents[0].Memory().Changes())
	assert.Equal(t, []perception.ChangeKind{perception.Perceived, perception.Perceived, perception.Lost},
		[]perception.ChangeKind{want[0].Kind, want[1].Kind, want[2].Kind})

	for _, tc := range []struct{ old, new, want string }{
		{`"kind": "lost"`, `"kind": "smelt"`, `engine: restore: agent scout: memory change 3: no kind "smelt" (perceived, lost or forgotten)`},
		{"\"kind\": \"lost\",\n      \"at\": 0.5", "\"kind\": \"lost\",\n      \"at\": 1e300",
			`engine: restore: agent scout: memory change 3: time 1e+300 is not a finite number`},
		{`"sense": "sight"`, `"sense": "smell"`, `engine: restore: agent scout: remembered "red1": no sense "smell" (sight, sound, damage or told)`},
	} {
		// The last occurrence: the changes come after the things held.
		i := strings.LastIndex(doc, tc.old)
		require.GreaterOrEqual(t, i, 0, tc.old)
		bad := doc[:i] + tc.new + doc[i+len(tc.old):]
		_, err = Restore(strings.NewReader(bad), RestoreOptions{Domains: []*Domain{d}})
		assert.EqualError(t, err, tc.want)
	}
	at := "\"kind\": \"lost\",\n      \"at\": 0.5"
	for _, edge := range []string{"1e12", "-1e12"} {
		_, err = Restore(strings.NewReader(strings.Replace(doc, at, at[:len(at)-3]+edge, 1)), RestoreOptions{Domains: []*Domain{d}})
		assert.NoError(t, err, "a change at %s is within the bounds", edge)
	}
}

// sources lists the sources of remembered things, in order.
func sources(rs []perception.Remembered) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Source)
	}
	return out
}

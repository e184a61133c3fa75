package perception

import (
	"math"
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
	assert.Equal(t, Remembered{Source: "red1", Sense: SenseSight, X: 10, Y: 20, At: 1, Age: 2, Confidence: 0.5, Strength: 1, Lost: true}, r,
		"lost: no news for more than LoseAfter (1 s by default)")
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

func sources(rs []Remembered) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Source)
	}
	return out
}

// TestHeldRoundTripsThroughHold: what Held returns, Hold takes back, and
// the memory then recalls the same.
func TestHeldRoundTripsThroughHold(t *testing.T) {
	m := New(Spec{HalfLife: 2})
	m.Perceive(Stimulus{Source: "a", Sense: SenseSight, X: 1, Y: 2}, 0)
	m.Perceive(Stimulus{Source: "b", Sense: SenseSound, Strength: 0.5}, 1)
	held := m.Held()
	assert.Equal(t, []Remembered{
		{Source: "a", Sense: SenseSight, X: 1, Y: 2, At: 0, Strength: 1, Lost: true},
		{Source: "b", Sense: SenseSound, At: 1, Strength: 0.5},
	}, held, "a was lost when b was perceived, 1 s later")
	n := New(Spec{HalfLife: 2})
	n.Hold(held)
	held[0].Source = "changed"
	assert.Equal(t, m.Things(3), n.Things(3), "Hold copies what it is given")
	assert.Equal(t, 2, n.Len())
}

// TestSenseNames: every sense has a name that parses back to it.
func TestSenseNames(t *testing.T) {
	for _, s := range []Sense{SenseSight, SenseSound, SenseDamage, SenseTold} {
		got, ok := ParseSense(s.String())
		require.True(t, ok, s.String())
		assert.Equal(t, s, got)
	}
	_, ok := ParseSense("smell")
	assert.False(t, ok)
	assert.Equal(t, "sense", Sense(0).String())
}

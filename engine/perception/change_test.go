package perception

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// kinds lists the changes as "kind source@at".
func kinds(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Kind.String()+" "+c.Thing.Source+"@"+expr.ShortNumber(c.At))
	}
	return out
}

// TestMemoryLosesForgetsAndTellsOnSchedule: with Notify on, the memory
// keeps a change when a thing is first perceived, when it has had no news
// for LoseAfter seconds (lost), when news finds it again (perceived) and
// when its confidence falls below Forget (forgotten), each at the first
// read at or after its time; news of a thing in sight is no change.
func TestMemoryLosesForgetsAndTellsOnSchedule(t *testing.T) {
	m := New(Spec{HalfLife: 1, Forget: 0.25, LoseAfter: 0.5, Notify: true})
	m.Perceive(Stimulus{Source: "red1", Sense: SenseSight, X: 10}, 0)
	m.Perceive(Stimulus{Source: "red1", Sense: SenseSight, X: 11}, 0.25)
	assert.Equal(t, []string{"perceived red1@0"}, kinds(m.TakeChanges()), "news of a thing in sight is no change")
	m.Update(0.7)
	assert.Empty(t, m.TakeChanges(), "0.45 s without news: not lost yet")
	m.Update(0.75)
	cs := m.TakeChanges()
	require.Equal(t, []string{"lost red1@0.75"}, kinds(cs))
	assert.Equal(t, Remembered{Source: "red1", Sense: SenseSight, X: 11, At: 0.25, Age: 0.5, Confidence: math.Exp2(-0.5), Strength: 1, Lost: true}, cs[0].Thing)
	r, ok := m.Recall("red1", 1)
	require.True(t, ok)
	assert.True(t, r.Lost, "a lost thing is still remembered, at its last known position")
	m.Perceive(Stimulus{Source: "red1", Sense: SenseSound, X: 30, Strength: 0.5}, 1)
	assert.Equal(t, []string{"perceived red1@1"}, kinds(m.TakeChanges()), "news finds a lost thing again")
	assert.False(t, m.Lose("nobody", 1))
	assert.True(t, m.Lose("red1", 1.25), "the game says the sight broke")
	assert.False(t, m.Lose("red1", 1.25), "already lost")
	// Confidence at 1: max(0.5, 2^-0.75 = 0.59) = 0.59; below 0.25 after
	// log2(0.59/0.25) = 1.24 s more: forgotten at 2.24 s.
	forgetAt := 1 + math.Log2(math.Exp2(-0.75)/0.25)
	m.Update(forgetAt - 1e-6)
	assert.Equal(t, []string{"lost red1@1.25"}, kinds(m.TakeChanges()))
	m.Update(forgetAt + 1e-6)
	assert.Equal(t, []string{"forgotten red1@" + expr.ShortNumber(forgetAt+1e-6)}, kinds(m.TakeChanges()))
	assert.Zero(t, m.Len())

	m.Perceive(Stimulus{Source: "a"}, 5)
	m.Perceive(Stimulus{Source: "b"}, 5)
	assert.True(t, m.Drop("a"))
	assert.Equal(t, []string{"perceived a@5", "perceived b@5", "forgotten a@5"}, kinds(m.TakeChanges()))
	full := New(Spec{Capacity: 1, Notify: true})
	full.Perceive(Stimulus{Source: "a"}, 0)
	full.Perceive(Stimulus{Source: "b"}, 0.5)
	assert.Equal(t, []string{"perceived a@0", "forgotten a@0.5", "perceived b@0.5"}, kinds(full.TakeChanges()),
		"a new thing in a full memory takes the weakest one's place")

	quiet := New(Spec{LoseAfter: -1})
	quiet.Perceive(Stimulus{Source: "a"}, 0)
	r, _ = quiet.Recall("a", 100)
	assert.False(t, r.Lost, "a negative LoseAfter loses nothing by time")
	assert.Empty(t, quiet.TakeChanges(), "Notify off: no changes kept")
}

// TestMemoryValuesAsConditionsReadThem: Value gives each field of
// memory.<source>.<field>; known is false and every other field Unknown
// for a thing not remembered.
func TestMemoryValuesAsConditionsReadThem(t *testing.T) {
	m := New(Spec{HalfLife: 2})
	m.Perceive(Stimulus{Source: "enemy", Sense: SenseSound, X: 3, Y: 4, Strength: 0.5}, 1)
	for f, want := range map[Field]expr.Value{
		FieldKnown: expr.BoolValue(true), FieldLost: expr.BoolValue(true), FieldAge: expr.NumberValue(2),
		FieldConfidence: expr.NumberValue(0.25), FieldX: expr.NumberValue(3), FieldY: expr.NumberValue(4),
		FieldSense: expr.StringValue("sound"),
	} {
		assert.Equal(t, want, m.Value("enemy", f, 3), f.String())
	}
	assert.Equal(t, expr.BoolValue(false), m.Value("ghost", FieldKnown, 3))
	assert.False(t, m.Value("ghost", FieldAge, 3).IsKnown())
	assert.Zero(t, testing.AllocsPerRun(100, func() { m.Value("enemy", FieldSense, 3) }))
}

// TestMemoryNames: ParseName splits memory.<source>.<field> (the source
// may hold dots); CheckName places what is wrong and suggests the nearest
// field.
func TestMemoryNames(t *testing.T) {
	tests := []struct {
		name, source string
		field        Field
		ok           bool
		problem      *expr.NameProblem
	}{
		{name: "memory.enemy.age", source: "enemy", field: FieldAge, ok: true},
		{name: "memory.squad.lead.known", source: "squad.lead", field: FieldKnown, ok: true},
		{name: "memory.enemy.agee", problem: &expr.NameProblem{Off: 13, Expected: `a field of remembered "enemy" (known, lost, age, confidence, x, y, sense)`, Found: `"agee" (did you mean "age"?)`}},
		{name: "memory.enemy.position", problem: &expr.NameProblem{Off: 13, Expected: `a field of remembered "enemy" (known, lost, age, confidence, x, y, sense)`, Found: `"position"`}},
		{name: "memory.enemy", problem: &expr.NameProblem{Off: 12, Expected: "memory.<source>.<field>, a field of a remembered thing (known, lost, age, confidence, x, y, sense)", Found: `"memory.enemy"`}},
	}
	for _, tt := range tests {
		source, f, ok := ParseName(tt.name)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.source, source, tt.name)
		assert.Equal(t, tt.field, f, tt.name)
		assert.Equal(t, tt.problem, CheckName(tt.name), tt.name)
	}
}

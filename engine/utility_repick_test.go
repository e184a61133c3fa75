package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestRepickIsPick: a re-score that takes the scores of the actions whose
// inputs did not change from the last kept re-score (repick) picks what a
// re-score of every action (Pick) picks, from states that change a few
// variables at a time, with commitment on and off; and it does take some.
func TestRepickIsPick(t *testing.T) {
	d, err := Compile(skipRole())
	require.NoError(t, err)
	for _, commitment := range []float64{0, -1} {
		a := NewAgent("s", d)
		u := a.utility
		u.Commitment = commitment
		running := d.Action("attack")
		require.NotNil(t, running)
		r := rand.New(rand.NewPCG(7, uint64(commitment+2)))
		st := a.State.Clone()
		var kept expr.State // the state of the last kept re-score, nil when none
		switches, reused := 0, 0
		for i := range 3000 {
			switch r.IntN(6) {
			case 0:
				st.Set(d.Schema, "ammo", expr.NumberValue(float64(r.IntN(31))))
			case 1:
				st.Set(d.Schema, "health", expr.NumberValue(float64(r.IntN(101))))
			case 2:
				st.Set(d.Schema, "enemy_distance", expr.NumberValue(float64(r.IntN(800))))
			case 3:
				st.Set(d.Schema, "enemy_visible", expr.BoolValue(r.IntN(4) > 0))
			case 4:
				st.Set(d.Schema, "in_cover", expr.BoolValue(r.IntN(2) == 0))
			case 5:
				st.Set(d.Schema, "noise", expr.NumberValue(float64(r.IntN(5))))
			}
			changed := allSlots
			if kept != nil {
				changed = changedSlots(st, kept)
				if u.memo.sameSettings(a, running) {
					for j := range d.Actions {
						if changed&u.actReads[j] == 0 {
							reused++
						}
					}
				}
			}
			want, _ := u.Pick(st, running)
			got := u.repick(a, st, running, changed)
			require.Equal(t, want, got, "step %d (commitment %v): the pick from %v", i, commitment, st)
			if got == running {
				u.memo.keep(a, running)
				kept = st.Clone()
			} else {
				switches++
				u.memo.forget()
				kept = nil
			}
		}
		assert.Greater(t, switches, 100, "the best action changes now and then")
		assert.Greater(t, reused, 1000, "scores are taken from the memo")
	}
}

// TestARunningPickIsReScoredWhenWhatItsScoresReadChanges: a re-score
// that kept the running pick is remembered, and skipped only while no
// slot the scores read changes; when one does (here after a re-score that
// kept Graze), the pick is scored again and Flee takes over.
func TestARunningPickIsReScoredWhenWhatItsScoresReadChanges(t *testing.T) {
	w, a, tr := newWorld(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"danger", expr.NumberValue(0)}, {"noise", expr.NumberValue(0)}},
		Actions: []ActionSpec{
			{Name: "Graze", Utility: UtilitySpec{Value: 50}, Considerations: []ConsiderationSpec{{Kind: ConsiderValue}}, Body: ticksBody{n: 100}},
			{Name: "Flee", Considerations: []ConsiderationSpec{{Input: "danger", Min: 0, Max: 1}}, Body: ticksBody{n: 100}},
		}})
	a.RethinkEvery = -1
	w.Tick(0.1)
	a.Set("danger", expr.NumberValue(0.3)) // Flee 0.3 against Graze 0.5: kept
	w.Tick(0.1)
	a.Set("noise", expr.NumberValue(1)) // read by no score
	w.Tick(0.1)
	a.Set("danger", expr.NumberValue(0.9)) // Flee 0.9: more than 0.1 above Graze
	w.Tick(0.1)
	assert.Equal(t, []string{"1 pick Graze", "1 start Graze", "4 interrupt Graze", "4 pick Flee", "4 start Flee"},
		tr.lines(record.EventPick, record.EventStart, record.EventInterrupt))
}

// TestARepickTakesTheScoresOfUnchangedActionsFromTheMemo: after a
// re-score that kept the running pick, the next one takes each action's
// precondition and score from the memo when the action reads none of the
// changed slots, and works them out again when it reads one. (The memo's
// score for Flee is replaced by hand to tell the two apart.)
func TestARepickTakesTheScoresOfUnchangedActionsFromTheMemo(t *testing.T) {
	d := compileRoles(t, RoleSpec{Name: "R", Decide: "utility",
		State: []Var{{"danger", expr.NumberValue(0)}, {"noise", expr.NumberValue(0)}},
		Actions: []ActionSpec{
			{Name: "Graze", Utility: UtilitySpec{Value: 50}, Considerations: []ConsiderationSpec{{Kind: ConsiderValue}}},
			{Name: "Flee", Considerations: []ConsiderationSpec{{Input: "danger", Min: 0, Max: 1}}},
		}})
	a := NewAgent("a", d)
	u := a.utility
	graze, flee := d.Action("Graze"), d.Action("Flee")
	st := a.State.Clone()
	require.Same(t, graze, u.repick(a, st, graze, allSlots))
	u.memo.keep(a, graze)
	require.Equal(t, []actionScore{{ok: true, score: 0.5}, {ok: true, score: 0}}, u.memo.scores, "what the re-score found")

	u.memo.scores[1].score = 0.9
	slot := func(name string) uint64 {
		i, ok := d.Schema.Lookup(name)
		require.True(t, ok)
		return 1 << uint(i)
	}
	noise, danger := slot("noise"), slot("danger")
	assert.Same(t, flee, u.repick(a, st, graze, noise), "Flee reads no changed slot: its score (0.9) is the memo's")
	assert.Same(t, graze, u.repick(a, st, graze, danger), "Flee reads danger: scored again (0)")
}

// TestPickReadsFollowsTheDomainAndTheConsiderations: the slots the
// scores read are worked out again for another domain and for another
// slice of considerations, even one of the same length; a function
// consideration makes them unknown (ok false).
func TestPickReadsFollowsTheDomainAndTheConsiderations(t *testing.T) {
	role := func(pre string) RoleSpec {
		return RoleSpec{Name: "R", Decide: "utility",
			State:   []Var{{"a", expr.NumberValue(0)}, {"b", expr.NumberValue(0)}, {"c", expr.NumberValue(0)}},
			Actions: []ActionSpec{{Name: "act", Pre: pre}}}
	}
	d1, d2 := compileRoles(t, role("a > 0")), compileRoles(t, role("b > 0"))
	bit := func(name string) uint64 {
		i, ok := d1.Schema.Lookup(name)
		require.True(t, ok)
		return 1 << uint(i)
	}
	input := func(name string) []Consideration {
		c, err := CompileConsideration(ConsiderationSpec{Input: name, Min: 0, Max: 1}, d1.Schema)
		require.NoError(t, err)
		return []Consideration{c}
	}
	u := utilityWith(d1, input("c")...)
	reads, ok := u.pickReads()
	assert.True(t, ok)
	assert.Equal(t, bit("a")|bit("c"), reads, "d1's precondition and the input")
	u.Domain = d2
	reads, ok = u.pickReads()
	assert.True(t, ok)
	assert.Equal(t, bit("b")|bit("c"), reads, "d2's precondition")
	u.Considerations = input("a")
	reads, ok = u.pickReads()
	assert.True(t, ok)
	assert.Equal(t, bit("b")|bit("a"), reads, "a new slice of one consideration")
	u.Considerations = []Consideration{fixed("f", 1, 0.5)}
	_, ok = u.pickReads()
	assert.False(t, ok, "a function may read anything")
	u.Domain = nil
	reads, ok = u.pickReads()
	assert.False(t, ok)
	assert.Zero(t, reads)
}

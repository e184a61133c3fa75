package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
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

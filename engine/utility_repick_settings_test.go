package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestRepickFollowsSettings: a re-score that takes scores from the memo
// (repick) picks what Pick picks while the planner's settings change
// between re-scores (mode, clamping, commitment, NaN commitment, the
// considerations' slice, explanations, the domain itself), with odd
// values (NaN, ±Inf, -0, nil, Unknown) in the slots the scores read and
// a second agent's re-scores in between on the same domain; and it
// takes scores from the memo when nothing but the state changed.
func TestRepickFollowsSettings(t *testing.T) {
	d, err := Compile(oddPickRole(0))
	require.NoError(t, err)
	d2, err := Compile(oddPickRole(0)) // a domain alike, not the same one
	require.NoError(t, err)
	a, b := NewAgent("a", d), NewAgent("b", d)
	r := rand.New(rand.NewPCG(11, 12))
	names := []string{"hunger", "heat", "fatigue", "danger", "gate"}
	type agentRun struct {
		ag      *Agent
		st      expr.State
		kept    expr.State
		running *Action
	}
	runs := []*agentRun{{ag: a, st: a.State.Clone()}, {ag: b, st: b.State.Clone()}}
	ownCons := []Consideration{{Name: "v", Kind: ConsiderValue, Weight: 1}}
	reused, picks := 0, map[string]int{}
	for i := range 6000 {
		ar := runs[r.IntN(2)]
		u := ar.ag.utility
		switch p := r.IntN(200); {
		case p < 2:
			u.Mode = []string{UtilityAverage, UtilityMultiply, ""}[r.IntN(3)]
		case p < 4:
			u.Clamp = !u.Clamp
		case p < 7:
			u.Commitment = []float64{0, -1, 0.05, math.NaN(), math.Inf(1), 1e-300}[r.IntN(6)]
		case p < 8:
			u.Considerations = append([]Consideration(nil), ownCons...) // a new slice
		case p < 9:
			u.Explain = !u.Explain
		case p < 10:
			if u.Domain == d {
				u.Domain = d2
			} else {
				u.Domain = d
			}
			ar.running, ar.kept = nil, nil
		}
		if r.IntN(3) == 0 {
			ar.st.Set(d.Schema, names[r.IntN(len(names))], oddValues[r.IntN(len(oddValues))])
		} else {
			ar.st.Set(d.Schema, names[r.IntN(len(names))], expr.NumberValue(float64(r.IntN(12))))
		}
		acts := u.Domain.Actions
		if ar.running == nil || !ar.running.Pre.Eval(ar.st) {
			ar.running = acts[r.IntN(len(acts))]
			u.memo.forget()
			ar.kept = nil
		}
		changed := allSlots
		if ar.kept != nil {
			changed = changedSlots(ar.st, ar.kept)
			if u.memo.sameSettings(ar.ag, ar.running) && !u.Explain {
				for j := range acts {
					if changed&u.actReads[j] == 0 {
						reused++
					}
				}
			}
		}
		want, _ := u.Pick(ar.st, ar.running)
		got := u.repick(ar.ag, ar.st, ar.running, changed)
		require.Equal(t, want, got, "step %d, agent %s, running %s, state %v", i, ar.ag.Name, ar.running.Name, ar.st)
		if got != nil {
			picks[got.Name]++
		}
		if got == ar.running {
			u.memo.keep(ar.ag, ar.running)
			ar.kept = ar.st.Clone()
		} else {
			u.memo.forget()
			ar.kept, ar.running = nil, got
		}
	}
	assert.Greater(t, reused, 2000, "scores are taken from the memo")
	for _, name := range []string{"hunt", "rest", "flee", "idle"} {
		assert.Greater(t, picks[name], 50, "%s is picked", name)
	}
}

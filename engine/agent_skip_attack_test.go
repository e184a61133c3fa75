package engine

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// paddedSkipRole is skipRole with pad unread variables before its own,
// so that the checks read slots past 63 when pad is large.
func paddedSkipRole(pad int) RoleSpec {
	spec := skipRole()
	vars := make([]Var, 0, pad+len(spec.State))
	for i := range pad {
		vars = append(vars, Var{"pad" + strconv.Itoa(i), expr.NumberValue(float64(i))})
	}
	spec.State = append(vars, spec.State...)
	return spec
}

// skipRunSpec is skipRun for any role of skipRole's variables; the world
// also writes through Agent.State directly (not Agent.Set), and writes a
// value of another kind now and then.
func skipRunSpec(t *testing.T, spec RoleSpec, agents, ticks, workers int, checkAll bool) []string {
	t.Helper()
	d, err := Compile(spec)
	require.NoError(t, err)
	w, out := skipWorld(t, d, 3, agents, checkAll)
	w.Workers = workers
	r := rand.New(rand.NewPCG(3, 4))
	for range ticks {
		for _, a := range w.Agents {
			slot := func(name string) int { s, ok := d.Schema.Lookup(name); require.True(t, ok); return s }
			num := func(name string) float64 { x, _ := a.Get(name).AsNumber(); return x }
			switch p := r.IntN(100); {
			case p < 15:
				a.State[slot("health")] = expr.NumberValue(max(0, min(100, num("health")+float64(r.IntN(41)-25))))
			case p < 20:
				a.State[slot("enemy_visible")] = expr.BoolValue(!a.Get("enemy_visible").Truthy())
			case p < 27:
				a.Set("enemy_distance", expr.NumberValue(float64(r.IntN(800))))
			case p < 29:
				a.State[slot("ammo")] = expr.NumberValue(float64(r.IntN(31)))
			case p < 30:
				a.State[slot("health")] = expr.BoolValue(true) // another kind: the input reads NaN
			case p < 32:
				a.Set("in_cover", expr.BoolValue(false))
			case p < 40:
				a.Set("noise", expr.NumberValue(float64(r.IntN(5))))
			}
		}
		w.Tick(1.0 / 60)
	}
	w.Finish()
	return *out
}

// TestSkippedChecksWithManySlots: with 63, 64 and 65 or more slots (past
// the masks' 64 bits) and state written straight into Agent.State, the
// skipped checks and re-scores leave every record as checking everything.
func TestSkippedChecksWithManySlots(t *testing.T) {
	for _, pad := range []int{0, 56, 57, 58, 70} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("pad=%d/workers=%d", pad, workers), func(t *testing.T) {
				spec := paddedSkipRole(pad)
				want := skipRunSpec(t, spec, 12, 600, workers, true)
				got := skipRunSpec(t, spec, 12, 600, workers, false)
				require.Greater(t, len(want), 500, "the run makes records")
				assert.Equal(t, want, got)
			})
		}
	}
}

// TestSkippedChecksAcrossSetDomain: agents whose domain is replaced
// mid-run (a longer state past 64 slots, then the same variables in
// another order, then the first domain again) make the same records with
// checks skipped as with everything checked.
func TestSkippedChecksAcrossSetDomain(t *testing.T) {
	run := func(checkAll bool) []string {
		base := skipRole()
		reordered := skipRole()
		for i, j := 0, len(reordered.State)-1; i < j; i, j = i+1, j-1 {
			reordered.State[i], reordered.State[j] = reordered.State[j], reordered.State[i]
		}
		var doms []*Domain
		for _, spec := range []RoleSpec{base, paddedSkipRole(60), reordered, base} {
			d, err := Compile(spec)
			require.NoError(t, err)
			doms = append(doms, d)
		}
		w, out := skipWorld(t, doms[0], 5, 9, checkAll)
		r := rand.New(rand.NewPCG(5, 6))
		for tick := range 800 {
			if tick%200 == 199 && tick < 600 {
				for _, a := range w.Agents {
					a.SetDomain(doms[(tick+1)/200])
				}
			}
			for _, a := range w.Agents {
				switch p := r.IntN(100); {
				case p < 15:
					x, _ := a.Get("health").AsNumber()
					a.Set("health", expr.NumberValue(max(0, min(100, x+float64(r.IntN(41)-25)))))
				case p < 20:
					a.Set("enemy_visible", expr.BoolValue(!a.Get("enemy_visible").Truthy()))
				case p < 27:
					a.Set("enemy_distance", expr.NumberValue(float64(r.IntN(800))))
				case p < 29:
					a.Set("ammo", expr.NumberValue(float64(r.IntN(31))))
				}
			}
			w.Tick(1.0 / 60)
		}
		w.Finish()
		return *out
	}
	want := run(true)
	require.Greater(t, len(want), 300)
	assert.Equal(t, want, run(false))
}

// TestSkippedChecksWithManyGoals: with 10 goals (past the agent's 8
// inline satisfied marks) whose conditions the world's health writes flip,
// skipping changes no record.
func TestSkippedChecksWithManyGoals(t *testing.T) {
	spec := paddedSkipRole(0)
	for i := 1; i <= 9; i++ {
		pri := []Priority{Low, Normal, High, Critical}[i%4]
		spec.Goals = append(spec.Goals, NewGoal("fit"+strconv.Itoa(i), "health > "+strconv.Itoa(10*i), pri))
	}
	spec.Actions = append(spec.Actions, NewAction("heal").Effects("health = 100").Cost(5).Body(stepsBody{n: 2}).Spec())
	for _, workers := range []int{1, 2} {
		want := skipRunSpec(t, spec, 12, 600, workers, true)
		got := skipRunSpec(t, spec, 12, 600, workers, false)
		require.Greater(t, len(want), 500, "the run makes records")
		plans := 0
		for _, l := range want {
			if len(l) > 5 && l[:5] == "plan:" {
				plans++
			}
		}
		assert.Greater(t, plans, 20, "the goals make plans")
		assert.Equal(t, want, got, "workers %d", workers)
	}
}

package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/plantest"
)

// TestWordSearchAtTheEdges: domains whose numbers sit at the word search's
// bounds, and start states changed after compiling (a huge or fractional
// number, -0, a string the domain never names, another kind), plan
// exactly as the general search plans them.
func TestWordSearchAtTheEdges(t *testing.T) {
	words := 0
	// Most drawn starts send the search to the general one on purpose, so
	// only a few checks in 100 run a word search: draw again until some did
	// (about 2% of 100-check runs had none).
	for round := 0; words == 0 && round < 5; round++ {
		edgeRound(t, &words)
	}
	t.Logf("word search ran %d times", words)
	require.Greater(t, words, 0)
}

// edgeRound is one rapid run of TestWordSearchAtTheEdges, counting the
// plans that ran a word search in words.
func edgeRound(t *testing.T, words *int) {
	rapid.Check(t, func(t *rapid.T) {
		spec := roleOf(plantest.Edge(t))
		d, err := Compile(spec)
		if err != nil {
			t.Skip(err.Error())
		}
		st := d.NewState()
		switch rapid.IntRange(0, 4).Draw(t, "start") {
		case 0:
			st[0] = expr.NumberValue(rapid.SampledFrom(plantest.EdgeNumbers).Draw(t, "s0"))
		case 1:
			st[3] = expr.StringValue(rapid.SampledFrom([]string{"zz", "q", "c"}).Draw(t, "s3"))
		case 2:
			st[1] = rapid.SampledFrom([]expr.Value{expr.BoolValue(true), expr.StringValue("a"), {}}).Draw(t, "s1")
		}
		depth := rapid.IntRange(1, 8).Draw(t, "depth")
		mk := func(generalOnly bool) *Planner {
			p := depthPlanner(d, depth)
			p.s.GeneralOnly = generalOnly
			return p
		}
		gp, wp := mk(true), mk(false)
		want := outcomeOf(gp.Plan(st))
		got := outcomeOf(wp.Plan(st))
		if wp.s.WordMode() {
			*words++
		}
		desc := fmt.Sprintf("start %v, goals %+v, actions %+v", st, spec.Goals, spec.Actions)
		require.Equal(t, want, got, desc)
		require.Equal(t, want, outcomeOf(wp.Plan(st)), "again: %s", desc)
		require.Equal(t, outcomeOf(gp.PlanFor(d.Goals[0], st)), outcomeOf(planSliced(mk(false), d.Goals[0], st, 2)), "sliced: %s", desc)
	})
}

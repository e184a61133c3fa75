package engine

import (
	"container/heap"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestRelaxedEstimateInTheWordSearchOfFourWords(t *testing.T) {
	// p0..p3 fit 4 words; the word search's estimate is the relaxed one
	// too. "back", declared first, leaves p1 cheaply: with the one-step
	// estimate its child ties with step2's (f = 3) and is expanded first.
	d, err := Compile(RoleSpec{Name: "Tiny",
		State: []Var{{"p0", expr.BoolValue(true)}, {"p1", expr.BoolValue(false)}, {"p2", expr.BoolValue(false)}, {"p3", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("top", "p3", Normal)},
		Actions: []ActionSpec{
			NewAction("back").Pre("p1").Effects("p0 = false").Spec(),
			NewAction("step1").Pre("p0").Effects("p1 = true").Spec(),
			NewAction("step2").Pre("p1").Effects("p2 = true").Spec(),
			NewAction("step3").Pre("p2").Effects("p3 = true").Spec(),
		}})
	require.NoError(t, err)
	pl := depthPlanner(d, 3)
	gs := pl.searchGoal(d.Goal("top"))
	require.True(t, gs.HasWords(), "the chain of 3 takes the word search")
	for _, general := range []bool{true, false} {
		pl := depthPlanner(d, 3)
		pl.s.GeneralOnly = general
		p, err := pl.Plan(d.NewState())
		require.NoError(t, err)
		assert.Equal(t, []string{"step1", "step2", "step3"}, p.Names())
		assert.Equal(t, 3, p.Expansions, "general only: %v", general)
		// Sliced, the word loop runs from searchNew.
		p, err = planSliced(pl, d.Goal("top"), d.NewState(), 1)
		require.NoError(t, err)
		assert.Equal(t, 3, p.Expansions, "sliced, general only: %v", general)
	}
}

// relaxedDomain draws a small domain of 2 to 5 booleans with a bare
// variable in the goal: 1 to 7 actions with 0 to 2 literals in their
// preconditions, 1 or 2 boolean assignments (a literal or a copy), costs
// 1..3, some fulfilling the goal.
func relaxedDomain(t *rapid.T) RoleSpec {
	nb := rapid.IntRange(2, 5).Draw(t, "bools")
	name := func(i int) string { return "b" + strconv.Itoa(i) }
	var state []Var
	for i := range nb {
		state = append(state, Var{name(i), expr.BoolValue(rapid.IntRange(0, 2).Draw(t, "init") == 0)})
	}
	lit := func(label string) string {
		v := name(rapid.IntRange(0, nb-1).Draw(t, label))
		if rapid.IntRange(0, 3).Draw(t, label+"neg") == 0 {
			return "!" + v
		}
		return v
	}
	var actions []ActionSpec
	for i := range rapid.IntRange(1, 7).Draw(t, "actions") {
		var pre []string
		for range rapid.IntRange(0, 2).Draw(t, "pre") {
			pre = append(pre, lit("prelit"))
		}
		var effs []string
		seen := map[int]bool{}
		for range rapid.IntRange(1, 2).Draw(t, "effects") {
			v := rapid.IntRange(0, nb-1).Draw(t, "target")
			if seen[v] {
				continue
			}
			seen[v] = true
			switch rapid.IntRange(0, 4).Draw(t, "shape") {
			case 0:
				effs = append(effs, name(v)+" = false")
			case 1:
				effs = append(effs, name(v)+" = "+name(rapid.IntRange(0, nb-1).Draw(t, "src")))
			default:
				effs = append(effs, name(v)+" = true")
			}
		}
		b := NewAction("a" + strconv.Itoa(i)).Pre(strings.Join(pre, " && ")).Effects(strings.Join(effs, ", ")).
			Cost(float64(rapid.IntRange(1, 3).Draw(t, "cost")))
		if rapid.IntRange(0, 6).Draw(t, "fulfills") == 0 {
			b.Fulfills("g")
		}
		actions = append(actions, b.Spec())
	}
	goal := name(rapid.IntRange(0, nb-1).Draw(t, "goal"))
	if rapid.IntRange(0, 3).Draw(t, "wide") == 0 {
		goal += " && " + lit("goallit")
	}
	return RoleSpec{Name: "R", State: state, Goals: []GoalSpec{NewGoal("g", goal, Normal)}, Actions: actions}
}

// optimalCosts returns the least cost to reach goal g from every state of
// d's booleans (nb of them, state i has bit k for slot k), by a
// uniform-cost search from each: +Inf when no plan exists at any length.
func optimalCosts(t require.TestingT, d *Domain, g *Goal, nb int) []float64 {
	out := make([]float64, 1<<nb)
	for s := range out {
		dist := map[int]float64{s: 0}
		q := &costQueue{{s, 0}}
		out[s] = math.Inf(1)
		for q.Len() > 0 {
			e := heap.Pop(q).(costEntry)
			if e.cost > dist[e.state] {
				continue
			}
			if e.state == -1 || g.Satisfied(boolState(d, e.state, nb)) {
				out[s] = e.cost
				break
			}
			st := boolState(d, e.state, nb)
			for _, a := range d.Actions {
				if !a.Pre.Eval(st) {
					continue
				}
				next := st.Clone()
				require.NoError(t, a.Effects.Apply(next, st))
				n := stateBits(next, nb)
				if a.Serves(g) {
					n = -1 // the step completes the goal
				}
				c := e.cost + a.Cost
				if old, ok := dist[n]; !ok || c < old {
					dist[n] = c
					heap.Push(q, costEntry{n, c})
				}
			}
		}
	}
	return out
}

func boolState(d *Domain, bits, nb int) expr.State {
	st := d.NewState()
	for k := range nb {
		st[k] = expr.BoolValue(bits&(1<<k) != 0)
	}
	return st
}

func stateBits(st expr.State, nb int) int {
	b := 0
	for k := range nb {
		if st[k].Truthy() {
			b |= 1 << k
		}
	}
	return b
}

type costEntry struct {
	state int // bits of the booleans; -1 for "completed by a fulfilling step"
	cost  float64
}

type costQueue []costEntry

func (q costQueue) Len() int           { return len(q) }
func (q costQueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q costQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *costQueue) Push(x any)        { *q = append(*q, x.(costEntry)) }
func (q *costQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// TestRelaxedEstimateIsAdmissibleAndConsistent checks the heuristic with
// the relaxed estimate against a uniform-cost search on random boolean
// domains, in every state: it never exceeds the optimal cost (admissible)
// nor a step's cost plus the estimate after it (consistent, between states
// that can still reach the goal); the word search estimates the same; the
// planner's plan costs the optimum and, within a small depth, is the one
// the exhaustive search picks among the cheapest.
func TestRelaxedEstimateIsAdmissibleAndConsistent(t *testing.T) {
	used := 0
	rapid.Check(t, func(t *rapid.T) {
		spec := relaxedDomain(t)
		d, err := Compile(spec)
		require.NoError(t, err)
		nb := len(spec.State)
		g := d.Goals[0]
		desc := fmt.Sprintf("goal %q, actions %+v", g.Condition.Source(), spec.Actions)
		opt := optimalCosts(t, d, g, nb)
		pl := depthPlanner(d, 1<<nb)
		gs := pl.searchGoal(g)
		for i := range gs.NumAtoms() {
			if gs.HasRelaxed(i) {
				used++
				break
			}
		}
		h := make([]float64, len(opt))
		for s := range opt {
			st := boolState(d, s, nb)
			h[s], _ = pl.s.Heuristic(gs, st)
			require.LessOrEqual(t, h[s], opt[s], "admissible in state %b: %s", s, desc)
			if gs.HasWords() {
				row := make([]uint64, gs.NumWords())
				require.True(t, gs.LoadWords(row, st))
				hw, _ := pl.s.HeuristicWords(gs, row)
				require.Equal(t, h[s], hw, "the word search's estimate in state %b: %s", s, desc)
			}
		}
		for s := range opt {
			st := boolState(d, s, nb)
			for _, a := range d.Actions {
				if !a.Pre.Eval(st) || a.Serves(g) {
					continue
				}
				next := st.Clone()
				require.NoError(t, a.Effects.Apply(next, st))
				n := stateBits(next, nb)
				if !math.IsInf(opt[n], 1) {
					require.LessOrEqual(t, h[s], a.Cost+h[n], "consistent from %b by %s to %b: %s", s, a.Name, n, desc)
				}
			}
		}
		start := stateBits(d.NewState(), nb)
		p, err := pl.PlanFor(g, d.NewState())
		if math.IsInf(opt[start], 1) {
			require.Error(t, err, desc)
		} else {
			require.NoError(t, err, desc)
			assert.Equal(t, opt[start], p.Cost, "the optimum: %s", desc)
		}
		// The word search gives what the general
		// search gives, expansions included.
		general := depthPlanner(d, 1<<nb)
		general.s.GeneralOnly = true
		require.Equal(t, outcomeOf(general.PlanFor(g, d.NewState())), outcomeOf(depthPlanner(d, 1<<nb).PlanFor(g, d.NewState())),
			"the word search: %s", desc)
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		want, wantCost, exists := bruteForce(d, g, d.NewState(), depth)
		p, err = depthPlanner(d, depth).PlanFor(g, d.NewState())
		if !exists {
			require.Error(t, err, desc)
			return
		}
		require.NoError(t, err, desc)
		got := []int{}
		for _, a := range p.Steps {
			got = append(got, a.Index)
		}
		if want == nil {
			want = []int{}
		}
		require.Equal(t, wantCost, p.Cost, desc)
		require.Equal(t, want, got, "the cheapest plan, first in declaration order: %s", desc)
	})
	t.Logf("relaxed estimate used in %d domains", used)
	assert.Greater(t, used, 0)
}

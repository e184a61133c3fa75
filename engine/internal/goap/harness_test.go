package goap

import (
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/stretchr/testify/require"
)

// The search's own tests build small problems here, the way package
// engine's Compile lowers a role: the variables get the first slots in
// order, then the goal's condition and each action's precondition and
// effects are compiled against the same schema.

// tVar is a state variable and its initial value.
type tVar struct {
	name string
	v    Value
}

// tAct is an action: its precondition and effects ("" for none), its
// cost (0 means 1) and whether it lists the goal in fulfills.
type tAct struct {
	name, pre, eff string
	cost           float64
	finishes       bool
}

func num(f float64) Value { return expr.NumberValue(f) }

func boolean(b bool) Value { return expr.BoolValue(b) }

// lower builds the problem of one goal over vars and acts.
func lower(t testing.TB, vars []tVar, goal string, acts ...tAct) *Problem {
	t.Helper()
	s := expr.NewSchema()
	var init State
	for _, v := range vars {
		s.Intern(v.name)
		init = append(init, v.v)
	}
	cond, err := expr.CompileCondition(goal, s)
	require.NoError(t, err, goal)
	g := &Goal{Name: "g", Condition: cond}
	pr := &Problem{Schema: s, Goals: []*Goal{g}}
	for i, a := range acts {
		pre, err := expr.CompileCondition(a.pre, s)
		require.NoError(t, err, a.pre)
		var eff *Effect
		if a.eff != "" {
			eff, err = expr.CompileEffect(a.eff, s)
			require.NoError(t, err, a.eff)
		}
		la := Action{Name: a.name, Index: i, Pre: pre, Effects: eff, Cost: a.cost}
		if la.Cost == 0 {
			la.Cost = 1
		}
		if a.finishes {
			la.Fulfills = []*Goal{g}
		}
		pr.Actions = append(pr.Actions, la)
	}
	for len(init) < s.Len() {
		init = append(init, Value{})
	}
	pr.Initial = init
	return pr
}

// newSearcher returns a searcher over pr with the planner's default
// budget.
func newSearcher(pr *Problem) *Searcher {
	p := &Searcher{Budget: 10000}
	p.Reset(pr)
	return p
}

// planOf runs one search for pr's goal from start within maxDepth, as the
// planner runs it, and returns the plan's step names, first step first,
// and its cost.
func planOf(p *Searcher, start State, maxDepth int) (names []string, cost float64, res Outcome, expansions int) {
	pr := p.Problem()
	end, res, _, exp := p.Search(p.searchGoal(pr.Goals[0]), start, maxDepth)
	if res == Found {
		path := p.PathTo(end, nil)
		for i := len(path) - 1; i >= 0; i-- {
			names = append(names, pr.Actions[path[i]].Name)
		}
		cost = p.Cost(end)
	}
	return names, cost, res, exp
}

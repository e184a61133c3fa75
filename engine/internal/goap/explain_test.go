package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// explainOf searches pr's goal from its initial state within maxDepth and
// returns Explain's failure (nil when the search found a plan).
func explainOf(p *Searcher, maxDepth int) *Failure {
	pr := p.Problem()
	gs := p.searchGoal(pr.Goals[0])
	_, res, cut, exp := p.Search(gs, pr.Initial, maxDepth)
	if res == Found {
		return nil
	}
	return p.Explain(gs, pr.Initial, maxDepth, res, cut, exp)
}

func TestExplainSaysWhyNoPlanWasFound(t *testing.T) {
	vars := []tVar{{"n", num(0)}, {"p", boolean(false)}, {"q", boolean(false)}, {"r", boolean(false)}, {"done", boolean(false)}}
	tests := []struct {
		name     string
		goal     string
		acts     []tAct
		maxDepth int
		budget   int
		want     Failure
	}{
		{name: "a plan beyond the depth limit", goal: "n >= 5", maxDepth: 3,
			acts: []tAct{{name: "Inc", eff: "n = n + 1"}},
			want: Failure{Reason: MaxDepthExceeded, Detail: "a plan of 5 steps exists, beyond maxDepth 3"}},
		{name: "cut at the deepest limit", goal: "n >= 300", maxDepth: MaxMaxDepth,
			acts: []tAct{{name: "Inc", eff: "n = n + 1"}},
			want: Failure{Reason: MaxDepthExceeded, Detail: "no plan within 256 steps; the search was cut by the depth limit"}},
		{name: "over budget", goal: "n >= 50", maxDepth: 100, budget: 10,
			acts: []tAct{{name: "Inc", eff: "n = n + 1"}, {name: "Dec", eff: "n = n - 1"}},
			want: Failure{Reason: BudgetExceeded, Expansions: 10, Detail: "the search expanded 10 states without reaching the goal"}},
		{name: "a dead end", goal: "n >= 5", maxDepth: 10,
			acts: []tAct{{name: "Dec", eff: "n = n - 1"}, {name: "Sink", eff: "n = n - 2"}},
			want: Failure{Reason: Unreachable,
				Detail: "the goal's condition can never hold: no action can move its variables toward it, or the actions that do run out of a resource nothing restores (\"n\": Dec, Sink only move it the other way)"}},
		{name: "nothing assigns", goal: "n >= 1 and done", maxDepth: 10,
			acts: []tAct{{name: "Inc", eff: "n = n + 1"}},
			want: Failure{Reason: Unreachable,
				Detail: "the goal's condition can never hold: no action can move its variables toward it, or the actions that do run out of a resource nothing restores (no action assigns \"done\")"}},
		{name: "a blocked finisher", goal: "done", maxDepth: 10,
			acts: []tAct{{name: "Other", pre: "q", eff: "done = true"}, {name: "Finish", pre: "p", eff: "done = true", finishes: true}},
			want: Failure{Reason: Unreachable, Action: "Finish", Precondition: "p", Expansions: 1,
				Detail: "the precondition of \"Finish\" never holds"}},
		{name: "the root of a blocked chain", goal: "done", maxDepth: 10,
			acts: []tAct{{name: "Finish", pre: "p", eff: "done = true"}, {name: "MakeP", pre: "q", eff: "p = true"},
				{name: "MakeQ", pre: "r and n > 100", eff: "q = true"}},
			want: Failure{Reason: Unreachable, Action: "MakeQ", Precondition: "r and n > 100", Expansions: 1,
				Detail: "the precondition of \"MakeQ\" never holds, so \"Finish\" (\"p\") can never run"}},
		{name: "a precondition that reads nothing", goal: "done", maxDepth: 10,
			acts: []tAct{{name: "Never", pre: "1 > 2", eff: "done = true"}},
			want: Failure{Reason: Unreachable, Action: "Never", Precondition: "1 > 2", Expansions: 1,
				Detail: "the precondition of \"Never\" never holds"}},
		{name: "a cycle", goal: "done", maxDepth: 10,
			acts: []tAct{{name: "Finish", pre: "p", eff: "done = true"}, {name: "MakeP", pre: "q", eff: "p = true"},
				{name: "MakeQ", pre: "p", eff: "q = true"}},
			want: Failure{Reason: CyclicPrecondition, Action: "Finish", Precondition: "p", Expansions: 1,
				Detail: "\"Finish\" needs p, and every action that changes p or q (\"MakeP\" and \"MakeQ\") needs one of them first, so none of them can go first: " +
					"give p or q a starting value that lets the chain begin, or add an action (or a sensor) that changes one of them without needing any"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newSearcher(lower(t, vars, tc.goal, tc.acts...))
			if tc.budget > 0 {
				p.Budget = tc.budget
			}
			got := explainOf(p, tc.maxDepth)
			require.NotNil(t, got)
			assert.Equal(t, tc.want, *got)
		})
	}
}

func TestExplainSaysWhenEveryCandidateIsLeftOut(t *testing.T) {
	p := newSearcher(lower(t, []tVar{{"done", boolean(false)}}, "done",
		tAct{name: "A", eff: "done = true"}, tAct{name: "B", eff: "done = true"}))
	p.Skip = []bool{true, true}
	got := explainOf(p, 10)
	require.NotNil(t, got)
	assert.Equal(t, Failure{Reason: Unreachable, Expansions: 1,
		Detail: "every action that could reach the goal is left out (backed off after a failure, or not permitted)"}, *got)

	p.Skip = []bool{true, false}
	assert.Nil(t, explainOf(p, 10), "one left is enough")
}

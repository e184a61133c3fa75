package goap

import (
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hashProblem has many slots (so that actions update their children's
// hashes) of every kind that search states tell apart: booleans, numbers
// moved by steps, a string location and a number read only by kind.
func hashProblem(t *testing.T) *Problem {
	var vars []tVar
	var acts []tAct
	for i := range 12 {
		vars = append(vars, tVar{"f" + strconv.Itoa(i), boolean(i == 0)})
	}
	vars = append(vars, tVar{"n", num(0)}, tVar{"k", num(3)}, tVar{"loc", Value(expr.StringValue("a"))})
	for i := range 11 {
		f, g := "f"+strconv.Itoa(i), "f"+strconv.Itoa(i+1)
		acts = append(acts, tAct{name: "step" + strconv.Itoa(i), pre: f, eff: f + " = false, " + g + " = true"})
	}
	acts = append(acts,
		tAct{name: "count", pre: "n < 3", eff: "n = n + k"},
		tAct{name: "go_b", pre: `loc == "a"`, eff: `loc = "b"`},
		tAct{name: "go_a", pre: `loc == "b"`, eff: `loc = "a"`},
	)
	return lower(t, vars, `f11 && n > 2 && loc == "b"`, acts...)
}

// TestChildHashesAreTheirStatesHashes checks that a child's hash, updated
// from its parent's for the assigned slots alone, is the hash of its whole
// state, for every node of a search.
func TestChildHashesAreTheirStatesHashes(t *testing.T) {
	pr := hashProblem(t)
	p := newSearcher(pr)
	p.GeneralOnly = true // the hashes of the general search
	names, _, res, _ := planOf(p, pr.Initial, 20)
	require.Equal(t, Found, res)
	assert.Equal(t, 13, len(names), names)
	gs := p.gs
	require.True(t, gs.additive, "some action must update its children's hashes")
	var whole []string
	for i := range gs.acts {
		if !gs.acts[i].incHash {
			whole = append(whole, pr.Actions[gs.acts[i].index].Name)
		}
	}
	// Every action assigns at most 2 of the 15 hashed slots; count's
	// effect (n = n + k) is not of a flat shape, so its children hash whole.
	assert.Equal(t, []string{"count"}, whole)
	require.Greater(t, len(p.nodes), 20)
	for i := range p.nodes {
		st := p.nodeState(int32(i))
		assert.Equal(t, p.hashState(st), p.nodes[i].hash, "node %d", i)
	}
}

// TestAnEffectAssigningASlotTwiceHashesItsChildWhole: an action that
// assigns n twice (the second wins) among many hashed slots: its
// children's hashes are computed from their whole state, and every
// node's hash is its state's.
func TestAnEffectAssigningASlotTwiceHashesItsChildWhole(t *testing.T) {
	pr := hashProblem(t)
	twice, err := expr.CompileEffect("n = n + 5, n = n + 1", pr.Schema)
	require.NoError(t, err)
	pr.Actions = append(pr.Actions, Action{Name: "twice", Index: len(pr.Actions), Pre: pr.Actions[len(pr.Actions)-3].Pre, Effects: twice, Cost: 1})
	p := newSearcher(pr)
	p.GeneralOnly = true
	_, _, res, _ := planOf(p, pr.Initial, 20)
	require.Equal(t, Found, res)
	gs := p.gs
	for i := range gs.acts {
		if pr.Actions[gs.acts[i].index].Name == "twice" {
			assert.False(t, gs.acts[i].incHash, "twice assigns n twice")
		}
	}
	for i := range p.nodes {
		assert.Equal(t, p.hashState(p.nodeState(int32(i))), p.nodes[i].hash, "node %d", i)
	}
}

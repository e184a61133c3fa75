package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hashDomain has many slots (so that actions update their children's
// hashes) of every kind that search states tell apart: booleans, numbers
// moved by steps, a string location and a number read only by kind.
func hashDomain() RoleSpec {
	var state []Var
	var acts []ActionSpec
	for i := range 12 {
		state = append(state, Var{Name: "f" + strconv.Itoa(i), Value: BoolValue(i == 0)})
	}
	state = append(state, Var{Name: "n", Value: NumberValue(0)}, Var{Name: "k", Value: NumberValue(3)},
		Var{Name: "loc", Value: StringValue("a")})
	for i := range 11 {
		f, g := "f"+strconv.Itoa(i), "f"+strconv.Itoa(i+1)
		acts = append(acts, NewAction("step"+strconv.Itoa(i)).Pre(f).Effects(f+" = false, "+g+" = true").Spec())
	}
	acts = append(acts,
		NewAction("count").Pre("n < 3").Effects("n = n + k").Spec(),
		NewAction("go_b").Pre(`loc == "a"`).Effects(`loc = "b"`).Spec(),
		NewAction("go_a").Pre(`loc == "b"`).Effects(`loc = "a"`).Spec(),
	)
	return RoleSpec{Name: "Hash", State: state, Actions: acts,
		Goals: []GoalSpec{NewGoal("end", `f11 && n > 2 && loc == "b"`, Normal)}}
}

// TestChildHashesAreTheirStatesHashes checks that a child's hash, updated
// from its parent's for the assigned slots alone, is the hash of its whole
// state, for every node of a search.
func TestChildHashesAreTheirStatesHashes(t *testing.T) {
	d, err := Compile(hashDomain())
	require.NoError(t, err)
	pl := NewPlanner(d)
	pl.MaxDepth = 20
	pl.s.GeneralOnly = true // the hashes of the general search
	p, err := pl.Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, 13, len(p.Steps), strings.Join(p.Names(), " "))
	gs := pl.s.Last()
	require.True(t, gs.Additive(), "some action must update its children's hashes")
	var whole []string
	for _, ai := range gs.WholeHashActions() {
		whole = append(whole, d.Actions[ai].Name)
	}
	// Every action assigns at most 2 of the 15 hashed slots; count's
	// effect (n = n + k) is not of a flat shape, so its children hash whole.
	assert.Equal(t, []string{"count"}, whole)
	require.Greater(t, pl.s.NumNodes(), 20)
	for i := range int32(pl.s.NumNodes()) {
		assert.Equal(t, pl.s.NodeStateHash(i), pl.s.NodeHash(i), "node %d", i)
	}
}

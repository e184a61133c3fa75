package engine

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlatTestsGiveConditionEval checks every flattened test form (the
// number and string comparisons that skip the generic compare, bare and
// negated variables) against Condition.Eval on values of every kind,
// Unknown, NaN, infinities and signed zeros among them.
func TestFlatTestsGiveConditionEval(t *testing.T) {
	sc := NewSchema("x")
	values := []Value{{}, NilValue(), BoolValue(true), BoolValue(false), StringValue(""), StringValue("a"), StringValue("b"),
		NumberValue(0), NumberValue(math.Copysign(0, -1)), NumberValue(1), NumberValue(-1), NumberValue(2.5),
		NumberValue(math.Inf(1)), NumberValue(math.Inf(-1)), NumberValue(math.NaN())}
	lits := []string{"0", "-0", "1", "-1", "2.5", `"a"`, `""`, "true", "false", "nil"}
	var srcs []string
	for _, op := range []string{"==", "!=", "<", "<=", ">", ">="} {
		for _, lit := range lits {
			srcs = append(srcs, "x "+op+" "+lit)
		}
	}
	srcs = append(srcs, "x", "!x")
	for _, src := range srcs {
		c, err := CompileCondition(src, sc)
		if err != nil {
			continue // an operator the language refuses for that literal
		}
		fc := flatCond(c)
		require.Nil(t, fc.slow, src)
		require.Len(t, fc.tests, 1, src)
		for _, v := range values {
			st := State{v}
			assert.Equal(t, c.Eval(st), fc.eval(st), "%s with x = %v", src, v)
		}
	}
}

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
	pl.generalOnly = true // the hashes of the general search
	p, err := pl.Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, 13, len(p.Steps), strings.Join(p.Names(), " "))
	gs := pl.gs
	require.True(t, gs.additive, "some action must update its children's hashes")
	var whole []string
	for i := range gs.acts {
		if !gs.acts[i].incHash {
			whole = append(whole, d.Actions[gs.acts[i].index].Name)
		}
	}
	// Every action assigns at most 2 of the 15 hashed slots; count's
	// effect (n = n + k) is not of a flat shape, so its children hash whole.
	assert.Equal(t, []string{"count"}, whole)
	require.Greater(t, len(pl.nodes), 20)
	for i := range pl.nodes {
		st := pl.nodeState(int32(i))
		assert.Equal(t, pl.hashState(st), pl.nodes[i].hash, "node %d", i)
	}
}

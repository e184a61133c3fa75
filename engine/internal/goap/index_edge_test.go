package goap

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestTheLastActionOfAFullIndexWordIsACandidate: 64 actions filed under a
// location each fill the index's one word; at a state where the last of
// them is the only candidate, the general search tries it and stops
// looking past the word.
func TestTheLastActionOfAFullIndexWordIsACandidate(t *testing.T) {
	var acts []tAct
	for i := range 64 {
		acts = append(acts, tAct{
			name: "go" + strconv.Itoa(i+1),
			pre:  `loc == "s` + strconv.Itoa(i) + `"`,
			eff:  `loc = "s` + strconv.Itoa(i+1) + `"`,
		})
	}
	pr := lower(t, []tVar{{"loc", Value(expr.StringValue("s62"))}}, `loc == "s64"`, acts...)
	p := newSearcher(pr)
	p.GeneralOnly = true
	gs := p.GoalSearch(pr.Goals[0])
	require.NotNil(t, gs.index, "64 actions filed under the location")
	require.Equal(t, 1, gs.index.words)
	names, cost, res, expansions := planOf(p, pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, []string{"go63", "go64"}, names)
	assert.Equal(t, 2.0, cost)
	assert.Equal(t, 2, expansions)
}

package goap

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestACheaperButDeeperDuplicateKeepsTheShallowerPath: p = 3 is reached
// first by three cheap steps (A A A, cost 3, depth 3), then by a jump and
// a step (D A, cost 5, depth 2). From p = 3 the goal needs two more steps,
// so within a depth of 4 only the shallower, costlier path fits: the
// search must keep both nodes of the same state, or it fails with
// MaxDepthExceeded. Both searches (general and word) follow the rule.
func TestACheaperButDeeperDuplicateKeepsTheShallowerPath(t *testing.T) {
	pr := lower(t, []tVar{{"p", num(0)}}, "p >= 5",
		tAct{name: "A", pre: "p < 3", eff: "p = p + 1"},
		tAct{name: "D", pre: "p == 0", eff: "p = 2", cost: 4},
		tAct{name: "E", pre: "p >= 3", eff: "p = p + 1"})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 4)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"D", "A", "E", "E"}, names, "general only: %v", general)
		assert.Equal(t, 7.0, cost, "general only: %v", general)

		// With room for the cheap path, it wins.
		names, cost, res, _ = planOf(p, pr.Initial, 5)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"A", "A", "A", "E", "E"}, names, "general only: %v", general)
		assert.Equal(t, 5.0, cost, "general only: %v", general)
	}
}

// TestStatesWhoseHashesCollideStayApart: the duplicate table compares the
// states of nodes whose hashes are equal value by value, so two states
// with the same 64-bit hash (given here by hand; the search's hashes
// rarely collide) are two entries, and only a node of the same state
// is settled against the first.
func TestStatesWhoseHashesCollideStayApart(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}, {"m", num(0)}}, "n >= 3 && m >= 1",
		tAct{name: "up", eff: "n = n + 1"},
		tAct{name: "side", eff: "m = m + 1"})
	p := newSearcher(pr)
	p.GeneralOnly = true
	gs := p.searchGoal(pr.Goals[0])
	require.Equal(t, []int{0, 1}, gs.full, "n and m are compared by value")
	p.resetSearch(gs, 10)
	p.nodes = p.nodes[:0]
	add := func(g float64, n, m float64) int32 {
		i := p.newNode(-1, -1, g, 0)
		copy(p.nodeState(i), State{num(n), num(m)})
		p.nodes[i].hash = 42
		return i
	}
	first := add(0, 1, 0)
	require.True(t, p.record(first))
	assert.True(t, p.record(add(1, 2, 0)), "n = 2 is another state than n = 1, though its hash is the same")
	assert.True(t, p.record(add(1, 1, 1)), "m = 1 is another state than m = 0, though its hash is the same")
	assert.False(t, p.record(add(2, 1, 0)), "a dearer path to the first state is dropped")
	assert.False(t, p.nodes[first].dead)
}

// TestWordRowsWhoseHashesCollideStayApart is
// TestStatesWhoseHashesCollideStayApart for the word search's table, with
// rows of a few words (compared in one dense pass) and of more than
// maxDense words (compared word by word).
func TestWordRowsWhoseHashesCollideStayApart(t *testing.T) {
	for _, k := range []int{2, maxDense + 2} {
		var vars []tVar
		var reads []string
		for i := range k {
			name := "n" + strconv.Itoa(i)
			vars = append(vars, tVar{name, num(0)})
			reads = append(reads, name+" >= 0")
		}
		pr := lower(t, vars, "n0 >= 3 && n1 >= 1",
			tAct{name: "up", eff: "n0 = n0 + 1"},
			tAct{name: "side", pre: strings.Join(reads, " && "), eff: "n1 = n1 + 1"})
		p := newSearcher(pr)
		_, _, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res)
		require.True(t, p.wmode, "%d words", k)
		ws := p.gs.words
		require.Len(t, ws.slots, k)
		require.Equal(t, k <= maxDense, ws.dense)
		p.resetTable()
		p.nodes, p.heap = p.nodes[:0], p.heap[:0]
		add := func(g float64, n0, n1 float64) (int32, []uint64) {
			i := int32(len(p.nodes))
			p.growWordSearch(1)
			p.nodes = append(p.nodes, node{g: g, hash: 42})
			st := pr.Initial.Clone()
			st[0], st[1] = num(n0), num(n1)
			row := p.wordState(i)
			require.True(t, ws.load(row, st))
			return i, row
		}
		record := func(g float64, n0, n1 float64) bool {
			i, row := add(g, n0, n1)
			return p.recordWords(i, row, 42)
		}
		require.True(t, record(0, 1, 0))
		assert.True(t, record(1, 2, 0), "%d words: n0 = 2 is another row than n0 = 1, though its hash is the same", k)
		assert.True(t, record(1, 1, 1), "%d words: n1 = 1 is another row than n1 = 0, though its hash is the same", k)
		assert.False(t, record(2, 1, 0), "%d words: a dearer path to the first row is dropped", k)
	}
}

package goap

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// (every a below 2^32, d from 2 up) and on a spread of values between.
func TestDivMagicDividesExactly(t *testing.T) {
	ds := []int64{2, 3, 5, 7, 10, 20, 50, 1 << 16, 65537, 1<<30 - 1, 1 << 30, 1<<32 - 1}
	as := []uint64{0, 1, 2, 9, 10, 11, 49, 50, 51, 1<<16 - 1, 1 << 16, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for i := uint64(0); i < 2000; i++ {
		as = append(as, i*2147483647%(1<<32))
	}
	for _, d := range ds {
		m := divMagic(d)
		for _, a := range as {
			q, _ := bits.Mul64(m, a)
			require.Equal(t, a/uint64(d), q, "%d / %d", a, d)
		}
	}
}

// TestWordSearchTakesTheBenchDomains checks which goals compile to words:
// the ones of fixed kinds do; slow shapes, fractions, kind changes and
// start values that do not fit fall back.
func TestWordSearchTakesTheBenchDomains(t *testing.T) {
	vars := []tVar{{"n", num(0)}, {"loc", expr.StringValue("a")}, {"b", boolean(false)}}
	compile := func(goal string, acts ...tAct) (*Problem, *GoalSearch) {
		pr := lower(t, vars, goal, acts...)
		return pr, newSearcher(pr).searchGoal(pr.Goals[0])
	}
	_, gs := compile(`n > 3 && loc == "b"`, tAct{name: "inc", eff: "n = n + 2"},
		tAct{name: "go", pre: "!b", eff: `loc = "b", b = true`})
	require.NotNil(t, gs.words, "numbers, a string and a boolean")
	assert.Len(t, gs.words.slots, 3)

	_, gs = compile("n > 3", tAct{name: "half", eff: "n = n + 0.5"})
	assert.Nil(t, gs.words, "a fractional step")
	_, gs = compile("n > 3", tAct{name: "set", eff: `n = "x"`})
	assert.Nil(t, gs.words, "an assignment that changes the kind")
	_, gs = compile("n > 3 || b", tAct{name: "inc", eff: "n = n + 1"})
	assert.Nil(t, gs.words, "a goal that is not a conjunction of flat tests")

	// A start state of other kinds or values runs the general search.
	pr, _ := compile("n > 3", tAct{name: "inc", eff: "n = n + 1"})
	for _, v := range []Value{num(0.5), expr.StringValue("x"), {}} {
		st := pr.Initial.Clone()
		st[0] = v
		p := newSearcher(pr)
		_, _, _, _ = planOf(p, st, 10)
		assert.False(t, p.wmode, "start n = %v", v)
	}
	p := newSearcher(pr)
	end, res, _, _ := p.Search(p.searchGoal(pr.Goals[0]), pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.True(t, p.wmode)
	assert.Equal(t, 4, p.EndDepth(end))
	after := pr.Initial.Clone()
	p.StoreEnd(end, after)
	assert.Equal(t, num(4), after[0], "the state after the plan, read back from words")
}

// TestWordLoadTakesTheNumbersNumberWordTakes checks load's short path for
// searches of numbers only against numberWord, at the edges: fractions,
// -0, NaN, infinities, maxWordNumber and past it.
func TestWordLoadTakesTheNumbersNumberWordTakes(t *testing.T) {
	pr := lower(t, []tVar{{"a", num(0)}, {"b", num(0)}}, "a > 3 && b > 1", tAct{name: "inc", eff: "a = a + 1, b = b + 1"})
	ws := newSearcher(pr).searchGoal(pr.Goals[0]).words
	require.NotNil(t, ws)
	require.True(t, ws.nums, "two numbers")
	for _, f := range []float64{0, 7, -7, 0.5, -2.5, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		maxWordNumber, -maxWordNumber, maxWordNumber + 1, -maxWordNumber - 1, 1 << 62, -(1 << 63), 1e300} {
		want, wantOK := numberWord(f)
		for slot := range 2 {
			st := pr.Initial.Clone()
			st[1-slot] = num(3)
			st[slot] = num(f)
			dst := make([]uint64, 2)
			ok := ws.load(dst, st)
			require.Equal(t, wantOK, ok, "%v in slot %d", f, slot)
			if ok {
				assert.Equal(t, want, dst[slotWord(ws, slot)], "%v in slot %d", f, slot)
			}
		}
	}
	st := pr.Initial.Clone()
	st[1] = boolean(true)
	assert.False(t, ws.load(make([]uint64, 2), st), "a bool where a number was")
}

// slotWord returns the word of schema slot s in ws.
func slotWord(ws *wordSearch, s int) int {
	for i, x := range ws.slots {
		if x == s {
			return i
		}
	}
	return -1
}

// TestWordChildHashesAreTheirRowsHashes checks the sum hash of a word
// search without dense passes: every node's hash, updated from its
// parent's for the assigned words alone, is the hash of its whole row.
func TestWordChildHashesAreTheirRowsHashes(t *testing.T) {
	var vars []tVar
	var acts []tAct
	for i := range 20 {
		vars = append(vars, tVar{"f" + strconv.Itoa(i), boolean(i == 0)})
	}
	vars = append(vars, tVar{"n", num(0)})
	for i := range 19 {
		f, g := "f"+strconv.Itoa(i), "f"+strconv.Itoa(i+1)
		acts = append(acts, tAct{name: "step" + strconv.Itoa(i), pre: f, eff: f + " = false, " + g + " = true"},
			tAct{name: "back" + strconv.Itoa(i), pre: g + " && n < 3", eff: g + " = false, " + f + " = true, n = n + 1"})
	}
	pr := lower(t, vars, "f19", acts...)
	p := newSearcher(pr)
	names, _, res, _ := planOf(p, pr.Initial, 30)
	require.Equal(t, Found, res)
	assert.Len(t, names, 19)
	ws := p.gs.words
	require.NotNil(t, ws)
	require.True(t, p.wmode)
	require.False(t, ws.dense, "21 words: no dense passes")
	requireRowHashes(t, p, ws, 19)
}

// TestDenseChildHashesAreTheirRowsHashes checks the hash a dense pass
// computes as it builds a child against hashWords of the child's row.
func TestDenseChildHashesAreTheirRowsHashes(t *testing.T) {
	pr := lower(t, []tVar{{"hunger", num(80)}, {"food", num(0)}, {"tired", num(0)}, {"home", boolean(false)}}, "food > 80",
		tAct{name: "Eat", pre: "food > 0", eff: "hunger = hunger - 50, food = food - 5"},
		tAct{name: "Forage", pre: "tired < 50", eff: "tired = tired + 20, food = food + 10, hunger = hunger + 5"},
		tAct{name: "Sleep", pre: "tired > 30", eff: "tired = tired - 50, home = true"},
		tAct{name: "Share", pre: "home", eff: "food = hunger, home = false"})
	p := newSearcher(pr)
	_, _, res, _ := planOf(p, pr.Initial, 20)
	require.Equal(t, Found, res)
	ws := p.gs.words
	require.NotNil(t, ws)
	require.True(t, p.wmode)
	require.True(t, ws.dense)
	moves := 0
	for i := range ws.acts {
		moves += len(ws.acts[i].moves)
	}
	require.Equal(t, 1, moves, "Share copies hunger into food")
	requireRowHashes(t, p, ws, 12)
}

// requireRowHashes checks that every node of p's last word search but the
// goal nodes of finishing steps, more than least, has its row's hash.
func requireRowHashes(t *testing.T, p *Searcher, ws *wordSearch, least int) {
	require.Greater(t, len(p.nodes), least)
	for i := range p.nodes {
		if p.nodes[i].done {
			continue
		}
		assert.Equal(t, hashWords(ws, p.wordState(int32(i))), p.nodes[i].hash, "node %d", i)
	}
}

// TestSmallRowHashesAreTheirRowsHashes checks the hash of rows of at most
// 4 words, the root's computed on its 4 lanes, against hashWords.
func TestSmallRowHashesAreTheirRowsHashes(t *testing.T) {
	pr := lower(t, []tVar{{"ammo", num(0)}, {"magazines", num(0)}, {"loc", Value(expr.StringValue("a"))}, {"safe", boolean(false)}},
		`ammo > 10 && loc == "b" && safe`,
		tAct{name: "hide", eff: "safe = true"},
		tAct{name: "fetch", eff: "magazines = magazines + 1"},
		tAct{name: "go", pre: `loc == "a"`, eff: `loc = "b"`},
		tAct{name: "back", pre: `loc == "b"`, eff: `loc = "a"`},
		tAct{name: "reload", pre: "magazines > 0", eff: "ammo = 30, magazines = magazines - 1"})
	p := newSearcher(pr)
	names, _, res, _ := planOf(p, pr.Initial, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, []string{"hide", "fetch", "go", "reload"}, names)
	ws := p.gs.words
	require.NotNil(t, ws)
	require.True(t, p.wmode)
	require.True(t, ws.small, "4 words")
	require.Equal(t, 4, p.gs.NumWords())
	requireRowHashes(t, p, ws, 3)

	// From a start where every word is set (no lane of the root's hash is
	// 0), the plan is one reload, and every node has its row's hash.
	st := pr.Initial.Clone()
	for name, v := range map[string]Value{"ammo": num(5), "magazines": num(2), "loc": expr.StringValue("b"), "safe": boolean(true)} {
		s, ok := pr.Schema.Lookup(name)
		require.True(t, ok, name)
		st[s] = v
	}
	row := make([]uint64, 4)
	require.True(t, ws.load(row, st))
	for w, v := range row {
		require.NotZero(t, v&ws.full4[w], "word %d", w)
	}
	names, _, res, _ = planOf(p, st, 10)
	require.Equal(t, Found, res)
	assert.Equal(t, []string{"reload"}, names)
	require.True(t, p.wmode)
	requireRowHashes(t, p, ws, 1)
}

// TestWordTestsOfAFractionHoldAsTheConditionSays: an integer word never
// equals 2.5 and always differs from it, so "n == 2.5" never holds in the
// word search and "n != 2.5" always does, as in the general search.
func TestWordTestsOfAFractionHoldAsTheConditionSays(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}}, "n >= 3",
		tAct{name: "shortcut", pre: "n == 2.5", eff: "n = n + 3"},
		tAct{name: "up", pre: "n != 2.5", eff: "n = n + 1", cost: 2})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, !general, p.wmode)
		assert.Equal(t, []string{"up", "up", "up"}, names, "general only: %v", general)
		assert.Equal(t, 6.0, cost, "general only: %v", general)
	}
}

// TestACopyInARowOfFiveWordsIsAStep: in a row of more than 4 words (one
// dense pass, not the 4-lane one), an action whose only effect is a copy
// from another word makes a child, as in the general search.
func TestACopyInARowOfFiveWordsIsAStep(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}, {"m", num(5)}, {"a", num(0)}, {"b", num(0)}, {"c", num(0)}}, "n >= 5",
		tAct{name: "up", pre: "a >= 0 && b >= 0 && c >= 0", eff: "n = n + 1"},
		tAct{name: "copy", eff: "n = m", cost: 2})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res, "general only: %v", general)
		if !general {
			require.True(t, p.wmode)
			require.Equal(t, 5, p.gs.NumWords())
			require.False(t, p.gs.words.small)
		}
		assert.Equal(t, []string{"copy"}, names, "general only: %v", general)
		assert.Equal(t, 2.0, cost, "general only: %v", general)
	}
}

// TestTheWordSearchCountsStepsOfNearly2To30: steps of 2^30 - 1 toward a
// bound 17 of them away, within a depth of 17: the estimate of each child
// counts its steps exactly (the inline division by multiplying is exact
// only below 2^32; past it the estimate divides), so no child is cut.
func TestTheWordSearchCountsStepsOfNearly2To30(t *testing.T) {
	const step = 1<<30 - 1
	pr := lower(t, []tVar{{"n", num(0)}}, "n >= "+strconv.FormatInt(17*step, 10),
		tAct{name: "up", eff: "n = n + " + strconv.Itoa(step)})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, _, res, exp := planOf(p, pr.Initial, 17)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, !general, p.wmode)
		assert.Len(t, names, 17)
		assert.Equal(t, 17, exp)
	}
}

// TestAWordSearchPastSeveralRehashesFindsItsDuplicates: a walk on a grid
// whose estimate counts only the longer of two distances reaches
// thousands of states, most of them by several paths: past every growth
// of the duplicate table, the word search still finds each state's
// earlier path, so it expands as many states as the general search.
func TestAWordSearchPastSeveralRehashesFindsItsDuplicates(t *testing.T) {
	pr := lower(t, []tVar{{"x", num(0)}, {"y", num(0)}}, "x >= 30 && y >= 30",
		tAct{name: "right", eff: "x = x + 1"},
		tAct{name: "left", pre: "x > -30", eff: "x = x - 1"},
		tAct{name: "up", eff: "y = y + 1"},
		tAct{name: "down", pre: "y > -30", eff: "y = y - 1"})
	var want []int
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, exp := planOf(p, pr.Initial, 80)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, !general, p.wmode)
		assert.Equal(t, 60.0, cost, "general only: %v", general)
		assert.Len(t, names, 60)
		require.Greater(t, len(p.nodes), 2048, "general only: %v", general)
		want = append(want, exp)
	}
	assert.Equal(t, want[0], want[1], "the expansions of the general and the word search")
}

// TestTheWordSearchCountsRestorersOfNearly2To30: a forage that needs a
// tool (which the estimate does not count) and tired <= 0, from tired =
// 16 pulls of 2^30 - 1: after the tool, the estimate counts the 16 sleeps
// exactly (past 2^32 it divides, not multiplies), so the plan of 18 steps
// that takes the tool first (the first in declaration order of the
// cheapest) fits a depth of 18.
func TestTheWordSearchCountsRestorersOfNearly2To30(t *testing.T) {
	const back = 1<<30 - 1
	pr := lower(t, []tVar{{"food", num(0)}, {"tired", num(16 * back)}, {"tool", boolean(false)}}, "food > 5",
		tAct{name: "GetTool", pre: "!tool", eff: "tool = true"},
		tAct{name: "Forage", pre: "tired <= 0 && tool", eff: "food = food + 10, tired = tired + 20"},
		tAct{name: "Sleep", eff: "tired = tired - " + strconv.Itoa(back), cost: 2})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, cost, res, _ := planOf(p, pr.Initial, 18)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, !general, p.wmode)
		want := []string{"GetTool"}
		for range 16 {
			want = append(want, "Sleep")
		}
		assert.Equal(t, append(want, "Forage"), names, "general only: %v", general)
		assert.Equal(t, 34.0, cost)
	}
}

// TestTheWordEstimateIsTheGeneralOne compares the word search's estimate
// (HeuristicWords, the one of the start and of atoms the loop does not
// estimate inline) with the general one, cost and steps, over a grid of
// states of forage domains: food moved toward a goal by steps that need
// tired under a bound, sleeps that bring tired back (by 1 or more, at a
// cost of 1 or more), the bound loose or strict, whole or not (then the
// count is in floats), tired the first word or not; and a count past
// 2^32.
func TestTheWordEstimateIsTheGeneralOne(t *testing.T) {
	type forageCase struct {
		goal, pre, eff, sleep string
		forageCost, sleepCost float64
		tiredFirst            bool
	}
	cases := []forageCase{
		{"food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired = tired - 50", 1, 2, false},
		{"food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired = tired - 50", 3, 2, true},
		{"food >= 40", "tired <= 50", "food = food + 1, tired = tired + 7", "tired = tired - 1", 2, 3, false},
		{"food >= 40", "tired < 50", "food = food + 3, tired = tired + 7", "tired = tired - 1", 1, 1, true},
		{"food < -40", "tired > -30", "food = food - 2, tired = tired - 5", "tired = tired + 1", 1, 2, false},
		{"food > 80", "tired < 49.5", "food = food + 10, tired = tired + 20", "tired = tired - 50", 1, 2, false},
		// The goal reads tired first, so tired is the first word.
		{"tired < 100000 && food > 80", "tired < 49.5", "food = food + 10, tired = tired + 20", "tired = tired - 50", 1, 2, true},
		{"tired < 100000 && food > 80", "tired < 50", "food = food + 10, tired = tired + 20", "tired = tired - 50", 2, 2, true},
	}
	// tired on a grid, and past 2^31 (sleeps of 1 from there take more
	// steps than an int32 holds).
	var tireds []float64
	for tv := -70; tv <= 130; tv += 9 {
		tireds = append(tireds, float64(tv))
	}
	tireds = append(tireds, 2147483000, 3000000000)
	compared := 0
	for _, c := range cases {
		food, tired := tVar{"food", num(0)}, tVar{"tired", num(0)}
		vars := []tVar{food, tired}
		if c.tiredFirst {
			vars = []tVar{tired, food}
		}
		pr := lower(t, vars, c.goal,
			tAct{name: "Forage", pre: c.pre, eff: c.eff, cost: c.forageCost},
			tAct{name: "Sleep", eff: c.sleep, cost: c.sleepCost})
		p := newSearcher(pr)
		gs := p.GoalSearch(pr.Goals[0])
		require.True(t, gs.HasWords(), "%+v", c)
		require.NotNil(t, gs.atoms[len(gs.atoms)-1].res, "%+v: tired is the forages' resource", c)
		fs, ts := 0, 1 // food's and tired's slots
		if c.tiredFirst {
			fs, ts = 1, 0
		}
		row := make([]uint64, gs.NumWords())
		for f := -60; f <= 100; f += 7 {
			for _, tv := range tireds {
				st := pr.Initial.Clone()
				st[fs], st[ts] = num(float64(f)), num(tv)
				require.True(t, gs.LoadWords(row, st))
				h, s := p.Heuristic(gs, st)
				hw, sw := p.HeuristicWords(gs, row)
				require.Equal(t, h, hw, "%+v: cost from food %d, tired %v", c, f, tv)
				require.Equal(t, s, sw, "%+v: steps from food %d, tired %v", c, f, tv)
				compared++
			}
		}
	}
	assert.Equal(t, len(cases)*23*len(tireds), compared)

	// A count of steps past 2^32 (the division in 64 bits).
	pr := lower(t, []tVar{{"n", num(0)}}, "n >= 4294967301", tAct{name: "up", eff: "n = n + 1"})
	p := newSearcher(pr)
	gs := p.GoalSearch(pr.Goals[0])
	row := make([]uint64, gs.NumWords())
	require.True(t, gs.LoadWords(row, pr.Initial))
	h, s := p.Heuristic(gs, pr.Initial)
	hw, sw := p.HeuristicWords(gs, row)
	assert.Equal(t, int32(math.MaxInt32), s, "the steps' cap")
	assert.Equal(t, h, hw)
	assert.Equal(t, s, sw)
}

// TestASumOfAnotherWordInALongRowIsAStep: in a row of more words than
// one dense pass takes, n = m + 3 writes m's word plus 3, as in the
// general search.
func TestASumOfAnotherWordInALongRowIsAStep(t *testing.T) {
	vars := []tVar{{"n", num(0)}, {"m", num(5)}}
	var reads []string
	for i := range maxDense {
		name := "x" + strconv.Itoa(i)
		vars = append(vars, tVar{name, num(0)})
		reads = append(reads, name+" >= 0")
	}
	pr := lower(t, vars, "n >= 8",
		tAct{name: "up", pre: strings.Join(reads, " && "), eff: "n = n + 1"},
		tAct{name: "jump", eff: "n = m + 3", cost: 2})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, _, res, _ := planOf(p, pr.Initial, 10)
		require.Equal(t, Found, res, "general only: %v", general)
		if !general {
			require.True(t, p.wmode)
			require.False(t, p.gs.words.dense, "more than maxDense words")
		}
		assert.Equal(t, []string{"jump"}, names, "general only: %v", general)
	}
}

// TestAStartStringThatNoLiteralNamesRunsTheWordSearch: the strings of
// the start can be words too, not only those the conditions and effects
// write.
func TestAStartStringThatNoLiteralNamesRunsTheWordSearch(t *testing.T) {
	pr := lower(t, []tVar{{"loc", expr.StringValue("home")}, {"n", num(0)}}, `loc == "b" && n >= 1`,
		tAct{name: "go", eff: `loc = "b"`},
		tAct{name: "up", eff: "n = n + 1"})
	p := newSearcher(pr)
	names, _, res, _ := planOf(p, pr.Initial, 5)
	require.Equal(t, Found, res)
	assert.Equal(t, []string{"go", "up"}, names)
	assert.True(t, p.wmode, `"home" is a word`)
}

// TestAnIndexOnARowOfOneBooleanWord: nine actions filed under one
// boolean, the row's only word (no string to index): the word search
// plans as the general one.
func TestAnIndexOnARowOfOneBooleanWord(t *testing.T) {
	var acts []tAct
	for i := range 9 {
		acts = append(acts, tAct{name: "drop" + strconv.Itoa(i), pre: "b", eff: "b = false", cost: 2})
	}
	acts = append(acts, tAct{name: "set", eff: "b = true", cost: 5})
	pr := lower(t, []tVar{{"b", boolean(true)}}, "!b", acts...)
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, _, res, _ := planOf(p, pr.Initial, 5)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"drop0"}, names, "general only: %v", general)
		if !general {
			require.True(t, p.wmode)
			require.NotNil(t, p.gs.index)
			require.Equal(t, 1, p.nw)
		}
	}
}

// TestAFractionalBoundInARowOfOneWord: n > 2.5 counts its steps in
// floats (not whole), from the row's one word, with no resource.
func TestAFractionalBoundInARowOfOneWord(t *testing.T) {
	pr := lower(t, []tVar{{"n", num(0)}}, "n > 2.5", tAct{name: "up", eff: "n = n + 1"})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, _, res, exp := planOf(p, pr.Initial, 5)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"up", "up", "up"}, names, "general only: %v", general)
		assert.Equal(t, 3, exp, "general only: %v", general)
		if !general {
			require.True(t, p.wmode)
			require.Equal(t, 1, p.nw)
			require.False(t, p.gs.words.atoms[0].exact)
		}
	}
}

// TestANumberTestOfAStringWord: n holds a string, so "n < 5" never holds
// and "n != 5" always does, in the word search as in the general one.
func TestANumberTestOfAStringWord(t *testing.T) {
	pr := lower(t, []tVar{{"n", expr.StringValue("x")}, {"m", num(0)}}, "m >= 2",
		tAct{name: "shortcut", pre: "n < 5", eff: "m = m + 2"},
		tAct{name: "up", pre: "n != 5", eff: "m = m + 1", cost: 2})
	for _, general := range []bool{true, false} {
		p := newSearcher(pr)
		p.GeneralOnly = general
		names, _, res, _ := planOf(p, pr.Initial, 5)
		require.Equal(t, Found, res, "general only: %v", general)
		assert.Equal(t, []string{"up", "up"}, names, "general only: %v", general)
		assert.Equal(t, !general, p.wmode)
	}
}

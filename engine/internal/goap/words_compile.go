package goap

import (
	"maps"
	"math"
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// The word search's compiler: a goal's analysis turned into words (see
// words.go), in phases.

// compileWords returns gs compiled to words for the kinds of d's initial
// state, or nil when it does not fit. It runs in phases: the layout of
// the words, the goal condition, the actions, their dense passes, the
// heuristic's atoms and the index.
func compileWords(d *Problem, gs *GoalSearch) *wordSearch {
	ws, wordOf := layoutWords(d, gs)
	if ws == nil || len(ws.slots) == 0 {
		return nil // no word: the conditions' first tests read word 0
	}
	// The strings of the initial state and of every literal can appear.
	for i, s := range ws.slots {
		if ws.kinds[i] == expr.String {
			str, _ := d.Initial[s].AsString()
			ws.intern(str)
		}
	}
	var ok bool
	if ws.cond, ok = ws.compileCond(&gs.cond, wordOf); !ok {
		return nil
	}
	if !ws.compileActs(gs, wordOf) {
		return nil
	}
	ws.all = make([]uint64, (len(ws.acts)+63)/64)
	for i := range ws.acts {
		ws.all[i/64] |= 1 << (i % 64)
	}
	if len(ws.slots) <= maxDense {
		ws.compileDense()
	}
	if !ws.compileAtoms(gs, wordOf) || !ws.compileIndex(gs, wordOf) {
		return nil
	}
	ws.nums = !slices.ContainsFunc(ws.kinds, func(k expr.Kind) bool { return k != expr.Number })
	return ws
}

// layoutWords gives a word to every slot the search reads or writes: the
// goal's variables, the relevant actions' and the compared slots; nil
// when one holds no number, boolean or string in the initial state, or
// an action's condition or effect is not flat. wordOf maps a slot to its
// word, -1 for none.
func layoutWords(d *Problem, gs *GoalSearch) (ws *wordSearch, wordOf []int32) {
	wordOf = make([]int32, d.Schema.Len())
	for i := range wordOf {
		wordOf[i] = -1
	}
	ws = &wordSearch{ids: map[string]uint64{}, strWord: -1}
	init := d.Initial
	add := func(s int) bool {
		if wordOf[s] >= 0 {
			return true
		}
		if s >= len(init) {
			return false
		}
		k := init[s].Kind()
		if k != expr.Number && k != expr.Bool && k != expr.String {
			return false
		}
		wordOf[s] = int32(len(ws.slots))
		ws.slots = append(ws.slots, s)
		ws.minLen = max(ws.minLen, s+1)
		ws.kinds = append(ws.kinds, k)
		return true
	}
	addAll := func(slots []int) bool {
		for _, s := range slots {
			if !add(s) {
				return false
			}
		}
		return true
	}
	if !addAll(gs.goal.Condition.Reads()) {
		return nil, nil
	}
	for i := range gs.acts {
		pa := &gs.acts[i]
		if pa.pre.slow != nil || pa.eff.slow != nil || !addAll(d.Actions[pa.index].Pre.Reads()) {
			return nil, nil
		}
		for j := range pa.eff.as {
			as := &pa.eff.as[j]
			if !add(as.slot) || as.kind != assignLit && !add(as.src) {
				return nil, nil
			}
		}
	}
	for _, s := range gs.full {
		if wordOf[s] < 0 && !add(s) {
			return nil, nil
		}
		ws.hashed = append(ws.hashed, wordOf[s])
	}
	if !addAll(gs.kinds) {
		return nil, nil
	}
	return ws, wordOf
}

// compileActs compiles each relevant action's precondition and
// assignments; false when one does not fit (a kind would change, a step
// that is no integer within maxWordStep, a variable assigned twice).
func (ws *wordSearch) compileActs(gs *GoalSearch, wordOf []int32) bool {
	ws.acts = make([]wordAct, len(gs.acts))
	for i := range gs.acts {
		pa := &gs.acts[i]
		wa := &ws.acts[i]
		wa.index, wa.cost, wa.once, wa.mayLoop, wa.finishes = pa.index, pa.cost, pa.once, pa.mayLoop, pa.finishes
		var ok bool
		if wa.pre, ok = ws.compileCond(&pa.pre, wordOf); !ok {
			return false
		}
		for j := range pa.eff.as {
			w, ok := ws.compileAssign(&pa.eff.as[j], wordOf)
			if !ok {
				return false
			}
			for _, o := range wa.as {
				if o.w == w.w {
					return false // a variable assigned twice
				}
			}
			wa.as = append(wa.as, w)
		}
	}
	return true
}

// compileAssign compiles one flat assignment; false when it would change
// its target's kind or adds a step that is no integer within
// maxWordStep.
func (ws *wordSearch) compileAssign(as *fastAssign, wordOf []int32) (wordAssign, bool) {
	w := wordAssign{op: as.kind, full: as.role == slotFull, w: wordOf[as.slot]}
	if as.kind != assignLit {
		w.src = wordOf[as.src]
	}
	tk := ws.kinds[w.w]
	switch as.kind {
	case assignLit:
		if as.lit.Kind() != tk {
			return w, false // the kind would change
		}
		var ok bool
		w.k, ok = ws.literal(as.lit)
		return w, ok
	case assignCopy:
		return w, ws.kinds[w.src] == tk
	}
	if tk != expr.Number || ws.kinds[w.src] != expr.Number || !(math.Abs(as.k) <= maxWordStep) || as.k != math.Trunc(as.k) {
		return w, false
	}
	w.k = uint64(int64(as.k))
	return w, true
}

// compileDense makes every action's effect one dense pass over the words
// (see wordAct.dense), and the 4-lane form for rows of at most 4 words.
func (ws *wordSearch) compileDense() {
	nw := len(ws.slots)
	ws.dense = true
	ws.full = make([]uint64, nw)
	for _, w := range ws.hashed {
		ws.full[w] = ^uint64(0)
	}
	ws.small = nw <= 4
	copy(ws.full4[:], ws.full)
	for i, f := range ws.full4 {
		ws.mul4[i] = f & laneMul[i]
	}
	for i := range ws.acts {
		wa := &ws.acts[i]
		wa.dense = make([]maskVal, nw)
		for j := range wa.dense {
			wa.dense[j].mask = ^uint64(0)
		}
		for _, as := range wa.as {
			switch {
			case as.op == assignLit:
				wa.dense[as.w] = maskVal{0, as.k}
			case as.op == assignAdd && as.src == as.w:
				wa.dense[as.w] = maskVal{^uint64(0), as.k}
			default:
				wa.moves = append(wa.moves, as)
			}
		}
		for j := range wa.d4.mask {
			wa.d4.mask[j] = ^uint64(0)
			if j < nw {
				wa.d4.mask[j], wa.d4.val[j] = wa.dense[j].mask, wa.dense[j].val
			}
		}
	}
}

// compileAtoms compiles the goal's conjuncts for the heuristic; false
// when one reads a variable without a word.
func (ws *wordSearch) compileAtoms(gs *GoalSearch, wordOf []int32) bool {
	ws.atoms = make([]wordAtom, len(gs.atoms))
	for i := range gs.atoms {
		at := &gs.atoms[i]
		wa := &ws.atoms[i]
		wa.w, wa.rw, wa.plain = -1, -1, at.plain
		ok := false
		if at.numeric {
			ok = ws.compileNumericAtom(at, wa, wordOf)
		} else {
			ok = ws.compileTestAtom(at, wa, wordOf)
		}
		if !ok {
			return false
		}
	}
	return true
}

// compileTestAtom compiles a conjunct that is not numeric: its test and,
// when it has one, its relaxed estimate.
func (ws *wordSearch) compileTestAtom(at *atom, wa *wordAtom, wordOf []int32) bool {
	var ok bool
	if wa.test, ok = ws.compileCond(&at.test, wordOf); !ok {
		return false
	}
	r := at.rel
	if r == nil {
		return true
	}
	// The costs are relaxedBound's, so the estimate is a scan.
	wa.relW = make([]int32, 0, len(r.facts)+1)
	wa.relFree, _ = relaxedBound(r.free, at.minCost)
	if w := wordOf[at.node.Slot()]; w >= 0 && ws.kinds[w] == expr.Bool {
		// The atom's own fact: it holds when its word is 1.
		wa.relW, wa.relC = append(wa.relW, w), append(wa.relC, 0)
	}
	for _, f := range r.facts {
		w := wordOf[f.slot]
		if w < 0 {
			return false
		}
		if ws.kinds[w] == expr.Bool {
			c, _ := relaxedBound(f.cost, at.minCost)
			wa.relW = append(wa.relW, w)
			wa.relC = append(wa.relC, c)
		}
	}
	return true
}

// compileNumericAtom compiles a numeric conjunct: its word and its
// resource's, and, when it counts in integers, the constants of the
// integer estimate (see wordAtom).
func (ws *wordSearch) compileNumericAtom(at *atom, wa *wordAtom, wordOf []int32) bool {
	if w := wordOf[at.slot]; w >= 0 && ws.kinds[w] == expr.Number {
		wa.w = w
	} else if w < 0 {
		return false
	}
	if r := at.res; r != nil {
		w := wordOf[r.slot]
		if w < 0 {
			return false
		}
		if ws.kinds[w] == expr.Number {
			wa.rw = w
		}
	}
	if !at.exact || at.res != nil && !(at.res.exact && wa.rw >= 0) || wa.w < 0 {
		return true
	}
	wa.exact, wa.lit, wa.step, wa.cost = true, int64(at.lit), at.istep, at.cost
	wa.sgn, wa.thr, wa.off = -1, 1, at.istep-1
	if at.up {
		wa.sgn = 1
	}
	if at.strict {
		wa.thr, wa.off = 0, at.istep
	}
	if r := at.res; r != nil {
		wa.hasRes, wa.rsign, wa.rlim, wa.rstep, wa.rback = true, int64(r.sign), int64(r.lim), int64(r.step), int64(r.back)
		wa.backCost = r.backCost
		wa.rthr, wa.roff = 1, wa.rback-1
		if r.strict {
			wa.rthr, wa.roff = 0, wa.rback
		}
	}
	// The loop's inline estimate divides by multiplying (divMagic).
	if wa.step >= 2 && (!wa.hasRes || wa.rback >= 2) {
		wa.fast, wa.stepM = true, divMagic(wa.step)
		if wa.hasRes {
			wa.rbackM = divMagic(wa.rback)
		}
	}
	return true
}

// compileIndex puts the goal's index (GoalSearch.index) on words: the word
// of each bool slot and the sets by string id; false when an indexed slot
// has no word.
func (ws *wordSearch) compileIndex(gs *GoalSearch, wordOf []int32) bool {
	ix := gs.index
	if ix == nil {
		return true
	}
	for _, s := range ix.boolSlots {
		w := wordOf[s]
		if w >= 0 && ws.kinds[w] != expr.Bool {
			w = -1
		} else if w < 0 {
			return false
		}
		ws.boolWords = append(ws.boolWords, w)
	}
	if ix.byString == nil {
		return true
	}
	w := wordOf[ix.strSlot]
	if w < 0 {
		return false
	}
	if ws.kinds[w] != expr.String {
		return true
	}
	ws.strWord = w
	// In sorted order, so a string's id (and so the hash table's layout)
	// is the same in every run.
	for _, str := range slices.Sorted(maps.Keys(ix.byString)) {
		set := ix.byString[str]
		id := ws.intern(str)
		for int(id) >= len(ws.byID) {
			ws.byID = append(ws.byID, nil)
		}
		ws.byID[id] = set
	}
	return true
}

func (ws *wordSearch) intern(s string) uint64 {
	if id, ok := ws.ids[s]; ok {
		return id
	}
	id := uint64(len(ws.strs))
	ws.strs = append(ws.strs, expr.StringValue(s))
	ws.ids[s] = id
	return id
}

// literal returns the word of a literal of an assignment or a test.
func (ws *wordSearch) literal(v Value) (uint64, bool) {
	switch v.Kind() {
	case expr.Number:
		f, _ := v.AsNumber()
		return numberWord(f)
	case expr.Bool:
		if v.Truthy() {
			return 1, true
		}
		return 0, true
	case expr.String:
		s, _ := v.AsString()
		return ws.intern(s), true
	}
	return 0, false
}

// numberWord returns the word of a number a word search can hold: an
// integer, not -0 (the general search tells it from 0 by its bits), at
// most maxWordNumber in magnitude.
func numberWord(f float64) (uint64, bool) {
	if !(math.Abs(f) <= maxWordNumber) || math.Float64bits(f) == 1<<63 {
		return 0, false
	}
	i := int64(f) // exact for an integer within maxWordNumber
	if float64(i) != f {
		return 0, false
	}
	return uint64(i), true
}

// compileCond compiles a flattened condition; false when it has another
// shape or a test the words cannot take.
func (ws *wordSearch) compileCond(c *fastCond, wordOf []int32) (wordCond, bool) {
	if c.slow != nil {
		return wordCond{}, false
	}
	var tests []wordTest
	allNever := false
	for i := range c.tests {
		t := &c.tests[i]
		w := wordOf[t.slot]
		if w < 0 {
			return wordCond{}, false
		}
		k := ws.kinds[w]
		// always: the test holds for every value of the kind; never: for none.
		always, never := false, false
		var wt wordTest
		switch t.ev {
		case testVar:
			if k == expr.Bool {
				wt, never = wordRange(w, 1, 1)
			} else {
				never = true
			}
		case testNotVar:
			if k == expr.Bool {
				wt, never = wordRange(w, 0, 0)
			} else {
				always = true
			}
		case evNumEq, evNumNe, evNumLt, evNumLe, evNumGt, evNumGe:
			if k != expr.Number {
				always, never = t.ev == evNumNe, t.ev != evNumNe
				break
			}
			wt, always, never = numberRange(w, t.ev, t.num)
		case evStrEq:
			if k != expr.String {
				never = true
				break
			}
			id := int64(ws.intern(t.str))
			wt, never = wordRange(w, id, id)
		default:
			// A generic compare: exact on booleans from its truth table
			// over the two values; strings and numbers are not taken.
			if k != expr.Bool {
				return wordCond{}, false
			}
			r0 := t.op.Compare(expr.BoolValue(false), t.lit)
			r1 := t.op.Compare(expr.BoolValue(true), t.lit)
			switch {
			case r0 && r1:
				always = true
			case !r0 && !r1:
				never = true
			case r1:
				wt, never = wordRange(w, 1, 1)
			default:
				wt, never = wordRange(w, 0, 0)
			}
		}
		switch {
		case never:
			allNever = true
		case !always:
			tests = append(tests, wt)
		}
	}
	return newWordCond(tests, allNever), true
}

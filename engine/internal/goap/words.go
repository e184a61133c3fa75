package goap

import (
	"math"
	"math/bits"
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// The word search: a goal's search compiled, at analysis, for the common
// domains whose variables keep one kind during a search (numbers, booleans,
// strings). A search state is then a flat row of 64-bit words, one per
// variable the search reads or writes: a number as an int64, 0 or 1 for a
// boolean, an intern id for a string. Numbers are integers: the literals
// an effect assigns and the steps it adds must be, and so must the start
// state's numbers (else the general search runs). Every precondition and
// goal test is a compare of one word with a constant range, every
// assignment a write of a constant, a copy or an addition of a constant. It runs the same A* as the
// general search (the same candidates in the same order, the same
// heuristic values, the same duplicate rule and the same open-set order),
// so it returns the same plan, cost, expansions and failure; only the
// representation differs. A goal the compiler cannot take (a condition or
// effect of another shape, a variable without a fixed kind, no variable at
// all), or a start state whose values do not fit (another kind, a number
// that is not an integer within 2^40, a string neither the domain's
// literals nor its initial state name), runs the general search.

// wordSearch is a goal's search compiled to words (see above).
type wordSearch struct {
	slots  []int       // the schema slot of each word
	minLen int         // the shortest start state load takes: the highest slot + 1
	kinds  []expr.Kind // the kind each word's variable holds: Number, Bool or String
	nums   bool        // every word holds a number: load's short path
	hashed []int32     // the words compared by value (GoalSearch.full)
	all    []uint64    // the set of every action (positions in acts)
	dense  bool        // effects run as dense passes (wordAct.dense)
	full   []uint64    // with dense: all ones for a word compared by value, else 0
	small  bool        // dense with at most 4 words: 4-lane passes (wordAct.d4, full4)
	full4  [4]uint64   // with small: full, 0 past the row
	mul4   [4]uint64   // with small: full4[i] & laneMul[i], so w*mul4[i] is w&full4[i]*laneMul[i]
	strs   []Value     // intern id -> string Value
	ids    map[string]uint64

	cond  wordCond   // the goal condition
	acts  []wordAct  // parallel to GoalSearch.acts
	atoms []wordAtom // parallel to GoalSearch.atoms

	// The index (GoalSearch.index) on words: the word of each bool slot
	// (-1 when it does not hold a boolean: never true), and the sets by
	// string id of the string slot's word (strWord -1 when none).
	boolWords []int32
	strWord   int32
	byID      [][]uint64
}

// wordTest is one test of a word: whether it lies in the range lo..hi
// (as an int64), or outside it when out. Every flat test on a variable of
// a fixed kind is one: numbers are integers (x < 2.5 is x <= 2), a
// boolean or a string id equal to a constant is the range of one word.
type wordTest struct {
	w    int32
	out  bool
	lo   int64
	span uint64 // hi - lo
}

func (t *wordTest) holds(st []uint64) bool {
	return (uint64(int64(st[t.w])-t.lo) <= t.span) != t.out
}

// wordRange returns the test that word w is in lo..hi; lo > hi never holds
// (never is then true).
func wordRange(w int32, lo, hi int64) (t wordTest, never bool) {
	if lo > hi {
		return wordTest{}, true
	}
	return wordTest{w: w, lo: lo, span: uint64(hi - lo)}, false
}

// The bounds of an int64 range for a number test: beyond ±2^60 every
// word-search number (below 2^42 in magnitude) is on one side.
const wordBound = 1 << 60

// clampInt returns f (an integer-valued float) as an int64 clamped to
// ±wordBound.
func clampInt(f float64) int64 {
	switch {
	case f > wordBound:
		return wordBound
	case f < -wordBound:
		return -wordBound
	}
	return int64(f)
}

// numberRange returns the test "x op f" on the integer word w: the range
// of integers x for which it holds, or always / never.
func numberRange(w int32, op uint8, f float64) (t wordTest, always, never bool) {
	if f != f { // NaN: only != holds
		return wordTest{}, op == evNumNe, op != evNumNe
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch op {
	case evNumLt: // x <= ceil(f) - 1
		hi = clampInt(math.Ceil(f)) - 1
	case evNumLe:
		hi = clampInt(math.Floor(f))
	case evNumGt:
		lo = clampInt(math.Floor(f)) + 1
	case evNumGe:
		lo = clampInt(math.Ceil(f))
	case evNumEq, evNumNe:
		if f != math.Trunc(f) || math.Abs(f) > wordBound {
			return wordTest{}, op == evNumNe, op == evNumEq
		}
		lo, hi = int64(f), int64(f)
	}
	t, never = wordRange(w, lo, hi)
	t.out = op == evNumNe
	return t, false, never
}

// wordCond is a conjunction of word tests, the first kept apart so that
// the common condition of one test is one compare with no loop. Without
// tests, first is a test that always holds; when a test can never hold (a
// test of a variable of another kind), first is one that never holds and
// rest is empty.
type wordCond struct {
	first wordTest
	rest  []wordTest
}

// The tests of word 0 that always and never hold: every uint64 lies
// within a span of all ones. The search's rows have at least one word.
var (
	alwaysTest = wordTest{lo: math.MinInt64, span: math.MaxUint64}
	neverTest  = wordTest{lo: math.MinInt64, span: math.MaxUint64, out: true}
)

// newWordCond returns the conjunction of tests, or one that never holds.
func newWordCond(tests []wordTest, never bool) wordCond {
	switch {
	case never:
		return wordCond{first: neverTest}
	case len(tests) == 0:
		return wordCond{first: alwaysTest}
	}
	return wordCond{first: tests[0], rest: tests[1:]}
}

func (c *wordCond) eval(st []uint64) bool {
	if !c.first.holds(st) {
		return false
	}
	for i := range c.rest {
		if !c.rest[i].holds(st) {
			return false
		}
	}
	return true
}

// wordAssign is one assignment on words.
type wordAssign struct {
	op     uint8 // assignLit, assignCopy, assignAdd
	full   bool  // the target is compared by value (slotFull)
	w, src int32
	k      uint64 // the literal's word, or the step of an addition as an int64
}

// applyMoves writes into the child row chs the moves of an action (copies
// and additions from the parent row cs) and returns the bits of the
// compared words (full) they changed: zero when they changed none.
func applyMoves(moves []wordAssign, cs, chs, full []uint64) (diff uint64) {
	for i := range moves {
		as := &moves[i]
		v := cs[as.src]
		if as.op == assignAdd {
			v = uint64(int64(v) + int64(as.k))
		}
		chs[as.w] = v
		diff |= (v ^ cs[as.w]) & full[as.w]
	}
	return diff
}

// wordAct is a relevant action on words, with the planAction fields the
// expansion reads.
type wordAct struct {
	pre wordCond
	as  []wordAssign
	// With ws.dense, the effect as one pass over the words: word i of a
	// child is parent&mask + val (an addition to itself: mask all ones,
	// val the step; a literal: mask 0, val the literal), then the
	// assignments of moves (a copy or an addition from another word).
	dense []maskVal
	// d4 is dense on 4 lanes for rows of at most 4 words (ws.small): a
	// lane past the row copies the word it reads (mask all ones, val 0).
	d4                      dense4
	moves                   []wordAssign
	index                   int32
	cost                    float64
	once, mayLoop, finishes bool
}

type maskVal struct{ mask, val uint64 }

type dense4 struct{ mask, val [4]uint64 }

// laneMul are the multipliers of the lane hash of rows of at most 4 words
// (hashWords, and the 4-lane pass of searchLoopWords): a lane past the row
// is masked to 0 and adds nothing.
var laneMul = [4]uint64{mixA, mixB, 0xd6e8feb86659fd93, 0x94d049bb133111eb}

// maxDense is the most words for which effects run as one dense pass.
const maxDense = 16

// wordAtom is a goal conjunct on words, for the heuristic.
type wordAtom struct {
	test  wordCond // for a non-numeric atom
	plain bool     // atom.plain: the estimate is 0 when test holds, else minCost
	// For a numeric atom: its variable's word, or -1 when the variable
	// holds no number (the estimate is then minCost, 1 step); the
	// resource's word likewise.
	w, rw int32
	// exact says the atom counts in integers (atom.exact, and so does its
	// resource if any): estimateWords then counts in int64 what estimate
	// counts in its integer branch, with the same results.
	exact          bool
	sgn, lit       int64 // need = sgn * (lit - x): sgn 1 for > and >=, -1 for < and <=
	thr, off, step int64 // the atom holds when need < thr; n = (need + off) / step
	cost           float64
	rsign, rlim    int64 // the resource likewise (see resource.restorers)
	rstep, rback   int64
	rthr, roff     int64
	hasRes         bool
	// fast: exact with step >= 2 and (no resource or rback >= 2); stepM and
	// rbackM are their divMagic, for the inline estimate of searchLoopWords.
	fast          bool
	stepM, rbackM uint64
	backCost      float64
	// The atom's relaxed estimate (see relaxed), nil relW without one:
	// the words of its facts that hold booleans (the others are never
	// true), cheapest first after the atom's own word (cost 0), relC
	// their estimates (relaxedBound of their costs), relFree free's.
	relW    []int32
	relC    []float64
	relFree float64
}

// maxWordNumber bounds the numbers a word search starts from and assigns,
// maxWordStep the steps it adds: after 256 steps (MaxMaxDepth) a number
// stays below 2^41, exact as a float64, and the heuristic's counts stay
// in the range where the general search counts exactly in integers too.
const (
	maxWordNumber = 1 << 40
	maxWordStep   = 1 << 30
)

// load writes start into dst as words and reports whether it fits (see
// the word search above).
func (ws *wordSearch) load(dst []uint64, start State) bool {
	if len(start) < ws.minLen {
		return false
	}
	dst = dst[:len(ws.slots)]
	if ws.nums {
		// numberWord in one test: an integer (NaN and numbers past int64
		// convert to one that differs) within maxWordNumber, not -0.
		for i, s := range ws.slots {
			f, ok := start[s].AsNumber()
			w := int64(f)
			if !ok || float64(w) != f || uint64(w+maxWordNumber) > 2*maxWordNumber || math.Float64bits(f) == 1<<63 {
				return false
			}
			dst[i] = uint64(w)
		}
		return true
	}
	kinds := ws.kinds[:len(ws.slots)]
	for i, s := range ws.slots {
		v := &start[s]
		k := v.Kind()
		if k != kinds[i] {
			return false
		}
		switch k {
		case expr.Number:
			f, _ := v.AsNumber()
			w, ok := numberWord(f)
			if !ok {
				return false
			}
			dst[i] = w
		case expr.Bool:
			dst[i] = 0
			if v.Truthy() {
				dst[i] = 1
			}
		default:
			str, _ := v.AsString()
			id, ok := ws.ids[str]
			if !ok {
				return false
			}
			dst[i] = id
		}
	}
	return true
}

// store writes the words of src back into st.
func (ws *wordSearch) store(st State, src []uint64) {
	for i, s := range ws.slots {
		switch ws.kinds[i] {
		case expr.Number:
			st[s] = expr.NumberValue(float64(int64(src[i])))
		case expr.Bool:
			st[s] = expr.BoolValue(src[i] != 0)
		default:
			st[s] = ws.strs[src[i]]
		}
	}
}

// wordState returns node i's words.
func (p *Searcher) wordState(i int32) []uint64 {
	o := int(i) * p.nw
	return p.words[o : o+p.nw : o+p.nw]
}

// searchLoopWords is searchLoop on words, with the expansion (expand on
// words: expandBy for each candidate action) in the same loop.
func (p *Searcher) searchLoopWords(gs *GoalSearch, ws *wordSearch, expansions int, cut bool, pauseAt int) (int32, Outcome, bool, int) {
	nw := p.nw
	acts := ws.acts
	maxDepth := p.maxDepth
	L := &p.loop
	if L.ws != ws {
		L.setGoal(gs, ws)
	}
	L.skip = p.Skip
	// The table changes only by rehash, in the loop, which sets these again.
	L.table, L.gen = p.table, p.gen[:len(p.table)]
	L.mask, L.curGen = uint64(len(L.table)-1), p.curGen
	L.room = p.roomWords()
	L.cut, L.budget, L.pauseAt = cut, p.Budget, pauseAt
	for len(p.heap) > 0 {
		if top := p.heap[0].node; p.nodes[top].done {
			// A goal node (never dead) comes first: the search ends
			// there, so it is taken without the pop.
			return top, Found, L.cut, expansions
		}
		var cur int32
		if len(p.heap) == 1 { // pop, without the call
			cur, p.heap = p.heap[0].node, p.heap[:0]
		} else {
			cur = p.pop()
		}
		cn := &p.nodes[cur]
		if cn.dead {
			continue
		}
		cs := p.wordState(cur)
		if ws.cond.eval(cs) {
			return cur, Found, L.cut, expansions
		}
		if expansions >= L.budget {
			return -1, OverBudget, L.cut, expansions
		}
		if expansions >= L.pauseAt {
			p.push(cur)
			return -1, Paused, L.cut, expansions
		}
		expansions++
		L.atMax = int(cn.depth) >= maxDepth
		// Room for a child per action (a node, an open entry and a row).
		if len(p.nodes)+len(acts) > L.room {
			p.growWordSearch(len(acts))
			L.room = p.roomWords()
			cn, cs = &p.nodes[cur], p.wordState(cur)
		}
		words := p.words
		var p4 *[4]uint64
		if L.small {
			p4 = (*[4]uint64)(words[int(cur)*nw : int(cur)*nw+4])
		}
		cand := ws.all
		if L.index != nil {
			cand = p.candidatesWords(gs, ws, cs)
		}
		L.cg, L.ckey, L.chash, L.cdepth = cn.g, cn.key, cn.hash, cn.depth
		L.keyOn = int(L.cdepth) < p.keySteps
		L.keyShift = 64 - uint(p.keyBits)*uint(L.cdepth+1)
		skip := L.skip
		for wi, set := range cand {
			for ; set != 0; set &= set - 1 {
				a := &acts[wi*64+bits.TrailingZeros64(set)]
				ai := a.index
				if skip != nil && skip[ai] {
					continue // Exclude or forbidden by the Policy
				}
				if !a.pre.eval(cs) {
					continue
				}
				if a.once && p.onPath(cur, ai) {
					continue // can_rerun = false: once per plan
				}
				p.held[ai] = L.curGen
				if L.atMax {
					L.cut = true
					continue
				}
				// The child is built in the next free row of the arena; its
				// node is added only once it is worth keeping.
				child := int32(len(p.nodes))
				o := int(child) * nw
				var chs []uint64
				var hash uint64
				if L.small {
					// One pass on 4 lanes (the row's words, then words of
					// free rows left as they are): the child's words,
					// whether a compared one changed, and its hash.
					q := (*[4]uint64)(words[o : o+4])
					chs = q[:nw:nw]
					m := &a.d4
					c0, c1, c2, c3 := p4[0]&m.mask[0]+m.val[0], p4[1]&m.mask[1]+m.val[1], p4[2]&m.mask[2]+m.val[2], p4[3]&m.mask[3]+m.val[3]
					q[0], q[1], q[2], q[3] = c0, c1, c2, c3
					if len(a.moves) == 0 {
						if a.mayLoop && (c0^p4[0])&L.f4[0]|(c1^p4[1])&L.f4[1]|(c2^p4[2])&L.f4[2]|(c3^p4[3])&L.f4[3] == 0 {
							continue // a self-loop: the parent dominates it
						}
						hash = hashFinish(c0*L.m4[0] + c1*L.m4[1] + c2*L.m4[2] + c3*L.m4[3])
					} else {
						diff := (c0^p4[0])&L.f4[0] | (c1^p4[1])&L.f4[1] | (c2^p4[2])&L.f4[2] | (c3^p4[3])&L.f4[3]
						diff |= applyMoves(a.moves, cs, chs, L.full)
						if a.mayLoop && diff == 0 {
							continue // a self-loop: the parent dominates it
						}
						// hash 0: hashed below
					}
				} else if chs = words[o : o+nw : o+nw]; ws.dense {
					// One pass: the child's words and whether a compared one
					// changed; hashed later, only the children kept so far
					// (many are cut by the depth limit).
					dense, full := a.dense[:nw], ws.full[:nw]
					var diff uint64
					for i, w := range cs {
						c := w&dense[i].mask + dense[i].val
						chs[i] = c
						diff |= (c ^ w) & full[i]
					}
					if a.mayLoop && diff == 0 && len(a.moves) == 0 {
						continue // a self-loop: the parent dominates it
					}
					diff |= applyMoves(a.moves, cs, chs, full)
					if a.mayLoop && diff == 0 {
						continue // a self-loop: the parent dominates it
					}
				} else if !applyWords(a, cs, chs) {
					continue
				}
				g, depth, key := L.cg+a.cost, L.cdepth+1, L.ckey
				if L.keyOn { // childKey
					key |= uint64(ai+1) << L.keyShift
				}
				// A step that completes the goal makes a goal node: never
				// expanded, so neither estimated nor recorded.
				f, done := g, a.finishes
				if !done {
					var h float64
					var hs int32
					if wa := L.wa0; L.one && wa.fast {
						// estimateWords inline for an exact atom, in the range
						// where its divisions fit 32 bits (the same results:
						// divMagic divides exactly there); else the call.
						need := wa.sgn * (wa.lit - int64(chs[wa.w]))
						slow := true
						if need < wa.thr {
							h, hs, slow = 0, 0, false
						} else if a := uint64(need + wa.off); a < 1<<32 {
							n, _ := bits.Mul64(wa.stepM, a)
							switch {
							case n > 1<<16:
							case !wa.hasRes:
								h, hs, slow = float64(n)*wa.cost, int32(n), false
							default:
								var s uint64
								ny := wa.rsign*int64(chs[wa.rw]) + (int64(n)-1)*wa.rstep - wa.rlim
								if ny >= wa.rthr {
									b := uint64(ny + wa.roff)
									if b >= 1<<32 {
										break
									}
									s, _ = bits.Mul64(wa.rbackM, b)
									if n+s > math.MaxInt32 {
										break
									}
								}
								h, hs, slow = float64(n)*wa.cost+float64(s)*wa.backCost, int32(n+s), false
							}
						}
						if slow {
							h, hs = L.at0.estimateWords(L.wa0, chs)
						}
					} else if L.one && wa.plain {
						// estimateWords inline for a plain atom.
						if !wa.test.eval(chs) {
							h, hs = L.at0.minCost, 1
						}
					} else if L.one {
						h, hs = L.at0.estimateWords(L.wa0, chs)
					} else {
						h, hs = p.heuristicWords(ws, chs)
					}
					if L.one && L.finite && (L.fin < h || hs > 1) { // fin is +Inf or finite
						h, hs = min(h, L.fin), 1 // as heuristicWords
					}
					if math.IsInf(h, 1) {
						continue
					}
					if int(depth)+int(hs) > maxDepth {
						L.cut = true
						continue
					}
					f = g + h
					if hash != 0 {
					} else if ws.dense {
						hash = hashWords(ws, chs)
					} else {
						// The parent's sum of shares with the assigned words' replaced.
						hash = L.chash
						for i := range a.as {
							if as := &a.as[i]; as.full {
								hash += wordShare(as.w, chs[as.w]) - wordShare(as.w, cs[as.w])
							}
						}
					}
				}
				p.nodes = p.nodes[:child+1]
				n := &p.nodes[child]
				n.g, n.f, n.hash, n.key = g, f, hash, key
				n.parent, n.action, n.depth = cur, ai, depth
				n.dead, n.done = false, done
				// recordWords, its first probe inline.
				if done {
				} else if 2*int(child+1) > len(L.table) {
					p.rehash()
					L.table, L.gen = p.table, p.gen[:len(p.table)]
					L.mask = uint64(len(L.table) - 1)
					if !p.recordWords(child, chs, hash) {
						p.nodes = p.nodes[:child]
						continue
					}
				} else if t := hash & L.mask; L.gen[t] != L.curGen {
					L.gen[t], L.table[t] = L.curGen, child
				} else if !p.recordWords(child, chs, hash) {
					p.nodes = p.nodes[:child]
					continue
				}
				// pushEntry inline (room reserved above).
				heap := p.heap[:len(p.heap)+1]
				p.heap = heap
				k := len(heap) - 1
				for k > 0 {
					up := (k - 1) / 2
					u := &heap[up]
					if !(f < u.f || f == u.f && (key < u.key || key == u.key && p.lexLess(child, u.node))) {
						break
					}
					heap[k] = *u
					k = up
				}
				heap[k] = openEntry{f: f, key: key, node: child}
			}
		}
	}
	return -1, Exhausted, L.cut, expansions
}

// wordLoopState is what searchLoopWords reads on every expansion: the
// goal's constants, the search's, and the fields of the node being
// expanded. It lives in the Searcher, so the goal's constants are set
// once while the same goal is searched again, and in memory (a struct of
// more than 4 fields is not kept in registers), which leaves the
// registers to the candidate loop: fewer values to reload where a
// candidate is skipped.
type wordLoopState struct {
	// The goal's constants (setGoal), kept while the word search is ws.
	ws                 *wordSearch
	small, one, finite bool
	f4, m4             *[4]uint64
	at0                *atom
	wa0                *wordAtom
	fin                float64
	full               []uint64
	index              *actionIndex

	// The search's.
	keyOn           bool
	keyShift        uint
	table           []int32
	gen             []uint32
	mask            uint64
	curGen          uint32
	skip            []bool
	room            int // see roomWords
	cut             bool
	budget, pauseAt int
	cg              float64 // the cost of the node being expanded
	ckey, chash     uint64  // its key and hash
	cdepth          int32   // its depth
	atMax           bool    // it is at the depth limit
}

// setGoal sets the constants of the word search ws of goal gs.
func (ls *wordLoopState) setGoal(gs *GoalSearch, ws *wordSearch) {
	ls.ws = ws
	ls.small, ls.f4, ls.m4 = ws.small, &ws.full4, &ws.mul4
	ls.one = len(ws.atoms) == 1
	ls.at0, ls.wa0 = nil, nil
	if ls.one {
		ls.at0, ls.wa0 = &gs.atoms[0], &ws.atoms[0]
	}
	ls.fin = gs.finish
	ls.finite = ls.fin < math.Inf(1)
	ls.full = ws.full
	ls.index = gs.index
}

// roomWords returns the number of nodes the word search can hold without
// growing its buffers: the nodes, the open set and the word arena, with 4
// words past the last row for the 4-lane passes (wordSearch.small). The
// open set never holds more entries than there are nodes (each node is
// pushed once, and once more only after it was taken).
func (p *Searcher) roomWords() int {
	return min(cap(p.nodes), cap(p.heap), (len(p.words)-4)/max(p.nw, 1))
}

// growWordSearch grows the word search's buffers for k more nodes.
func (p *Searcher) growWordSearch(k int) {
	if need := (len(p.nodes)+k)*p.nw + 4; need > len(p.words) {
		p.growWords(need)
	}
	p.nodes = slices.Grow(p.nodes, k)
	p.heap = slices.Grow(p.heap, cap(p.nodes)-len(p.heap))
}

// candidatesWords returns the candidate set of the index at a node whose
// row is cs (see actionIndex.candidates).
func (p *Searcher) candidatesWords(gs *GoalSearch, ws *wordSearch, cs []uint64) []uint64 {
	ix := gs.index
	if len(p.cand) < ix.words {
		p.cand = make([]uint64, ix.words)
	}
	cand := p.cand[:ix.words]
	copy(cand, ix.others)
	for j, w := range ws.boolWords {
		if w >= 0 && cs[w] == 1 {
			orInto(cand, ix.byBool[j])
		}
	}
	if ws.strWord >= 0 {
		if id := cs[ws.strWord]; id < uint64(len(ws.byID)) && ws.byID[id] != nil {
			orInto(cand, ws.byID[id])
		}
	}
	return cand
}

// applyWords builds the child by a from cs in chs, assignment by
// assignment (no dense pass); false when it is a self-loop.
func applyWords(a *wordAct, cs, chs []uint64) bool {
	copy(chs, cs)
	changed := false
	for i := range a.as {
		as := &a.as[i]
		var v uint64
		switch as.op {
		case assignLit:
			v = as.k
		case assignCopy:
			v = cs[as.src]
		default:
			v = uint64(int64(cs[as.src]) + int64(as.k))
		}
		if as.full && v != cs[as.w] {
			changed = true
		}
		chs[as.w] = v
	}
	return !a.mayLoop || changed
}

// heuristicWords is heuristic on words.
func (p *Searcher) heuristicWords(ws *wordSearch, st []uint64) (float64, int32) {
	gs := p.gs
	var h float64
	var steps int32
	if len(ws.atoms) == 1 {
		h, steps = gs.atoms[0].estimateWords(&ws.atoms[0], st)
	} else {
		for i := range ws.atoms {
			c, s := gs.atoms[i].estimateWords(&ws.atoms[i], st)
			if c > h {
				h = c
			}
			if s > steps {
				steps = s
			}
		}
	}
	return gs.capByFinish(h, steps)
}

// estimateWords is estimate on words.
func (a *atom) estimateWords(wa *wordAtom, st []uint64) (float64, int32) {
	if a.plain {
		if wa.test.eval(st) {
			return 0, 0
		}
		return a.minCost, 1
	}
	if !a.numeric {
		// relaxed.estimate on words, with the atom's own fact first (cost
		// 0: the atom holds; every other cost is positive).
		c := wa.relFree
		for i, w := range wa.relW {
			if st[w] == 1 {
				c = wa.relC[i] // the cheapest true fact
				break
			}
		}
		if c == 0 {
			return 0, 0
		}
		return c, 1
	}
	if wa.w < 0 {
		return a.minCost, 1
	}
	x := int64(st[wa.w])
	if wa.exact {
		// need is how far x is from making the atom hold (it holds when
		// need < thr); n = ceil or floor+1 of need/step, as (need+off)/step.
		need := wa.sgn * (wa.lit - x)
		if need < wa.thr {
			return 0, 0
		}
		if wa.step == 0 {
			return math.Inf(1), math.MaxInt32
		}
		if need < 1<<50 {
			n := div(need+wa.off, wa.step)
			if n <= 1<<16 {
				if !wa.hasRes {
					return float64(n) * wa.cost, int32(n)
				}
				// resource.restorers' integer branch, likewise.
				var s int64
				ny := wa.rsign*int64(st[wa.rw]) + (n-1)*wa.rstep - wa.rlim
				switch {
				case ny < wa.rthr:
				case wa.rback == 0:
					return math.Inf(1), math.MaxInt32
				case ny >= 1<<50:
					s = -1
				default:
					s = div(ny+wa.roff, wa.rback)
				}
				if s >= 0 && n+s <= math.MaxInt32 {
					return float64(n)*wa.cost + float64(s)*wa.backCost, int32(n + s)
				}
			}
		}
	}
	var y float64
	if wa.rw >= 0 {
		y = float64(int64(st[wa.rw]))
	}
	return a.estimateAt(float64(x), y, wa.rw >= 0)
}

// divMagic returns the multiplier m for which a / d is the high word of
// m * a for every a < 2^32 (d from 2 to 2^32 - 1): floor((2^64-1)/d) + 1.
func divMagic(d int64) uint64 {
	return ^uint64(0)/uint64(d) + 1
}

// div returns a / b for a >= 0 and b > 0, in 32 bits when they fit (a
// shorter division on most processors).
func div(a, b int64) int64 {
	if uint64(a)|uint64(b) < 1<<32 {
		return int64(uint32(a) / uint32(b))
	}
	return a / b
}

// hashWords hashes the words compared by value.
// Without dense passes it is the sum of one share per word (wordShare),
// so that a child's hash is its parent's with the assigned words' shares
// replaced.
func hashWords(ws *wordSearch, st []uint64) uint64 {
	if !ws.dense {
		var h uint64
		for _, w := range ws.hashed {
			h += wordShare(w, st[w])
		}
		return h
	}
	if ws.small {
		var h uint64
		for i, w := range st {
			h += w * ws.mul4[i]
		}
		return hashFinish(h)
	}
	h := uint64(mixB)
	full := ws.full[:len(st)]
	for i, w := range st {
		h = (h ^ w&full[i]) * mixA
	}
	return hashFinish(h)
}

// hashFinish is the last step of the chained hash of dense rows: the
// table uses the low bits, so the high bits are folded down.
func hashFinish(h uint64) uint64 {
	h ^= h >> 32
	h *= mixB
	return h ^ h>>29
}

// wordShare is the share of word w holding v in a sum hash.
func wordShare(w int32, v uint64) uint64 {
	return finish(uint64(w)*mixA ^ v*mixB)
}

// recordWords is record on words, for node i whose row is st and hash
// hash.
func (p *Searcher) recordWords(i int32, st []uint64, hash uint64) bool {
	if 2*len(p.nodes) > len(p.table) {
		p.rehash()
	}
	ws := p.gs.words
	table, cg := p.table, p.curGen
	gen := p.gen[:len(table)]
	mask := uint64(len(table) - 1)
	nw := p.nw
	for h := hash & mask; ; h = (h + 1) & mask {
		if gen[h] != cg {
			gen[h], table[h] = cg, i
			return true
		}
		o := table[h]
		on := &p.nodes[o]
		if on.hash != hash || !sameWords(ws, p.words[int(o)*nw:int(o)*nw+nw], st) {
			continue
		}
		keep, replace := p.settleDuplicate(o, i)
		if replace {
			table[h] = i
		}
		return keep
	}
}

func sameWords(ws *wordSearch, a, b []uint64) bool {
	if ws.dense {
		full := ws.full[:len(a)]
		b = b[:len(a)]
		for i, w := range a {
			if (w^b[i])&full[i] != 0 {
				return false
			}
		}
		return true
	}
	for _, w := range ws.hashed {
		if a[w] != b[w] {
			return false
		}
	}
	return true
}

// growWords grows the word arena to at least need words.
func (p *Searcher) growWords(need int) {
	nw := make([]uint64, max(need, 2*len(p.words), 64))
	copy(nw, p.words)
	p.words = nw
}

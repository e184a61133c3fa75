package engine

import (
	"math"
	"math/bits"
	"slices"
)

// The tiny word search: searchLoopWords for the goals whose search is
// small enough to take a shorter loop, chosen at analysis (compileTiny).
// Its rows fit the 4 lanes (1 to 4 words), it has at most 64 relevant
// actions (one candidate word), no action index, one goal conjunct and no
// effect that copies or adds from another word. The loop is the same A*
// as searchLoopWords (the same candidates in the same order, the same
// estimates, duplicate rule, open set and pause), so the same plan, cost,
// expansions and failures; it only does less per step:
//   - the left-out actions (Planner.skip) are cleared from the candidate
//     word once per call, not tested per candidate;
//   - the room for one expansion's children (nodes, rows, open set) is one
//     compare against a bound computed when the arrays grow;
//   - tests read the row through its 4 lanes (no bounds checks), the first
//     test of a condition inline, one that can never hold folded into one
//     test that never does;
//   - the non-numeric estimate and the push of a goal node are inline, and
//     an open set of one entry is popped inline.
//
// Plan, not time-sliced and chaining, also skips the layers around it for
// such a goal (loadTiny, planTiny): it loads the start state's row once,
// tests the goal on it (the word search's own goal test, which is exactly
// Goal.Satisfied on a state that loads) and expands the root without
// pushing it on the open set and popping it again. A start state that does
// not load takes the usual way (the general search).

// tinySearch is a goal's word search in the tiny form (see above).
type tinySearch struct {
	acts    []tinyAct // parallel to wordSearch.acts
	goal    tinyCond  // wordSearch.cond
	atom    tinyCond  // the one atom's test when it is not numeric
	numeric bool      // the atom is numeric or has a relaxed estimate: estimateTiny
	// For an atom that is not numeric, its estimate capped by the
	// finishing step (heuristicWords): hHolds, sHolds where its test
	// holds, hUnmet, sUnmet where it does not.
	hHolds, hUnmet float64
	sHolds, sUnmet int32
	// units[d] is the unit of the key field of a step at depth d + 1
	// (childKey: the action's index + 1 times it), for d < keySteps.
	units []uint64
}

// tinyCond is a wordCond with its first test inline: first and then the
// others; an empty condition's first test always holds, and a condition
// that can never hold is one test that never does.
type tinyCond struct {
	first  wordTest
	others []wordTest
}

func (c *tinyCond) holds(r *[4]uint64) bool {
	t := &c.first
	return (uint64(int64(r[t.w&3])-t.lo) <= t.span) != t.out && (len(c.others) == 0 || holds4(c.others, r))
}

// tinyAct is a wordAct with the fields the tiny loop reads.
type tinyAct struct {
	d4                      dense4
	pre                     tinyCond // wordAct.pre
	cost                    float64
	index                   int32
	once, mayLoop, finishes bool
}

// alwaysTest is a test every word passes (every word is in the full
// range), neverTest one no word passes (out inverts it).
var (
	alwaysTest = wordTest{lo: 0, span: math.MaxUint64}
	neverTest  = wordTest{lo: 0, span: math.MaxUint64, out: true}
)

// tinyCondOf returns c as a tinyCond.
func tinyCondOf(c *wordCond) tinyCond {
	switch {
	case c.never:
		return tinyCond{first: neverTest}
	case len(c.tests) == 0:
		return tinyCond{first: alwaysTest}
	}
	return tinyCond{first: c.tests[0], others: c.tests[1:]}
}

// compileTiny returns ws in the tiny form, or nil when gs's search does
// not fit it (see above).
func compileTiny(gs *goalSearch, ws *wordSearch) *tinySearch {
	if !ws.small || len(ws.slots) == 0 || gs.index != nil || len(ws.acts) > 64 || len(ws.atoms) != 1 || len(gs.atoms) != 1 {
		return nil // (no words: tinyRoom divides by the row's width)
	}
	ts := &tinySearch{acts: make([]tinyAct, len(ws.acts)), goal: tinyCondOf(&ws.cond),
		numeric: gs.atoms[0].numeric || gs.atoms[0].rel != nil}
	for d := range gs.keySteps {
		ts.units = append(ts.units, 1<<(64-uint(gs.keyBits)*uint(d+1)))
	}
	for i := range ws.acts {
		wa := &ws.acts[i]
		if len(wa.moves) != 0 {
			return nil
		}
		ts.acts[i] = tinyAct{d4: wa.d4, pre: tinyCondOf(&wa.pre), cost: wa.cost, index: wa.index,
			once: wa.once, mayLoop: wa.mayLoop, finishes: wa.finishes}
	}
	if !ts.numeric {
		ts.atom = tinyCondOf(&ws.atoms[0].test)
		ts.hHolds, ts.sHolds = gs.capByFinish(0, 0)
		ts.hUnmet, ts.sUnmet = gs.capByFinish(gs.atoms[0].minCost, 1)
	}
	return ts
}

// holds4 reports whether every test holds on the row r (its 4 lanes;
// the tests read words below the row's width).
func holds4(tests []wordTest, r *[4]uint64) bool {
	for i := range tests {
		t := &tests[i]
		if (uint64(int64(r[t.w&3])-t.lo) <= t.span) == t.out {
			return false
		}
	}
	return true
}

// tinyRoom returns how many nodes the arrays hold without growing: the
// nodes' capacity, the rows of the word arena (with its 4 spare words)
// and the open set's capacity (it never holds more entries than there
// are nodes).
func (p *Planner) tinyRoom() int {
	return min(cap(p.nodes), (len(p.words)-4)/p.nw, cap(p.heap))
}

// growTiny grows the nodes, the word arena and the open set to hold need
// nodes.
func (p *Planner) growTiny(need int) {
	if need*p.nw+4 > len(p.words) {
		p.growWords(need*p.nw + 4)
	}
	p.nodes = slices.Grow(p.nodes, need-len(p.nodes))
	p.heap = slices.Grow(p.heap, need-len(p.heap))
}

// searchLoopTiny is searchLoopWords for a tiny search (ts; see above).
// With first >= 0 it expands node first before it takes any from the open
// set: the root, not pushed, whose goal test the caller did (planTiny).
func (p *Planner) searchLoopTiny(gs *goalSearch, ws *wordSearch, ts *tinySearch, expansions int, cut bool, pauseAt int, first int32) (int32, outcome, bool, int) {
	budget := p.budget()
	nw := p.nw
	acts := ts.acts
	maxDepth := p.maxDepth
	set0 := ws.all[0]
	if skip := p.skip; skip != nil {
		for i := range acts {
			if skip[acts[i].index] {
				set0 &^= 1 << i // Exclude or forbidden by the Policy
			}
		}
	}
	room := p.tinyRoom()
	for cur := first; ; cur = -1 {
		var cn *node
		if cur < 0 {
			switch heap := p.heap; len(heap) {
			case 0:
				return -1, exhausted, cut, expansions
			case 1: // pop of one or two entries, inline
				cur, p.heap = heap[0].node, heap[:0]
			case 2:
				cur, heap[0], p.heap = heap[0].node, heap[1], heap[:1]
			default:
				cur = p.pop()
			}
			cn = &p.nodes[cur]
			if cn.dead {
				continue
			}
			if cn.done || ts.goal.holds((*[4]uint64)(p.words[int(cur)*nw:int(cur)*nw+4])) {
				return cur, found, cut, expansions
			}
			if expansions >= budget {
				return -1, overBudget, cut, expansions
			}
			if expansions >= pauseAt {
				p.push(cur)
				return -1, paused, cut, expansions
			}
		} else {
			cn = &p.nodes[cur]
		}
		expansions++
		if len(p.nodes)+len(acts) > room {
			p.growTiny(len(p.nodes) + len(acts))
			room = p.tinyRoom()
			cn = &p.nodes[cur]
		}
		words := p.words
		p4 := (*[4]uint64)(words[int(cur)*nw : int(cur)*nw+4])
		cg, cdepth, ckey := cn.g, cn.depth, cn.key
		// childKey: the action's index + 1 times the next free field's
		// unit, 0 past the key's last field.
		var unit uint64
		if units := ts.units; uint(cdepth) < uint(len(units)) {
			unit = units[cdepth]
		}
		for set := set0; set != 0; set &= set - 1 {
			a := &acts[bits.TrailingZeros64(set)]
			if !a.pre.holds(p4) {
				continue
			}
			ai := a.index
			if a.once && p.onPath(cur, ai) {
				continue // can_rerun = false: once per plan
			}
			p.held[ai] = true
			if int(cdepth) >= maxDepth { // at the depth limit
				cut = true
				continue
			}
			// The child in the next free row: one pass on the 4 lanes.
			child := int32(len(p.nodes))
			o := int(child) * nw
			q := (*[4]uint64)(words[o : o+4])
			m, f4 := &a.d4, &ws.full4
			c0, c1, c2, c3 := p4[0]&m.mask[0]+m.val[0], p4[1]&m.mask[1]+m.val[1], p4[2]&m.mask[2]+m.val[2], p4[3]&m.mask[3]+m.val[3]
			q[0], q[1], q[2], q[3] = c0, c1, c2, c3
			if a.mayLoop && (c0^p4[0])&f4[0]|(c1^p4[1])&f4[1]|(c2^p4[2])&f4[2]|(c3^p4[3])&f4[3] == 0 {
				continue // a self-loop: the parent dominates it
			}
			g, depth, key := cg+a.cost, cdepth+1, ckey|uint64(ai+1)*unit
			if a.finishes {
				// The step completes the goal: a goal node, never expanded.
				p.nodes = p.nodes[:child+1]
				p.nodes[child] = node{g: g, f: g, key: key, parent: cur, action: ai, depth: depth, done: true}
				// pushEntry inline (room reserved above).
				heap := p.heap[:len(p.heap)+1]
				p.heap = heap
				k := len(heap) - 1
				for k > 0 {
					up := (k - 1) / 2
					u := &heap[up]
					if !(g < u.f || g == u.f && (key < u.key || key == u.key && p.lexLess(child, u.node))) {
						break
					}
					heap[k] = *u
					k = up
				}
				heap[k] = openEntry{f: g, key: key, node: child}
				continue
			}
			var h float64
			var hs int32
			if !ts.numeric { // the non-numeric estimate inline
				h, hs = ts.hUnmet, ts.sUnmet
				if ts.atom.holds(q) {
					h, hs = ts.hHolds, ts.sHolds
				}
			} else {
				h, hs = p.estimateTiny(gs, ws, q)
			}
			if math.IsInf(h, 1) {
				continue
			}
			if int(depth)+int(hs) > maxDepth {
				cut = true
				continue
			}
			f := g + h
			hash := hashFinish(c0&f4[0]*laneMul[0] + c1&f4[1]*laneMul[1] + c2&f4[2]*laneMul[2] + c3&f4[3]*laneMul[3])
			p.nodes = p.nodes[:child+1]
			n := &p.nodes[child]
			n.g, n.f, n.hash, n.key = g, f, hash, key
			n.parent, n.action, n.depth = cur, ai, depth
			n.dead, n.done = false, false
			// recordWords, its first probe inline.
			if 2*int(child+1) > len(p.table) {
				p.rehash()
			}
			if t := hash & uint64(len(p.table)-1); p.gen[t] != p.curGen {
				p.gen[t], p.table[t] = p.curGen, child
			} else if !p.recordWords(child, q[:nw:nw], hash) {
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

// estimateTiny is heuristicWords for a tiny search's one numeric atom (or
// one with a relaxed estimate, through estimateWords) on the row r:
// estimateWords with its exact case in the range where the divisions fit
// 32 bits (divMagic divides exactly there) inline, then capped by the
// finishing step.
func (p *Planner) estimateTiny(gs *goalSearch, ws *wordSearch, r *[4]uint64) (h float64, hs int32) {
	at, wa := &gs.atoms[0], &ws.atoms[0]
	switch {
	case wa.fast:
		need := wa.sgn * (wa.lit - int64(r[wa.w&3]))
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
				ny := wa.rsign*int64(r[wa.rw&3]) + (int64(n)-1)*wa.rstep - wa.rlim
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
			h, hs = at.estimateWords(wa, r[:p.nw:p.nw])
		}
	default:
		h, hs = at.estimateWords(wa, r[:p.nw:p.nw])
	}
	if fin := gs.finish; fin < math.Inf(1) && (fin < h || hs > 1) {
		h, hs = min(h, fin), 1 // as capByFinish
	}
	return h, hs
}

// planTiny is planGoalSearch for a goal whose search is tiny (gs.tiny),
// chaining and not time-sliced, with Plan's goal test: it loads sim into
// the first row of the word arena and tests the goal there (the word
// search's own goal test, exactly gs.cond on a state that loads); taken
// false says sim does not load (Plan then goes the usual way), and a goal
// that holds is taken with nothing planned. Otherwise searchNew's set-up
// on words, the search from the root without the open set's first push
// and pop, then the steps (or the error) as planGoalSearch.
func (p *Planner) planTiny(gs *goalSearch, sim State, apply bool) (taken bool, err error) {
	ts, ws := gs.tiny, gs.words
	nw := len(ws.slots)
	if nw+4 > len(p.words) {
		p.growWords(nw + 4)
	}
	if !ws.load(p.words[:nw], sim) {
		return false, nil
	}
	r := (*[4]uint64)(p.words[:4])
	if ts.goal.holds(r) {
		return true, nil
	}
	d := p.Domain
	maxDepth := p.depth()
	p.replayed = nil
	p.resetSearch(gs, maxDepth)
	p.wmode = true
	p.nw = nw
	if cap(p.nodes) > 0 { // the root, written in place
		p.nodes = p.nodes[:1]
		p.nodes[0] = node{parent: -1, action: -1}
	} else {
		p.nodes = append(p.nodes[:0], node{parent: -1, action: -1})
	}
	var h float64
	var hs int32
	if !ts.numeric {
		h, hs = ts.hUnmet, ts.sUnmet
		if ts.atom.holds(r) {
			h, hs = ts.hHolds, ts.sHolds
		}
	} else {
		h, hs = p.estimateTiny(gs, ws, r)
	}
	var end int32
	var res outcome
	var cut bool
	var exp int
	switch {
	case math.IsInf(h, 1):
		end, res = -1, deadEnd
	case int(hs) > maxDepth:
		end, res, cut = -1, exhausted, true
	default:
		f := &ws.full4
		hash := hashFinish(r[0]&f[0]*laneMul[0] + r[1]&f[1]*laneMul[1] + r[2]&f[2]*laneMul[2] + r[3]&f[3]*laneMul[3])
		p.nodes[0].f, p.nodes[0].hash = h, hash
		t := hash & uint64(len(p.table)-1)
		p.gen[t], p.table[t] = p.curGen, 0
		end, res, cut, exp = p.searchLoopTiny(gs, ws, ts, 0, false, math.MaxInt, 0)
	}
	p.plan.Expansions += exp
	if res != found {
		err := p.explain(gs, sim, maxDepth, res, cut, exp)
		if p.suspended() {
			return true, errSearchPaused // an explaining search was suspended
		}
		return true, err
	}
	// The steps from the goal node back, as planGoalSearch.
	start := len(p.plan.Steps)
	nodes, acts := p.nodes, d.Actions
	n := int(nodes[end].depth)
	steps := slices.Grow(p.plan.Steps, n)[:start+n]
	for i, k := end, start+n-1; k >= start; i, k = nodes[i].parent, k-1 {
		steps[k] = acts[nodes[i].action]
	}
	p.plan.Steps = steps
	cost := nodes[end].g
	p.plan.Cost += cost
	p.plan.Goals = append(p.plan.Goals, GoalPlan{Goal: gs.goal, Steps: steps[start:len(steps):len(steps)], Cost: cost})
	if apply {
		ws.store(sim, p.wordState(end))
	}
	return true, nil
}

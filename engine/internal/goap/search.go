package goap

import "math"

// node is one search node: the path from the root to it is a plan prefix.
// Its state lives in Planner.states at index*n.
type node struct {
	g, f float64 // cost so far; g plus the heuristic
	hash uint64
	// key packs the path's first steps (action index + 1, first step in
	// the top bits, 0 past the end) so most path comparisons take one
	// integer compare; see lexLess.
	key    uint64
	parent int32
	action int32
	depth  int32
	dead   bool // a node for the same state dominates it; skip when popped
	done   bool // reached by an action that fulfills the goal: a goal node
}

// Outcome is how one search ended.
type Outcome uint8

// The outcomes of a search.
const (
	Found      Outcome = iota
	Exhausted          // no open node left
	OverBudget         // the budget was spent with nodes still open
	DeadEnd            // the heuristic proves the goal can never hold from the start
	Paused             // the slice's budget ran out; the search resumes on the next call (see Slice)
)

// searchGoal prepares the per-goal data of g.
func (p *Searcher) searchGoal(g *Goal) *GoalSearch {
	if p.cacheFor == p.prob && uint(g.Index) < uint(len(p.cache)) {
		if gs := p.cache[g.Index]; gs != nil && gs.goal == g {
			return gs // the common case, before the call
		}
	}
	return p.searchGoalSlow(g)
}

// searchGoalSlow is searchGoal without its cached case: it starts the
// cache anew when the domain changed, then analyses g, caching the result
// unless g is another domain's. searchGoal is too big to inline (cost 96
// of 80), so Plan tests the cache itself before calling this.
func (p *Searcher) searchGoalSlow(g *Goal) *GoalSearch {
	if p.cacheFor != p.prob {
		p.cacheFor = p.prob
		p.cache = make([]*GoalSearch, len(p.prob.Goals))
	}
	if g.Index >= 0 && g.Index < len(p.cache) && p.prob.Goals[g.Index] == g {
		if p.cache[g.Index] == nil {
			p.cache[g.Index] = analyse(p.prob, g)
		}
		return p.cache[g.Index]
	}
	return analyse(p.prob, g) // a goal of another domain: not cached
}

// search is Search.
func (p *Searcher) search(gs *GoalSearch, start State, maxDepth int) (end int32, res Outcome, cut bool, expansions int) {
	return p.Search(gs, start, maxDepth)
}

// resetSearch readies the planner's buffers for a new search of gs within
// maxDepth steps (searchNew): an empty open set and duplicate
// table, and no action held on the path. The caller sets the nodes.
func (p *Searcher) resetSearch(gs *GoalSearch, maxDepth int) {
	d := p.prob
	p.gs = gs
	p.maxDepth = maxDepth
	p.keyBits, p.keySteps = gs.keyBits, gs.keySteps
	p.heap = p.heap[:0]
	p.n = d.Schema.Len()
	if cap(p.held) < len(d.Actions) {
		p.held = make([]uint32, len(d.Actions))
	}
	p.held = p.held[:len(d.Actions)]
	p.resetTable() // a new curGen: no action held
}

// searchNew starts a search for gs from start (see search); it pauses
// (see searchLoop) after pauseAt expansions.
func (p *Searcher) searchNew(gs *GoalSearch, start State, maxDepth, pauseAt int) (end int32, res Outcome, cut bool, expansions int) {
	p.resetSearch(gs, maxDepth)
	p.nodes = p.nodes[:0]

	p.wmode = false
	if ws := gs.words; ws != nil && !p.GeneralOnly {
		p.nw = len(ws.slots)
		if p.nw > len(p.words) {
			p.growWords(p.nw)
		}
		if ws.load(p.words[:p.nw], start) {
			p.wmode = true
			// searchNew on words, without a call.
			root := int32(0)
			rs := p.words[:p.nw:p.nw] // the root's row (wordState)
			var h float64
			var hs int32
			if len(ws.atoms) == 1 { // heuristicWords, without the call
				h, hs = gs.capByFinish(gs.atoms[0].estimateWords(&ws.atoms[0], rs))
			} else {
				h, hs = p.heuristicWords(ws, rs)
			}
			var hash uint64
			if ws.small {
				// hashWords on the 4 lanes (the arena has at least 64 words; a
				// lane past the row adds nothing).
				r, m := (*[4]uint64)(p.words[:4]), &ws.mul4
				hash = hashFinish(r[0]*m[0] + r[1]*m[1] + r[2]*m[2] + r[3]*m[3])
			} else {
				hash = hashWords(ws, rs)
			}
			p.nodes = append(p.nodes, node{f: h, hash: hash, parent: -1, action: -1})
			if math.IsInf(h, 1) {
				return -1, DeadEnd, false, 0
			}
			if int(hs) > maxDepth {
				return -1, Exhausted, true, 0
			}
			// recordWords and push on the empty table and open set searchNew left.
			t := hash & uint64(len(p.table)-1)
			p.gen[t], p.table[t] = p.curGen, root
			p.heap = append(p.heap[:0], openEntry{f: h, node: root})
			return p.searchLoopWords(gs, ws, 0, false, pauseAt)
		}
	}
	root := p.newNode(-1, -1, 0, 0)
	rs := p.nodeState(root)
	copy(rs, start)
	h, hs := p.heuristic(rs)
	if math.IsInf(h, 1) {
		return -1, DeadEnd, false, 0
	}
	if int(hs) > maxDepth {
		return -1, Exhausted, true, 0
	}
	p.nodes[root].f = h
	p.nodes[root].hash = p.hashState(rs)
	p.record(root)
	p.push(root)
	return p.searchLoop(gs, 0, false, pauseAt)
}

// searchLoop runs the A* loop of the search set up by searchNew, which
// has spent expansions so far and was cut or not. It pauses before the
// expansion that would exceed pauseAt: the node taken goes back on the
// open set, everything else stays as it is, and it returns Paused; a later
// call with the same arguments goes on exactly where it stopped (see
// plan_slice.go).
func (p *Searcher) searchLoop(gs *GoalSearch, expansions int, cut bool, pauseAt int) (int32, Outcome, bool, int) {
	if p.wmode {
		return p.searchLoopWords(gs, gs.words, expansions, cut, pauseAt)
	}
	budget := p.Budget
	for len(p.heap) > 0 {
		cur := p.pop()
		if p.nodes[cur].dead {
			continue
		}
		cs := p.nodeState(cur)
		if p.nodes[cur].done || gs.cond.eval(cs) {
			return cur, Found, cut, expansions
		}
		if expansions >= budget {
			return -1, OverBudget, cut, expansions
		}
		if expansions >= pauseAt {
			p.push(cur) // the open set orders nodes totally: the same node comes out first again
			return -1, Paused, cut, expansions
		}
		expansions++
		if p.expand(cur, int(p.nodes[cur].depth) >= p.maxDepth) {
			cut = true
		}
	}
	return -1, Exhausted, cut, expansions
}

// expand adds the children of node cur worth searching; atMax says cur is
// at the depth limit. It reports whether the depth limit cut a successor.
func (p *Searcher) expand(cur int32, atMax bool) (cut bool) {
	gs := p.gs
	// Room for one child per action, so that cur's state stays put.
	if need := (len(p.nodes) + len(gs.acts)) * p.n; need > len(p.states) {
		p.growStates(need)
	}
	cs := p.nodeState(cur)
	// Candidates: every relevant action, or, with an index, those whose
	// indexed test holds and those filed under no test.
	if ix := gs.index; ix != nil {
		if len(p.cand) < ix.words {
			p.cand = make([]uint64, ix.words)
		}
		cand := p.cand[:ix.words]
		ix.candidates(cand, cs)
		for k := nextBit(cand, 0); k >= 0; k = nextBit(cand, k+1) {
			if p.expandBy(cur, cs, &gs.acts[k], atMax) {
				cut = true
			}
		}
		return cut
	}
	for k := range gs.acts {
		if p.expandBy(cur, cs, &gs.acts[k], atMax) {
			cut = true
		}
	}
	return cut
}

// expandBy adds the child of node cur (whose state is cs) by action a,
// when a's precondition holds there and the child is worth searching;
// atMax says cur is at the depth limit. The states arena must have room
// for the child (see expand). It reports whether the depth limit cut a
// successor.
func (p *Searcher) expandBy(cur int32, cs State, a *planAction, atMax bool) (cut bool) {
	ai := a.index
	if p.Skip != nil && p.Skip[ai] {
		return false // Exclude or forbidden by the Policy
	}
	if !a.pre.eval(cs) {
		return false
	}
	if a.once && p.onPath(cur, ai) {
		return false // can_rerun = false: once per plan
	}
	p.held[ai] = p.curGen
	if atMax {
		return true
	}
	if a.mayLoop && a.eff.changesNothing(cs) {
		return false // a self-loop: the parent dominates it
	}
	// The child's state is built in the next free place of the arena; the
	// node is added only once the child is worth keeping.
	child := int32(len(p.nodes))
	o := int(child) * p.n
	chs := p.states[o : o+len(cs) : o+len(cs)]
	copy(chs, cs)
	if !a.eff.apply(chs, cs) {
		return false
	}
	cn := &p.nodes[cur]
	g, depth, key := cn.g+a.cost, cn.depth+1, p.childKey(cn.key, cn.depth, ai)
	if a.finishes {
		// The step completes the goal (it lists the goal in fulfills): a goal node,
		// never expanded, so never merged with an equal state.
		p.nodes = append(p.nodes, node{g: g, f: g, key: key, parent: cur, action: ai, depth: depth, done: true})
		p.push(child)
		return false
	}
	h, hs := p.heuristic(chs)
	if math.IsInf(h, 1) {
		return false
	}
	if int(depth)+int(hs) > p.maxDepth {
		return true
	}
	var hash uint64
	if a.incHash {
		// The parent's hash with the assigned slots' shares replaced.
		hash = p.nodes[cur].hash
		for i := range a.eff.as {
			as := &a.eff.as[i]
			hash += slotHash(as.slot, &chs[as.slot], as.role) - slotHash(as.slot, &cs[as.slot], as.role)
		}
	} else {
		hash = p.hashState(chs)
	}
	p.nodes = append(p.nodes, node{g: g, f: g + h, hash: hash, key: key, parent: cur, action: ai, depth: depth})
	if !p.record(child) {
		p.nodes = p.nodes[:child]
		return false
	}
	p.push(child)
	return false
}

// heuristic returns lower bounds on the cost and the number of steps still
// needed to reach the goal from st: the largest over the goal's conjuncts.
func (p *Searcher) heuristic(st State) (float64, int32) {
	gs := p.gs
	var h float64
	var steps int32
	atoms := gs.atoms
	if len(atoms) == 1 {
		h, steps = atoms[0].estimate(st)
	} else {
		for i := range atoms {
			c, s := atoms[i].estimate(st)
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

// capByFinish bounds an estimate (cost h in steps) by the goal's finishing
// step: one step that fulfills the goal may complete it from anywhere, so
// the estimate is at most that step's cost and one step.
func (gs *GoalSearch) capByFinish(h float64, steps int32) (float64, int32) {
	if f := gs.finish; f < h || (steps > 1 && f < math.Inf(1)) {
		h, steps = min(h, f), 1
	}
	return h, steps
}

func (p *Searcher) nodeState(i int32) State {
	o := int(i) * p.n
	return p.states[o : o+p.n : o+p.n]
}

func (p *Searcher) newNode(parent, action int32, g float64, depth int32) int32 {
	i := int32(len(p.nodes))
	p.nodes = append(p.nodes, node{g: g, parent: parent, action: action, depth: depth})
	if need := len(p.nodes) * p.n; need > len(p.states) {
		p.growStates(need)
	}
	return i
}

// growStates grows the states arena to at least need values.
func (p *Searcher) growStates(need int) {
	ns := make(State, max(need, 2*len(p.states), 64))
	copy(ns, p.states)
	p.states = ns
}

const (
	mixA = 0x9e3779b97f4a7c15
	mixB = 0xbf58476d1ce4e5b9
)

// hashState hashes the slots that tell search states apart (see
// GoalSearch); the other slots never matter during one search. It is the
// sum of one share per slot (slotHash), so that a child's hash can be its
// parent's with the shares of the assigned slots replaced (see
// planAction.incHash), or chainHash when no action gains from that
// (GoalSearch.additive).
func (p *Searcher) hashState(st State) uint64 {
	if !p.gs.additive {
		return p.chainHash(st)
	}
	var h uint64
	for _, s := range p.gs.full {
		h += fullShare(s, &st[s])
	}
	for _, s := range p.gs.kinds {
		h += kindShare(s, &st[s])
	}
	return h
}

// chainHash is hashState for a goal whose actions all rewrite most of the
// hashed slots (no incHash): one multiplication per slot, cheaper than a
// sum of finished shares.
func (p *Searcher) chainHash(st State) uint64 {
	h := uint64(mixB)
	for _, s := range p.gs.full {
		v := &st[s]
		h = (h ^ scalarBits(v) ^ uint64(v.Kind())) * mixA
		if str, ok := v.AsString(); ok {
			for i := 0; i < len(str); i++ {
				h = (h ^ uint64(str[i])) * mixB
			}
		}
	}
	for _, s := range p.gs.kinds {
		h = (h ^ uint64(st[s].Kind())) * mixB
	}
	// The table uses the low bits; small integers as float64 have all-zero
	// low mantissa bits, so fold the high bits down.
	h ^= h >> 32
	h *= mixB
	return h ^ h>>29
}

// slotHash is the share of slot s holding v in a state's hash, for the
// slot's role in the search (slotFull: by value; slotKind: by kind only;
// slotIgnored: none).
func slotHash(s int, v *Value, role uint8) uint64 {
	switch role {
	case slotFull:
		return fullShare(s, v)
	case slotKind:
		return kindShare(s, v)
	}
	return 0
}

// kindShare is the share of slot s, compared by kind only, holding v.
func kindShare(s int, v *Value) uint64 {
	return finish((uint64(s)<<8 | slotKind<<4 | uint64(v.Kind())) * mixA)
}

// fullShare is the share of slot s, compared by value, holding v.
func fullShare(s int, v *Value) uint64 {
	k := v.Kind()
	bits := scalarBits(v)
	if k == String {
		str, _ := v.AsString()
		bits = strHash(str)
	}
	return finish((uint64(s)<<8|slotFull<<4|uint64(k))*mixA ^ bits)
}

// scalarBits is the share of a number's or a boolean's value in a
// state's hash: the number's bits, 1 for true; 0 for false and any other
// kind.
func scalarBits(v *Value) uint64 {
	switch v.Kind() {
	case Number:
		f, _ := v.AsNumber()
		return math.Float64bits(f)
	case Bool:
		if v.Truthy() {
			return 1
		}
	}
	return 0
}

func strHash(str string) uint64 {
	h := uint64(mixB)
	for i := 0; i < len(str); i++ {
		h = (h ^ uint64(str[i])) * mixA
	}
	return h
}

// finish mixes h so that small integers as float64 (all-zero low bits)
// and neighbouring slots spread over the table's low bits.
func finish(h uint64) uint64 {
	h ^= h >> 31
	h *= mixB
	h ^= h >> 29
	return h
}

func (p *Searcher) sameState(a, b State) bool {
	for _, s := range p.gs.full {
		if a[s] != b[s] && !a[s].Equal(b[s]) {
			return false
		}
	}
	for _, s := range p.gs.kinds {
		if a[s].Kind() != b[s].Kind() {
			return false
		}
	}
	return true
}

func (p *Searcher) resetTable() {
	if len(p.table) == 0 {
		p.table = make([]int32, 1024)
		p.gen = make([]uint32, 1024)
	}
	p.curGen++
	if p.curGen == 0 {
		clear(p.gen)
		clear(p.held[:cap(p.held)])
		p.curGen = 1
	}
}

// before reports whether node a's path comes before node b's: lower cost,
// or equal cost and first in declaration order (lexicographic by action
// index, a prefix first).
func (p *Searcher) before(a, b int32) bool {
	if ga, gb := p.nodes[a].g, p.nodes[b].g; ga != gb {
		return ga < gb
	}
	return p.lexLess(a, b)
}

// childKey returns the key of the child by action ai of a node at depth
// with key k: the action's index + 1 in the next free field, if any.
func (p *Searcher) childKey(k uint64, depth int32, ai int32) uint64 {
	if int(depth) >= p.keySteps {
		return k
	}
	return k | uint64(ai+1)<<(64-uint(p.keyBits)*uint(depth+1))
}

// lexLess compares the paths to two nodes by action declaration order, a
// path before its extensions. The packed keys decide when the paths differ
// within their first keySteps steps; otherwise, since siblings never share
// an action, the paths first differ just below their lowest common
// ancestor.
func (p *Searcher) lexLess(a, b int32) bool {
	if a == b {
		return false
	}
	nodes := p.nodes
	if ka, kb := nodes[a].key, nodes[b].key; ka != kb {
		return ka < kb
	}
	da, db := nodes[a].depth, nodes[b].depth
	for ; da > db; da-- {
		a = nodes[a].parent
	}
	if a == b {
		return false // b is a prefix of a's path
	}
	for ; db > da; db-- {
		b = nodes[b].parent
	}
	if a == b {
		return true // a is a prefix of b's path
	}
	for {
		pa, pb := nodes[a].parent, nodes[b].parent
		if pa == pb {
			return nodes[a].action < nodes[b].action
		}
		a, b = pa, pb
	}
}

// record stores node i as the path to its state, unless the recorded path
// reaches the same state first (before) at no more depth; it reports
// whether i is worth expanding. A recorded node that i dominates is marked
// dead.
func (p *Searcher) record(i int32) bool {
	if 2*len(p.nodes) > len(p.table) {
		p.rehash()
	}
	n := &p.nodes[i]
	mask := uint64(len(p.table) - 1)
	st := p.nodeState(i)
	for h := n.hash & mask; ; h = (h + 1) & mask {
		if p.gen[h] != p.curGen {
			p.gen[h], p.table[h] = p.curGen, i
			return true
		}
		o := p.table[h]
		on := &p.nodes[o]
		if on.hash != n.hash || !p.sameState(p.nodeState(o), st) {
			continue
		}
		keep, replace := p.settleDuplicate(o, i)
		if replace {
			p.table[h] = i
		}
		return keep
	}
}

func (p *Searcher) rehash() {
	size := len(p.table) * 2
	for size < 4*len(p.nodes) {
		size *= 2
	}
	table, gen := make([]int32, size), make([]uint32, size)
	mask := uint64(size - 1)
	for h, g := range p.gen {
		if g != p.curGen {
			continue
		}
		i := p.table[h]
		for k := p.nodes[i].hash & mask; ; k = (k + 1) & mask {
			if gen[k] != p.curGen {
				gen[k], table[k] = p.curGen, i
				break
			}
		}
	}
	p.table, p.gen = table, gen
}

// The open set: a binary heap ordered by f, then by path (lexicographic by
// declaration order), which makes the first goal taken the cheapest plan
// and, among the cheapest, the first in declaration order. Entries carry f
// and the path key so most comparisons do not touch the nodes.
type openEntry struct {
	f    float64
	key  uint64
	node int32
}

func (p *Searcher) push(i int32) {
	n := &p.nodes[i]
	p.pushEntry(openEntry{f: n.f, key: n.key, node: i})
}

// pushEntry adds e, the entry of its node, to the open set.
func (p *Searcher) pushEntry(e openEntry) {
	p.heap = append(p.heap, e)
	h := p.heap
	k := len(h) - 1
	for k > 0 {
		up := (k - 1) / 2
		u := &h[up]
		// e before u: f, then the packed path keys, then the paths.
		if !(e.f < u.f || e.f == u.f && (e.key < u.key || e.key == u.key && p.lexLess(e.node, u.node))) {
			break
		}
		h[k] = *u
		k = up
	}
	h[k] = e
}

func (p *Searcher) pop() int32 {
	h := p.heap
	top := h[0].node
	last := len(h) - 1
	e := h[last]
	h = h[:last]
	p.heap = h
	if last == 0 {
		return top
	}
	k := 0
	for {
		m := 2*k + 1
		if m >= last {
			break
		}
		if r := m + 1; r < last {
			a, b := &h[r], &h[m]
			if a.f < b.f || a.f == b.f && (a.key < b.key || a.key == b.key && p.lexLess(a.node, b.node)) {
				m = r
			}
		}
		c := &h[m]
		if !(c.f < e.f || c.f == e.f && (c.key < e.key || c.key == e.key && p.lexLess(c.node, e.node))) {
			break
		}
		h[k] = *c
		k = m
	}
	h[k] = e
	return top
}

// onPath reports whether action ai is a step of the path to node i.
func (p *Searcher) onPath(i, ai int32) bool {
	for ; p.nodes[i].parent >= 0; i = p.nodes[i].parent {
		if p.nodes[i].action == ai {
			return true
		}
	}
	return false
}

// settleDuplicate applies the duplicate rule to node i, a new node whose
// state equals that of o, the node the table holds for that state. When o
// comes first in the open set's order, i is dropped, unless o is deeper
// than i (o cheaper but deeper, so the depth limit may cut o's paths where
// i's still fit): then both stay and the table keeps o. Otherwise i
// replaces o in the table, and o is marked dead when it is no shallower.
// keep says whether i stays; replace whether the table now holds i. Both
// searches (general and word) use this one rule.
func (p *Searcher) settleDuplicate(o, i int32) (keep, replace bool) {
	on, n := &p.nodes[o], &p.nodes[i]
	if p.before(o, i) {
		return on.depth > n.depth, false // cheaper but deeper: keep both
	}
	if n.depth <= on.depth {
		on.dead = true
	}
	return true, true
}

package goap

// Inspection: read-only views of a searcher's last search and of a goal's
// analysis, for the planner's tests, which build their domains with
// package engine and so cannot live in this package. Nothing here changes
// what a search does.

// MaxWordNumber bounds the numbers a word search starts from.
const MaxWordNumber = maxWordNumber

// NumberWord returns the word of a number a word search can hold; false
// when it holds no such number.
func NumberWord(f float64) (uint64, bool) { return numberWord(f) }

// Last returns the analysis of the goal the last search ran for.
func (p *Searcher) Last() *GoalSearch { return p.gs }

// Heuristic returns the estimate of gs's goal from st.
func (p *Searcher) Heuristic(gs *GoalSearch, st State) (float64, int32) {
	p.gs = gs
	return p.heuristic(st)
}

// HeuristicWords returns the word search's estimate of gs's goal from the
// row st.
func (p *Searcher) HeuristicWords(gs *GoalSearch, st []uint64) (float64, int32) {
	p.gs = gs
	return p.heuristicWords(gs.words, st)
}

// NumNodes returns the nodes of the last search.
func (p *Searcher) NumNodes() int { return len(p.nodes) }

// NodeDone reports whether node i of the last search is a goal node made
// by a finishing step.
func (p *Searcher) NodeDone(i int32) bool { return p.nodes[i].done }

// NodeHash returns the hash the last search recorded for node i.
func (p *Searcher) NodeHash(i int32) uint64 { return p.nodes[i].hash }

// NodeStateHash returns the hash of node i's whole state, computed anew:
// of its state in the general search, of its row in the word search.
func (p *Searcher) NodeStateHash(i int32) uint64 {
	if p.wmode {
		return hashWords(p.gs.words, p.wordState(i))
	}
	return p.hashState(p.nodeState(i))
}

// Additive reports whether gs's states hash as a sum of slot shares.
func (gs *GoalSearch) Additive() bool { return gs.additive }

// WholeHashActions returns the indexes of the relevant actions whose
// children are hashed whole, not updated from their parent's hash.
func (gs *GoalSearch) WholeHashActions() []int32 {
	var out []int32
	for i := range gs.acts {
		if !gs.acts[i].incHash {
			out = append(out, gs.acts[i].index)
		}
	}
	return out
}

// NumAtoms returns the conjuncts of the goal condition the heuristic reads.
func (gs *GoalSearch) NumAtoms() int { return len(gs.atoms) }

// RelaxedFact is a fact of a relaxed estimate: a slot and the least cost
// that makes the atom true from a state where it holds.
type RelaxedFact struct {
	Slot int
	Cost float64
}

// Relaxed returns the relaxed estimate of atom i: its facts, cheapest
// first, and its cost from a state with no fact true; ok is false when
// the atom has none.
func (gs *GoalSearch) Relaxed(i int) (facts []RelaxedFact, free float64, ok bool) {
	r := gs.atoms[i].rel
	if r == nil {
		return nil, 0, false
	}
	for _, f := range r.facts {
		facts = append(facts, RelaxedFact{Slot: f.slot, Cost: f.cost})
	}
	return facts, r.free, true
}

// Resource is the resource of a numeric atom's increasing actions (see
// resource).
type Resource struct {
	Slot            int
	Step, Back, Lim float64
	Strict          bool
}

// IncResource returns the resource of atom i's increasing actions; false
// when it has none.
func (gs *GoalSearch) IncResource(i int) (Resource, bool) {
	r := gs.atoms[i].incRes
	if r == nil {
		return Resource{}, false
	}
	return Resource{Slot: r.slot, Step: r.step, Back: r.back, Lim: r.lim, Strict: r.strict}, true
}

// HasWords reports whether the goal's search compiles to words.
func (gs *GoalSearch) HasWords() bool { return gs.words != nil }

// Words returns the compiled word search's shape: its words, whether
// every word holds a number, whether effects run as dense passes and the
// moves (assignments outside the dense pass) of all its actions.
func (gs *GoalSearch) Words() (words int, nums, dense bool, moves int) {
	ws := gs.words
	for i := range ws.acts {
		moves += len(ws.acts[i].moves)
	}
	return len(ws.slots), ws.nums, ws.dense, moves
}

// LoadWords writes start into dst as the word search's row; false when
// it does not fit.
func (gs *GoalSearch) LoadWords(dst []uint64, start State) bool { return gs.words.load(dst, start) }

// WordOf returns the word of schema slot s, or -1.
func (gs *GoalSearch) WordOf(s int) int {
	for i, x := range gs.words.slots {
		if x == s {
			return i
		}
	}
	return -1
}

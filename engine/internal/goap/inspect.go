package goap

// Inspection: read-only views of a goal's analysis and of the searcher's
// last search, for the planner's property tests that draw whole domains
// with package engine (and so cannot live in this package): they compare
// the word search with the general one and the estimates with the optimum.
// Nothing here changes what a search does.

// Last returns the analysis of the goal the last search ran for.
func (p *Searcher) Last() *GoalSearch { return p.gs }

// WordMode reports whether the last search ran on words.
func (p *Searcher) WordMode() bool { return p.wmode }

// Heuristic returns the estimate of gs's goal from st.
func (p *Searcher) Heuristic(gs *GoalSearch, st State) (float64, int32) {
	p.gs = gs
	return p.heuristic(st)
}

// HeuristicWords returns the word search's estimate of gs's goal from the
// row st (see LoadWords).
func (p *Searcher) HeuristicWords(gs *GoalSearch, st []uint64) (float64, int32) {
	p.gs = gs
	return p.heuristicWords(gs.words, st)
}

// NumAtoms returns the conjuncts of the goal condition the heuristic reads.
func (gs *GoalSearch) NumAtoms() int { return len(gs.atoms) }

// HasRelaxed reports whether atom i has a relaxed estimate.
func (gs *GoalSearch) HasRelaxed(i int) bool { return gs.atoms[i].rel != nil }

// HasWords reports whether the goal's search compiles to words.
func (gs *GoalSearch) HasWords() bool { return gs.words != nil }

// NumWords returns the words of a row of the goal's word search.
func (gs *GoalSearch) NumWords() int { return len(gs.words.slots) }

// LoadWords writes start into dst as the word search's row; false when
// it does not fit.
func (gs *GoalSearch) LoadWords(dst []uint64, start State) bool { return gs.words.load(dst, start) }

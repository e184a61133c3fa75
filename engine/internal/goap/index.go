package goap

import (
	"math/bits"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// actionIndex narrows the actions tried at each expansion to those whose
// precondition can hold: each relevant action with a precondition that is
// a flat conjunction is filed under one of its tests, a bare variable "x"
// (filed under x's slot) or, on the slot that most actions compare with a
// string, "x == \"lit\"" (filed under the literal). At a state, the
// candidates are the actions filed under a true variable or under the
// state's string, and every action filed under nothing. Sets are bit sets
// over positions in GoalSearch.acts, so the candidates come out in
// declaration order.
type actionIndex struct {
	words     int      // uint64 words per set
	others    []uint64 // actions filed under nothing
	boolSlots []int    // slots with actions filed under them
	byBool    [][]uint64
	strSlot   int // -1 when no string index
	byString  map[string][]uint64
}

// minIndexed is the number of relevant actions from which an index pays.
const minIndexed = 8

// buildIndex builds gs.index when at least minIndexed actions are relevant
// and at least one is filed under a test.
func (gs *GoalSearch) buildIndex() {
	if len(gs.acts) < minIndexed {
		return
	}
	// The string slot: the one most actions compare for equality with a
	// string literal (the lowest slot among equals), as their first such test.
	count := map[int]int{}
	strSlot, bestN := -1, 0
	for i := range gs.acts {
		pre := &gs.acts[i].pre
		if pre.slow != nil {
			continue
		}
		for _, t := range pre.tests {
			if isStringEq(&t) {
				count[t.slot]++
				if n := count[t.slot]; n > bestN || (n == bestN && t.slot < strSlot) {
					strSlot, bestN = t.slot, n
				}
				break
			}
		}
	}
	ix := &actionIndex{words: (len(gs.acts) + 63) / 64, strSlot: strSlot}
	ix.others = make([]uint64, ix.words)
	boolAt := map[int]int{}
	filed := 0
	for i := range gs.acts {
		pre := &gs.acts[i].pre
		set := ix.others
		if pre.slow == nil {
			if s, ok := stringKey(pre, strSlot); ok {
				if ix.byString == nil {
					ix.byString = map[string][]uint64{}
				}
				if ix.byString[s] == nil {
					ix.byString[s] = make([]uint64, ix.words)
				}
				set = ix.byString[s]
			} else if slot, ok := boolKey(pre); ok {
				j, seen := boolAt[slot]
				if !seen {
					j = len(ix.boolSlots)
					boolAt[slot] = j
					ix.boolSlots = append(ix.boolSlots, slot)
					ix.byBool = append(ix.byBool, make([]uint64, ix.words))
				}
				set = ix.byBool[j]
			}
		}
		if &set[0] != &ix.others[0] {
			filed++
		}
		set[i/64] |= 1 << (i % 64)
	}
	if filed == 0 {
		return
	}
	gs.index = ix
}

func isStringEq(t *fastTest) bool {
	return t.kind == testCmp && t.op == expr.Eq && t.lit.Kind() == expr.String
}

// stringKey returns the literal of pre's first string equality on slot.
func stringKey(pre *fastCond, slot int) (string, bool) {
	if slot < 0 {
		return "", false
	}
	for i := range pre.tests {
		if t := &pre.tests[i]; isStringEq(t) && t.slot == slot {
			s, _ := t.lit.AsString()
			return s, true
		}
	}
	return "", false
}

// boolKey returns the slot of pre's first bare-variable test.
func boolKey(pre *fastCond) (int, bool) {
	for i := range pre.tests {
		if pre.tests[i].kind == testVar {
			return pre.tests[i].slot, true
		}
	}
	return 0, false
}

// candidates fills dst (ix.words long) with the actions whose indexed test
// holds in st, and every action filed under nothing.
func (ix *actionIndex) candidates(dst []uint64, st State) {
	copy(dst, ix.others)
	for j, s := range ix.boolSlots {
		if st[s].Truthy() {
			orInto(dst, ix.byBool[j])
		}
	}
	if ix.byString != nil {
		if v, ok := st[ix.strSlot].AsString(); ok {
			if set := ix.byString[v]; set != nil {
				orInto(dst, set)
			}
		}
	}
}

func orInto(dst, src []uint64) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] |= src[i]
	}
}

// nextBit returns the position of the lowest set bit of set at or after
// from, or -1.
func nextBit(set []uint64, from int) int {
	w := from / 64
	if w >= len(set) {
		return -1
	}
	x := set[w] >> (from % 64)
	if x != 0 {
		return from + bits.TrailingZeros64(x)
	}
	for w++; w < len(set); w++ {
		if set[w] != 0 {
			return w*64 + bits.TrailingZeros64(set[w])
		}
	}
	return -1
}

// The part a slot plays in telling search states apart (see GoalSearch).
const (
	slotIgnored = iota // written by no relevant action, or never read where it matters
	slotFull           // compared by value
	slotKind           // compared by kind only
)

// markRoles records in each flattened assignment of gs.acts the part its
// target slot plays, for changesNothing and the hash, and sets each
// action's mayLoop and incHash and gs.additive.
func (gs *GoalSearch) markRoles(ns int) {
	role := make([]uint8, ns)
	for _, s := range gs.full {
		role[s] = slotFull
	}
	for _, s := range gs.kinds {
		role[s] = slotKind
	}
	hashed := len(gs.full) + len(gs.kinds)
	seen := make([]int, ns) // action position + 1 that last assigned the slot
	for i := range gs.acts {
		a := &gs.acts[i]
		as := a.eff.as
		a.mayLoop = !a.finishes
		// A child's hash is updated from its parent's when the effect is
		// flat, assigns each slot at most once and touches under a quarter
		// of the hashed slots: two shares per assigned slot, each dearer
		// than a step of chainHash (measured: deep, whose Sleep assigns one
		// of three, runs faster with chainHash alone).
		a.incHash = a.eff.slow == nil && 4*len(as) < hashed
		for j := range as {
			if seen[as[j].slot] == i+1 {
				a.incHash = false
			}
			seen[as[j].slot] = i + 1
			as[j].role = role[as[j].slot]
			// x = x + k with k != 0 on a slot compared by value changes x
			// whenever it applies (x a finite number; an infinite x is
			// caught later, when the child's state is recorded).
			if as[j].kind == assignAdd && as[j].src == as[j].slot && as[j].k != 0 && as[j].role == slotFull && a.eff.slow == nil {
				a.mayLoop = false
			}
		}
		gs.additive = gs.additive || a.incHash
	}
}

// changesNothing reports whether applying e to st gives a state that the
// search cannot tell from st (sameState), or cannot apply at all: such a
// child is never worth building, since its parent reaches the same state
// more cheaply (costs are > 0) and by a shorter path. An effect that is
// not flat is never reported.
func (e *fastEffect) changesNothing(st State) bool {
	if e.slow != nil {
		return false
	}
	for i := range e.as {
		a := &e.as[i]
		old := &st[a.slot]
		switch a.kind {
		case assignLit:
			switch a.role {
			case slotFull:
				if *old != a.lit && !old.Equal(a.lit) {
					return false
				}
			case slotKind:
				if old.Kind() != a.lit.Kind() {
					return false
				}
			}
		case assignCopy:
			nv := &st[a.src]
			switch a.role {
			case slotFull:
				if *old != *nv && !old.Equal(*nv) {
					return false
				}
			case slotKind:
				if old.Kind() != nv.Kind() {
					return false
				}
			}
		default:
			x, ok := st[a.src].AsNumber()
			if !ok {
				return true // the effect cannot apply
			}
			switch a.role {
			case slotFull:
				if o, ok := old.AsNumber(); !ok || o != x+a.k {
					return false
				}
			case slotKind:
				if old.Kind() != expr.Number {
					return false
				}
			}
		}
	}
	return true
}

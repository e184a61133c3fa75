package expr

// This file is the read-only view of compiled conditions and effects that
// other stages (the planner's flattened forms, analyses, printers) read
// instead of the syntax tree itself. Nothing here can change a compiled
// Condition or Effect.

// Node is a read-only view of one node of a compiled condition. The zero
// Node is no node: IsZero reports it and every other method returns zero
// values for it. A Node is valid as long as its Condition, and is safe for
// concurrent use.
type Node struct{ n *cnode }

// Root returns the top node of the condition; the zero Node for a nil or
// empty condition.
func (c *Condition) Root() Node {
	if c == nil {
		return Node{}
	}
	return Node{c.root}
}

// IsZero reports whether n is the zero Node.
func (n Node) IsZero() bool { return n.n == nil }

// Op returns the node's shape; 0 for the zero Node.
func (n Node) Op() Op {
	if n.n == nil {
		return 0
	}
	return n.n.op
}

// NumKids returns the number of children: two or more for OpOr and OpAnd,
// one for OpNot, two for OpCompare, none otherwise.
func (n Node) NumKids() int {
	if n.n == nil {
		return 0
	}
	return len(n.n.kids)
}

// Kid returns child i, 0 <= i < NumKids(); it panics when i is out of
// range.
func (n Node) Kid(i int) Node { return Node{n.n.kids[i]} }

// Slot returns the variable slot of an OpVar, OpVarLit or OpVarVar node
// (the left-hand variable for OpVarVar); 0 otherwise.
func (n Node) Slot() int {
	if n.n == nil {
		return 0
	}
	return n.n.slot
}

// Slot2 returns the right-hand variable slot of an OpVarVar node; 0
// otherwise.
func (n Node) Slot2() int {
	if n.n == nil {
		return 0
	}
	return n.n.slot2
}

// Cmp returns the comparison operator of an OpCompare, OpVarLit or
// OpVarVar node; 0 otherwise. For OpVarLit the variable is on the left, so
// "5 < x" reads as x Gt 5.
func (n Node) Cmp() Cmp {
	if n.n == nil {
		return 0
	}
	return n.n.cmp
}

// Lit returns the literal of an OpLit or OpVarLit node; the Unknown Value
// otherwise.
func (n Node) Lit() Value {
	if n.n == nil {
		return Value{}
	}
	return n.n.lit
}

// Reads appends to out (which must hold no repeats) the slots the node
// and its children read, in first-use order, leaving out slots out already
// holds, and returns the extended slice.
func (n Node) Reads(out []int) []int {
	if n.n == nil {
		return out
	}
	l := slotListOf(out)
	n.n.appendReads(&l)
	return l.list
}

func (n *cnode) appendReads(l *slotList) {
	switch n.op {
	case OpVar, OpVarLit:
		l.add(n.slot)
	case OpVarVar:
		l.add(n.slot)
		l.add(n.slot2)
	}
	for _, k := range n.kids {
		k.appendReads(l)
	}
}

// Condition returns the node as a condition of its own, with the rule for
// Unknown variables applied to the variables the node reads. Its Source is
// the source of the whole condition the node belongs to. The zero Node
// gives the empty condition. Condition allocates; call it while analysing,
// not while planning.
func (n Node) Condition(of *Condition) *Condition {
	c := &Condition{src: of.Source(), root: n.n, flat: flatten(n.n)}
	if n.n != nil {
		var l slotList
		n.n.appendReads(&l)
		c.reads = l.list
		c.mask = SlotMask(c.reads)
	}
	return c
}

// Term is one operand of the right-hand side of a compiled assignment: the
// variable at Slot when IsVar, else the literal Lit; Sub when it is
// subtracted (it follows a "-"). A bare word that named no variable when
// the effect compiled is a string Lit.
type Term struct {
	Sub   bool
	IsVar bool
	Slot  int
	Lit   Value
}

// NumAssigns returns the number of assignments, in source order; 0 for a
// nil effect.
func (e *Effect) NumAssigns() int {
	if e == nil {
		return 0
	}
	return len(e.assigns)
}

// Target returns the slot that assignment i writes, 0 <= i < NumAssigns();
// it panics when i is out of range.
func (e *Effect) Target(i int) int { return e.assigns[i].slot }

// NumTerms returns the number of terms of assignment i's right-hand side
// (at least one).
func (e *Effect) NumTerms(i int) int { return len(e.assigns[i].terms) }

// Term returns term j of assignment i, 0 <= j < NumTerms(i); it panics
// when i or j is out of range.
func (e *Effect) Term(i, j int) Term { return e.assigns[i].terms[j].Term }

// IsArithmetic reports whether assignment i computes a sum ("x = x + 1",
// "x = -y"), which needs every variable operand to hold a number, rather
// than storing one value ("x = 1", "x = y").
func (e *Effect) IsArithmetic(i int) bool {
	t := e.assigns[i].terms
	return len(t) != 1 || t[0].Sub
}

// TryApply is Apply without the checks and the error, for hot loops such
// as a planner's search: it computes the effect from src into dst and
// reports whether every arithmetic operand held a number. Both states must
// have at least Need() slots, else TryApply panics. On false dst may be
// partly written. TryApply does not allocate.
func (e *Effect) TryApply(dst, src State) bool {
	i, _ := e.apply(dst, src)
	return i < 0
}

// Need returns 1 + the highest slot the effect reads or writes: the
// shortest state Apply and TryApply accept.
func (e *Effect) Need() int {
	if e == nil {
		return 0
	}
	return e.need
}

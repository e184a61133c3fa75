package expr

// Clause is one simple test of a condition's top-level conjunction, the
// flattened form that Eval and the planner's search read instead of the
// tree: a bare variable ("x", Op OpVar), a negated bare variable ("!x",
// Op OpNot) or a comparison of a variable with a literal ("x op lit", Op
// OpVarLit, with Cmp and Lit). Slot is the variable's slot. A Clause
// holds, as part of its condition, when its variable is known and: for
// OpVar, its value is the bool true; for OpNot, it is not; for OpVarLit,
// Cmp.Compare(value, Lit) holds.
type Clause struct {
	Op   Op
	Cmp  Cmp
	Slot int
	Lit  Value
}

// clauseOf reports n as one clause.
func clauseOf(n *cnode) (Clause, bool) {
	switch n.op {
	case OpVar, OpVarLit:
		return Clause{Op: n.op, Cmp: n.cmp, Slot: n.slot, Lit: n.lit}, true
	case OpNot:
		if k := n.kids[0]; k.op == OpVar {
			return Clause{Op: OpNot, Slot: k.slot}, true
		}
	}
	return Clause{}, false
}

// conjunctClauses returns the clauses of root's top-level conjunction
// (root itself when it is no OpAnd), in order, and true when every
// conjunct is a clause; nil and true for no root.
func conjunctClauses(root *cnode) ([]Clause, bool) {
	if root == nil {
		return nil, true
	}
	kids := []*cnode{root}
	if root.op == OpAnd {
		kids = root.kids
	}
	out := make([]Clause, 0, len(kids))
	for _, k := range kids {
		c, ok := clauseOf(k)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// Clauses returns the clauses of c's top-level "&&" in order (c as one
// clause when it is no conjunction) and true, when every conjunct is a
// clause; nil and false when one has another shape. A nil or empty
// condition has no clauses and gives true. The slice is new on every
// call.
func (c *Condition) Clauses() ([]Clause, bool) {
	if c == nil {
		return nil, true
	}
	return conjunctClauses(c.root)
}

// Clause reports n as one clause (see Clause); false when it has another
// shape or is the zero Node.
func (n Node) Clause() (Clause, bool) {
	if n.n == nil {
		return Clause{}, false
	}
	return clauseOf(n.n)
}

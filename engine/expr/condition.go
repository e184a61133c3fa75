package expr

// Condition is a compiled precondition or goal condition: a boolean
// expression over state variables, bound to the slots of one Schema.
//
// # Grammar
//
//	or      = and { ("||" | "or") and }
//	and     = not { ("&&" | "and") not }
//	not     = ("!" | "not") not | compare
//	compare = operand [ ("==" | "!=" | "~=" | ">" | ">=" | "<" | "<=") operand ]
//	operand = "(" or ")" | name | number | string | "true" | "false" | "nil" | "null"
//
// Lua's spellings are synonyms: "and" is "&&", "or" is "||", "not" is "!"
// and "~=" is "!=", with the same precedence, and the two spellings mix
// ("ammo > 0 and !reloading"). So and, or and not are never variable
// names in a condition.
//
// Precedence, loosest first: "||", then "&&", then "!", then the
// comparisons. So "a || b && c" is "a || (b && c)", and "!ammo > 5" is
// "!(ammo > 5)", as is "not ammo > 5". Comparisons do not chain: "a == b == c" is a parse error;
// write "(a == b) == c" if that is really meant. Parentheses group.
//
// # Operands
//
// A number is an integer or a decimal ("3", "-2", "15.1", ".5", "1e3"); a
// leading "-" makes it negative. A string is double- or single-quoted, with
// the escapes \n \t \r \\ \" \'. A name (letters, digits, "_" and ".",
// not starting with a digit) other than true, false, nil and null is a
// state variable. A bare variable, as an operand of "&&", "||" or "!", holds
// only when its value is the bool true: "ready" is false when ready is 1 or
// "yes".
//
// # Unknown variables
//
// A variable missing from the state (its Value is Unknown) makes the whole
// condition unsatisfied, whatever the operators around it: "!ready",
// "ready || other" and "ready == nil" are all false when ready is missing.
// This is the planning rule "a condition that uses it is not satisfied",
// applied to the whole condition so that neither "!" nor "||" can turn an
// unknown into a pass. A variable holding nil is known: "x == nil" holds.
//
// # Comparisons
//
// Two numbers compare as float64, so "1 == 1.0" holds. Two strings compare
// by bytes, ordering included ("a" < "b", "B" < "a"). Two bools, or nil and
// nil, support only "==" and "!=". Values of different kinds are never
// equal: "==" is false and "!=" is true ("1 == '1'" is false). Ordering
// values of different kinds, two bools or two nils is false, never an error.
// Parentheses only group: "(x) == 5" compares x's value. A comparison,
// "!", "&&" or "||" in parentheses used as an operand is the bool it
// evaluates to: "(a > 1) == (b > 1)".
//
// A Condition is immutable once compiled and safe for concurrent use. Eval
// does not allocate.
type Condition struct {
	src   string
	root  *cnode
	reads []int
	mask  uint64 // reads as bits (see ReadMask)
	// flat is root as a list of clauses that must all hold, when it is a
	// conjunction of variables and comparisons of a variable with a
	// literal (or one of them), else nil: Eval then walks no tree (see
	// flatten).
	flat []Clause
}

// flatten returns root's clauses when root is an OpVar, an OpVarLit, or
// an OpAnd of them, else nil: the form Eval walks without the tree. It is
// conjunctClauses without the negated variables, which Eval takes on the
// tree.
func flatten(root *cnode) []Clause {
	out, ok := conjunctClauses(root)
	if !ok || len(out) == 0 {
		return nil
	}
	for i := range out {
		if out[i].Op == OpNot {
			return nil
		}
	}
	return out
}

// evalFlat is Eval for a flat condition: every clause's variable known
// and every clause holding. It is Eval's answer whatever the order it
// finds them in: a conjunction is false when any variable it reads is
// Unknown (or out of st) or any clause is false, and the clauses read
// nothing but st.
func evalFlat(cs []Clause, st State) bool {
	for i := range cs {
		k := &cs[i]
		if k.Slot >= len(st) {
			return false
		}
		v := &st[k.Slot]
		switch {
		case !v.IsKnown():
			return false
		case k.Op == OpVar:
			if !v.Truthy() {
				return false
			}
		case v.isNumber() && k.Lit.isNumber():
			if !compareNumbers(k.Cmp, v.num(), k.Lit.num()) {
				return false
			}
		case !compare(k.Cmp, v, &k.Lit):
			return false
		}
	}
	return true
}

// Op is the shape of one node of a compiled condition, as Node reports it.
// The zero Op belongs to no node.
type Op uint8

// The node shapes. The parser specialises the common comparisons, so a
// comparison of a variable with a literal is OpVarLit, not an OpCompare
// of an OpVar and an OpLit.
const (
	OpOr      Op = iota + 1 // holds when any child holds
	OpAnd                   // holds when every child holds
	OpNot                   // holds when its one child does not
	OpVar                   // the variable at Slot holds the bool true
	OpLit                   // the literal Lit is the bool true
	OpCompare               // Cmp compares the values of child 0 and child 1
	OpVarLit                // Cmp compares the variable at Slot with Lit
	OpVarVar                // Cmp compares the variables at Slot and Slot2
)

// Cmp is a comparison operator of the condition language. The zero Cmp
// is no operator.
type Cmp uint8

// The comparison operators.
const (
	Eq Cmp = iota + 1 // ==
	Ne                // !=
	Lt                // <
	Le                // <=
	Gt                // >
	Ge                // >=
)

var cmpNames = [...]string{"?", "==", "!=", "<", "<=", ">", ">="}

// String returns the operator as a condition writes it, such as "<=".
func (op Cmp) String() string {
	if int(op) < len(cmpNames) {
		return cmpNames[op]
	}
	return "?"
}

// Flip returns the operator that compares the operands swapped: a < b is
// b > a, so Lt.Flip() is Gt; Eq and Ne are their own flips.
func (op Cmp) Flip() Cmp {
	switch op {
	case Lt:
		return Gt
	case Le:
		return Ge
	case Gt:
		return Lt
	case Ge:
		return Le
	}
	return op
}

// Compare applies the operator to two known values as a condition does:
// values of different kinds are never equal (Ne holds, every other
// operator fails); numbers compare as float64 and strings by bytes, both
// with ordering; bools and nil support only Eq and Ne. Compare does not
// apply the rule for Unknown values: the caller checks them first.
func (op Cmp) Compare(a, b Value) bool { return compare(op, &a, &b) }

type cnode struct {
	op    Op
	cmp   Cmp
	slot  int
	slot2 int
	lit   Value
	kids  []*cnode
}

// Source returns the text the condition was compiled from.
func (c *Condition) Source() string {
	if c == nil {
		return ""
	}
	return c.src
}

// String returns the text the condition was compiled from, as Source
// does, so that printing a condition shows "ammo > 0" and not its tree.
func (c *Condition) String() string { return c.Source() }

// Reads returns the slots the condition reads, in first-use order, without
// repeats. The slice is shared: do not modify it.
func (c *Condition) Reads() []int {
	if c == nil {
		return nil
	}
	return c.reads
}

// ReadMask returns the slots the condition reads as bits: bit s is set
// when it reads slot s, and every bit is set when it reads a slot of 64 or
// more (see SlotMask). So when two states agree on every slot whose bit
// is set, Eval gives the same answer on both. 0 for a nil or empty
// condition.
func (c *Condition) ReadMask() uint64 {
	if c == nil {
		return 0
	}
	return c.mask
}

// SlotMask returns the slots as bits (bit s for slot s), or every bit set
// (^0) when a slot is 64 or more: a mask that may say "maybe" but never
// leaves a slot out.
func SlotMask(slots []int) uint64 {
	var m uint64
	for _, s := range slots {
		if s < 0 || s >= 64 {
			return ^uint64(0)
		}
		m |= 1 << uint(s)
	}
	return m
}

// IsEmpty reports whether the condition is the empty condition, which
// always holds.
func (c *Condition) IsEmpty() bool { return c == nil || c.root == nil }

// Eval reports whether the condition holds in st. A nil or empty Condition
// always holds. st should be a state of the schema the condition was
// compiled with; a slot beyond the end of st counts as Unknown, so a state
// made before the schema grew is still safe to pass (the condition is then
// unsatisfied if it reads a new variable). Eval does not allocate and is
// safe for concurrent use as long as nobody writes st meanwhile.
func (c *Condition) Eval(st State) bool {
	if c == nil || c.root == nil {
		return true
	}
	if c.flat != nil {
		return evalFlat(c.flat, st)
	}
	for _, s := range c.reads {
		if s >= len(st) || !st[s].IsKnown() {
			return false
		}
	}
	return c.root.truth(st)
}

func (n *cnode) truth(st State) bool {
	switch n.op {
	case OpVarLit:
		v := &st[n.slot]
		if v.isNumber() && n.lit.isNumber() { // the common clause, inlined
			return compareNumbers(n.cmp, v.num(), n.lit.num())
		}
		return compare(n.cmp, v, &n.lit)
	case OpAnd:
		for _, k := range n.kids {
			if !k.truth(st) {
				return false
			}
		}
		return true
	case OpOr:
		for _, k := range n.kids {
			if k.truth(st) {
				return true
			}
		}
		return false
	case OpNot:
		return !n.kids[0].truth(st)
	case OpVar:
		return st[n.slot].Truthy()
	case OpVarVar:
		return compare(n.cmp, &st[n.slot], &st[n.slot2])
	case OpLit:
		return n.lit.Truthy()
	}
	l, r := n.kids[0].value(st), n.kids[1].value(st)
	return compare(n.cmp, &l, &r)
}

func (n *cnode) value(st State) Value {
	switch n.op {
	case OpVar:
		return st[n.slot]
	case OpLit:
		return n.lit
	}
	return BoolValue(n.truth(st))
}

// compare applies a comparison operator to two known values. Handles
// are canonical, so two values with different handles differ in kind or
// in text, and two with the same handle differ only in their words.
func compare(op Cmp, a, b *Value) bool {
	if a.h == b.h {
		if a.isNumber() {
			return compareNumbers(op, a.num(), b.num())
		}
		switch op { // nil, bools, or the same text (n is 0)
		case Eq:
			return a.n == b.n
		case Ne:
			return a.n != b.n
		case Le, Ge:
			return a.isString()
		}
		return false
	}
	switch op {
	case Eq:
		return false
	case Ne:
		return true
	}
	if !a.isString() || !b.isString() {
		return false // different kinds order nothing
	}
	x, y := a.str(), b.str()
	switch op {
	case Lt:
		return x < y
	case Le:
		return x <= y
	case Gt:
		return x > y
	case Ge:
		return x >= y
	}
	return false
}

func compareNumbers(op Cmp, a, b float64) bool {
	switch op {
	case Eq:
		return a == b
	case Ne:
		return a != b
	case Lt:
		return a < b
	case Le:
		return a <= b
	case Gt:
		return a > b
	case Ge:
		return a >= b
	}
	return false
}

// CompileCondition parses src and binds its variables to slots of s,
// interning the names s does not have yet; s must not be nil. Empty or
// blank text compiles to the empty condition, which always holds. The
// error is a *ParseError giving the column and what was expected.
// CompileCondition never panics, whatever src holds.
func CompileCondition(src string, s *Schema) (*Condition, error) {
	p := &cparser{lex: lexer{src: src, words: true}, schema: s}
	p.advance()
	c := &Condition{src: src}
	if p.tok.kind == tEOF {
		return c, nil
	}
	root, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		switch {
		case p.tok.kind == tAssign:
			return nil, p.fail(`"==" (a condition compares; "=" assigns in effects)`)
		case cmpOps[p.tok.kind] != 0:
			return nil, p.fail(`"&&", "||" or end of text (comparisons do not chain; use parentheses)`)
		case p.tok.kind == tRP:
			return nil, p.fail(`"&&", "||" or end of text (this ")" has no "(")`)
		case p.tok.kind == tNot:
			return nil, p.fail(`an operator (&& || == != < <= > >=) or end of text ("` + p.tok.text + `" negates what follows it; write "a && !b", not "a ` + p.tok.text + ` b")`)
		}
		return nil, p.fail(`an operator (&& || == != < <= > >=) or end of text`)
	}
	c.root = root
	c.flat = flatten(root)
	c.reads = p.reads.list
	c.mask = SlotMask(c.reads)
	return c, nil
}

type cparser struct {
	lex    lexer
	tok    token
	schema *Schema
	reads  slotList
	slab   []cnode // nodes are carved from here, a chunk at a time
}

// node returns a pointer to a copy of n in the parser's slab. Chunks grow
// from 8 to 1,024 nodes, so a small condition costs one small allocation
// and a long one a few per thousand clauses.
func (p *cparser) node(n cnode) *cnode {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]cnode, 0, min(max(8, 2*cap(p.slab)), 1024))
	}
	p.slab = append(p.slab, n)
	return &p.slab[len(p.slab)-1]
}

// maxNesting bounds parenthesis and "!" nesting so no input can exhaust the
// Go stack, in the parser or in Eval.
const maxNesting = 200

func (p *cparser) advance() { p.tok = p.lex.next() }

func (p *cparser) fail(expected string) *ParseError {
	if p.tok.kind == tBad {
		expected = p.tok.str
	}
	return &ParseError{Source: p.lex.src, Col: p.lex.colAt(p.tok.off), Expected: expected, Found: describe(p.tok)}
}

// or and and build n-ary nodes, so a long chain of clauses is one flat
// node, not a deep tree.
func (p *cparser) or(depth int) (*cnode, error) { return p.chain(depth, tOr, OpOr, p.and) }

func (p *cparser) and(depth int) (*cnode, error) { return p.chain(depth, tAnd, OpAnd, p.not) }

// chain parses operands with next, joined by the token tok, into one node
// of op (the operand alone when there is no tok).
func (p *cparser) chain(depth int, tok tokKind, op Op, next func(int) (*cnode, error)) (*cnode, error) {
	l, err := next(depth)
	if err != nil || p.tok.kind != tok {
		return l, err
	}
	n := p.node(cnode{op: op, kids: []*cnode{l}})
	for p.tok.kind == tok {
		p.advance()
		r, err := next(depth)
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, r)
	}
	return n, nil
}

func (p *cparser) not(depth int) (*cnode, error) {
	if p.tok.kind == tNot {
		if depth >= maxNesting {
			return nil, p.fail("less nesting (at most 200 levels of \"!\" and \"(\")")
		}
		word := p.tok
		p.advance()
		if word.text == "not" && p.valueEnds() {
			at := p.tok
			p.tok = word
			err := p.fail(`a value (a name, a number, a string, true, false, nil or "(") after "not"; "not" is an operator in a condition, so no variable can be named not`)
			p.tok = at
			return nil, err
		}
		x, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		if x.op == OpLit {
			return p.node(cnode{op: OpLit, lit: BoolValue(!x.lit.Truthy())}), nil
		}
		return p.node(cnode{op: OpNot, kids: []*cnode{x}}), nil
	}
	return p.compare(depth)
}

// valueEnds reports whether the current token can only follow a value
// (a comparison, "&&", "||", ")" or the end), so the "not" before it
// must have been meant as a variable's name.
func (p *cparser) valueEnds() bool {
	switch p.tok.kind {
	case tEOF, tRP, tAnd, tOr:
		return true
	}
	return cmpOps[p.tok.kind] != 0
}

var cmpOps = map[tokKind]Cmp{tEq: Eq, tNe: Ne, tLt: Lt, tLe: Le, tGt: Gt, tGe: Ge}

func (p *cparser) compare(depth int) (*cnode, error) {
	l, err := p.operand(depth)
	if err != nil {
		return nil, err
	}
	op, ok := cmpOps[p.tok.kind]
	if !ok {
		return l, nil
	}
	p.advance()
	r, err := p.operand(depth)
	if err != nil {
		return nil, err
	}
	// Specialise the common shapes so Eval does one step, not three.
	switch {
	case l.op == OpLit && r.op == OpLit:
		return p.node(cnode{op: OpLit, lit: BoolValue(compare(op, &l.lit, &r.lit))}), nil
	case l.op == OpLit && r.op == OpVar:
		l, r, op = r, l, op.Flip()
		fallthrough
	case l.op == OpVar && r.op == OpLit:
		return p.node(cnode{op: OpVarLit, cmp: op, slot: l.slot, lit: r.lit}), nil
	case l.op == OpVar && r.op == OpVar:
		return p.node(cnode{op: OpVarVar, cmp: op, slot: l.slot, slot2: r.slot}), nil
	}
	return p.node(cnode{op: OpCompare, cmp: op, kids: []*cnode{l, r}}), nil
}

func (p *cparser) operand(depth int) (*cnode, error) {
	t := p.tok
	switch t.kind {
	case tLP:
		if depth >= maxNesting {
			return nil, p.fail("less nesting (at most 200 levels of \"!\" and \"(\")")
		}
		p.advance()
		x, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tRP {
			return nil, p.fail(`")"`)
		}
		p.advance()
		return x, nil
	case tNumber:
		p.advance()
		return p.node(cnode{op: OpLit, lit: NumberValue(t.num)}), nil
	case tMinus:
		p.advance()
		if p.tok.kind != tNumber {
			return nil, p.fail("a number after \"-\"")
		}
		n := p.tok.num
		p.advance()
		return p.node(cnode{op: OpLit, lit: NumberValue(-n)}), nil
	case tString:
		p.advance()
		return p.node(cnode{op: OpLit, lit: StringValue(t.str)}), nil
	case tIdent:
		p.advance()
		switch t.text {
		case "true":
			return p.node(cnode{op: OpLit, lit: BoolValue(true)}), nil
		case "false":
			return p.node(cnode{op: OpLit, lit: BoolValue(false)}), nil
		case "nil", "null":
			return p.node(cnode{op: OpLit, lit: NilValue()}), nil
		}
		if pe := p.schema.checkName(p.lex.src, t.off, t.text); pe != nil {
			return nil, pe
		}
		slot := p.schema.Intern(t.text)
		p.reads.add(slot)
		return p.node(cnode{op: OpVar, slot: slot}), nil
	}
	if w := t.text; (t.kind == tAnd || t.kind == tOr || t.kind == tNot) && wordOp(w) != tIdent {
		return nil, p.fail(`a value (a name, a number, a string, true, false, nil or "("); "` + w + `" is an operator in a condition, so no variable can be named ` + w)
	}
	return nil, p.fail(`a value (a name, a number, a string, true, false, nil or "(")`)
}

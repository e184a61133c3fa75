package engine

// Condition is a compiled precondition or goal condition.
//
// The language (from the TnsAI seed, "Conditions"):
//
//	or      = and { "||" and }
//	and     = not { "&&" not }
//	not     = "!" not | compare
//	compare = operand [ ("==" | "!=" | ">" | ">=" | "<" | "<=") operand ]
//	operand = "(" or ")" | name | number | string | "true" | "false" | "nil"
//
// Precedence, loosest first: "||", "&&", "!", comparisons; so "!a == b"
// is "!(a == b)" and "a || b && c" is "a || (b && c)". Numbers are
// integers or decimals, negative with a leading "-"; strings are double- or
// single-quoted with the escapes \n \t \r \\ \" \'. A bare name is a state
// variable (names may contain letters, digits, "_" and "."); on its own it
// is true only when its value is the bool true.
//
// Unknown variables: when any variable the condition reads is missing from
// the state, the whole condition is unsatisfied, whatever the operators: "!ready"
// and "ready || other" are both false when ready is missing. This is the
// seed's rule, applied to the whole condition so no operator can turn an
// unknown into a pass.
//
// Comparisons: two numbers compare as float64 (1 == 1.0); two strings
// compare by bytes, including ordering; two bools, or nil with nil, compare
// with == and != only. Values of different kinds are never equal: "==" is
// false and "!=" is true; ordering them (or two bools) is false, never an
// error.
//
// A Condition is immutable once compiled and safe for concurrent use. Eval
// does not allocate.
type Condition struct {
	src   string
	root  *cnode
	reads []int
}

type cop uint8

const (
	cOr cop = iota
	cAnd
	cNot
	cEq
	cNe
	cLt
	cLe
	cGt
	cGe
	cVar
	cLit
)

type cnode struct {
	op   cop
	l, r *cnode
	slot int
	lit  Value
}

// Source returns the text the condition was compiled from.
func (c *Condition) Source() string {
	if c == nil {
		return ""
	}
	return c.src
}

// Reads returns the slots the condition reads, in first-use order. The slice
// is shared: do not modify it.
func (c *Condition) Reads() []int {
	if c == nil {
		return nil
	}
	return c.reads
}

// IsEmpty reports whether the condition is the empty condition, which
// always holds.
func (c *Condition) IsEmpty() bool { return c == nil || c.root == nil }

// Eval reports whether the condition holds in st. A nil or empty Condition
// always holds. st must be a state of the schema the condition was compiled
// with.
func (c *Condition) Eval(st State) bool {
	if c == nil || c.root == nil {
		return true
	}
	for _, s := range c.reads {
		if st[s].k == Unknown {
			return false
		}
	}
	return c.root.truth(st)
}

func (n *cnode) truth(st State) bool {
	switch n.op {
	case cOr:
		return n.l.truth(st) || n.r.truth(st)
	case cAnd:
		return n.l.truth(st) && n.r.truth(st)
	case cNot:
		return !n.l.truth(st)
	case cVar:
		return st[n.slot].Truthy()
	case cLit:
		return n.lit.Truthy()
	}
	return compare(n.op, n.l.value(st), n.r.value(st))
}

func (n *cnode) value(st State) Value {
	switch n.op {
	case cVar:
		return st[n.slot]
	case cLit:
		return n.lit
	}
	return BoolValue(n.truth(st))
}

func compare(op cop, a, b Value) bool {
	if a.k != b.k {
		return op == cNe
	}
	switch a.k {
	case Number:
		switch op {
		case cEq:
			return a.n == b.n
		case cNe:
			return a.n != b.n
		case cLt:
			return a.n < b.n
		case cLe:
			return a.n <= b.n
		case cGt:
			return a.n > b.n
		case cGe:
			return a.n >= b.n
		}
	case String:
		switch op {
		case cEq:
			return a.s == b.s
		case cNe:
			return a.s != b.s
		case cLt:
			return a.s < b.s
		case cLe:
			return a.s <= b.s
		case cGt:
			return a.s > b.s
		case cGe:
			return a.s >= b.s
		}
	default:
		switch op {
		case cEq:
			return a.n == b.n
		case cNe:
			return a.n != b.n
		}
	}
	return false
}

// CompileCondition parses src and binds its variables to slots of s,
// interning names s does not have yet. Empty or blank text compiles to the
// empty condition, which always holds. The error is a *ParseError.
func CompileCondition(src string, s *Schema) (*Condition, error) {
	p := &cparser{lex: lexer{src: src}, schema: s}
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
		return nil, p.fail("an operator (&& || == != < <= > >=) or end of text")
	}
	c.root = root
	c.reads = p.reads
	return c, nil
}

type cparser struct {
	lex    lexer
	tok    token
	schema *Schema
	reads  []int
}

// maxNesting bounds parenthesis and "!" nesting so no input can exhaust the
// Go stack.
const maxNesting = 200

func (p *cparser) advance() { p.tok = p.lex.next() }

func (p *cparser) fail(expected string) *ParseError {
	if p.tok.kind == tBad {
		expected = p.tok.str
	}
	return &ParseError{Source: p.lex.src, Col: colOf(p.lex.src, p.tok.off), Expected: expected, Found: describe(p.tok)}
}

func (p *cparser) or(depth int) (*cnode, error) {
	l, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tOr {
		p.advance()
		r, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		l = &cnode{op: cOr, l: l, r: r}
	}
	return l, nil
}

func (p *cparser) and(depth int) (*cnode, error) {
	l, err := p.not(depth)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tAnd {
		p.advance()
		r, err := p.not(depth)
		if err != nil {
			return nil, err
		}
		l = &cnode{op: cAnd, l: l, r: r}
	}
	return l, nil
}

func (p *cparser) not(depth int) (*cnode, error) {
	if p.tok.kind == tNot {
		if depth >= maxNesting {
			return nil, p.fail("less nesting (at most 200 levels)")
		}
		p.advance()
		x, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		return &cnode{op: cNot, l: x}, nil
	}
	return p.compare(depth)
}

var cmpOps = map[tokKind]cop{tEq: cEq, tNe: cNe, tLt: cLt, tLe: cLe, tGt: cGt, tGe: cGe}

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
	return &cnode{op: op, l: l, r: r}, nil
}

func (p *cparser) operand(depth int) (*cnode, error) {
	t := p.tok
	switch t.kind {
	case tLP:
		if depth >= maxNesting {
			return nil, p.fail("less nesting (at most 200 levels)")
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
		return &cnode{op: cLit, lit: NumberValue(t.num)}, nil
	case tMinus:
		p.advance()
		if p.tok.kind != tNumber {
			return nil, p.fail("a number after \"-\"")
		}
		n := p.tok.num
		p.advance()
		return &cnode{op: cLit, lit: NumberValue(-n)}, nil
	case tString:
		p.advance()
		return &cnode{op: cLit, lit: StringValue(t.str)}, nil
	case tIdent:
		p.advance()
		switch t.text {
		case "true":
			return &cnode{op: cLit, lit: BoolValue(true)}, nil
		case "false":
			return &cnode{op: cLit, lit: BoolValue(false)}, nil
		case "nil", "null":
			return &cnode{op: cLit, lit: NilValue()}, nil
		}
		slot := p.schema.Intern(t.text)
		seen := false
		for _, r := range p.reads {
			seen = seen || r == slot
		}
		if !seen {
			p.reads = append(p.reads, slot)
		}
		return &cnode{op: cVar, slot: slot}, nil
	}
	return nil, p.fail("a value (a name, a number, a string, true, false or \"(\")")
}
